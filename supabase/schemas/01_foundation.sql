-- Foundation: the private schema, the extensions, and the checks and lists every area shares (the
-- catalog's genres, money, addresses, owned file paths), and the marketplace's own trust (the Worker's secret).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- `private` is never exposed through the API (PostgREST serves `public` only), so security definer
-- functions live here. The API roles need usage on it because policies call these helpers as the
-- requesting role.
create schema if not exists private;

-- Header and directory search: a case-insensitive partial match on names and short descriptions, served
-- by trigram indexes (ILIKE '%…%' cannot use a b-tree).
create extension if not exists pg_trgm with schema extensions;

revoke all on schema private from public;

grant usage on schema private to anon, authenticated, service_role;

create or replace function private.is_genre_list(genres text[])
returns boolean
language sql
immutable
set search_path = ''
as $$
  select genres <@ private.genre_list()
$$;

create or replace function private.is_currency(code text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select code in ('USD', 'EUR', 'GBP')
$$;

-- Deliberately loose (one @, a dot in the domain): the forms use an email input and nothing more.
create or replace function private.is_email(address text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select address ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
$$;

create or replace function private.is_url(address text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select address ~* '^https?://[^\s/$.?#][^\s]*$'
$$;

-- A JSON number inside [low, high] (whole when asked); anything else, a missing key included, is false.
create or replace function private.is_json_number(value jsonb, low numeric, high numeric, whole boolean default false)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(value) = 'number'
      then value::numeric between low and high and (not whole or value::numeric = trunc(value::numeric))
    else false
  end
$$;

-- Sign-up metadata lists arrive as JSON arrays of strings.
create or replace function private.text_array(value jsonb, field text)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or jsonb_typeof(value) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(value) <> 'array' or exists (
    select 1 from jsonb_array_elements(value) as item where jsonb_typeof(item) <> 'string'
  ) then
    raise exception '% must be a list of genres', field using errcode = '22023';
  end if;
  return array(select jsonb_array_elements_text(value));
end
$$;

-- Every stored reference to a file in our storage lies in its owner's own folder ({owner id}/...).
-- The track-audio-url function signs a track's file_url with the service role, so a track naming
-- another artist's object would hand out that artist's private (even unreleased) audio; artwork and
-- profile pictures are held to the same rule, so no row can present another user's file as its own.

-- An object path inside the owner's folder: {owner id}/name(/name...), no empty, `.` or `..` segment,
-- and none of the characters a URL or a path would read as something else.
create or replace function private.is_owned_object_path(path text, owner uuid)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select path ~ ('^' || owner::text || '(/[^/\\?#%[:space:][:cntrl:]]+)+$') and path !~ '/\.\.?(/|$)'
$$;

-- A public URL of an object in the owner's folder of a public bucket, as Storage's getPublicUrl writes
-- it (any host: the database does not know its own public address). Anything else, another site's
-- image included, is refused: pictures are uploaded, never linked.
create or replace function private.is_owned_public_url(url text, bucket text, owner uuid)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select url is null or (
    url ~ ('^https?://[^/?#\\@[:space:]]+/storage/v1/object/public/' || bucket || '/')
    and private.is_owned_object_path(regexp_replace(url, '^https?://[^/]+/storage/v1/object/public/[^/]+/', ''), owner)
  )
$$;

-- A picture's size as stored beside its URL (read by the Worker from the file's header): both sides or
-- neither, in whole pixels up to 10,000 a side and 25 megapixels (the app refuses larger pictures), and none
-- without a picture.
create or replace function private.is_picture_size(url text, width integer, height integer)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select (width is null) = (height is null)
    and coalesce(width between 1 and 10000 and height between 1 and 10000 and width::bigint * height <= 25000000, true)
    and (url is not null or width is null)
$$;

-- What one account may cause in an hour, by kind: media jobs (downloads asked for, Retries; each makes at
-- most an hour of audio, so an account costs the media Worker a bounded amount of work: 12_made_files.sql),
-- album zips (each passes an album's bytes through the marketplace: 13_downloads.sql) and download codes
-- made (about a millisecond of the backend each: 15_download_codes.sql). The app states the same numbers
-- (app/lib/constants.ts; tests/integration/limits.test.ts compares them).
create or replace function private.hourly_bound(what text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case hourly_bound.what
    when 'media jobs' then 200
    when 'album zips' then 30
    when 'download codes' then 3000
  end
$$;

grant execute on function private.hourly_bound(text) to anon, authenticated, service_role;

-- One request (one transaction, as PostgREST runs each) writes at most `tg_argv[1]` rows of a kind
-- (`tg_argv[0]`, the table): what one form or call of the app writes, never thousands that stall the
-- backend; past it, 54000 with `tg_argv[2]` as its message where given. The operator's own SQL (seeds,
-- backfills) is not an API role and is not counted.
create or replace function private.limit_rows_per_request()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  setting text := 'crate.written_' || tg_argv[0];
  written integer := coalesce(nullif(current_setting(setting, true), ''), '0')::integer + 1;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if written > tg_argv[1]::integer then
    raise exception '%', coalesce(tg_argv[2], format('at most %s rows of %s are written at once', tg_argv[1], tg_argv[0]))
      using errcode = '54000';
  end if;
  perform set_config(setting, written::text, true);
  return new;
end
$$;

revoke execute on function private.limit_rows_per_request() from public;

-- The one per-owner bound every table with one uses (a `before insert` trigger, for each row): an owner
-- (the new row's column `tg_argv[0]`) has at most `tg_argv[1]` rows in the table, or, with a window
-- (`tg_argv[3]`, an interval), at most that many written in it (by `created_at`); `tg_argv[4]`, where
-- given, a further column the rows counted share with the new one (comments on one track). Past it, 54000
-- with `tg_argv[2]` as its message. One owner's inserts wait for each other (a lock per table and owner,
-- whatever else is counted), so two at once cannot both take the last place. The operator's own SQL
-- (seeds, backfills) is not an API role and is not counted.
create or replace function private.limit_per_owner()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  held integer;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  perform pg_advisory_xact_lock(hashtext(tg_table_name || ':' || (to_jsonb(new) ->> tg_argv[0])));
  execute format('select count(*) from %I.%I t where t.%I = ($1).%I', tg_table_schema, tg_table_name, tg_argv[0], tg_argv[0])
    || case when tg_argv[3] is not null then ' and t.created_at > now() - $2::interval' else '' end
    || case when tg_argv[4] is not null then format(' and t.%I = ($1).%I', tg_argv[4], tg_argv[4]) else '' end
    into held
    using new, tg_argv[3];
  if held >= tg_argv[1]::integer then
    raise exception '%', tg_argv[2] using errcode = '54000';
  end if;
  return new;
end
$$;

revoke execute on function private.limit_per_owner() from public;

-- An amount of money in a JSON value: a number with at most two decimals.
create or replace function private.is_cents(value jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'number' and value::numeric = round(value::numeric, 2)
$$;

-- The catalog's genres: the sign-up, profile and track forms offer these (app/lib/constants.ts holds the
-- same list; tests/unit/genres.test.ts keeps the two equal).
create or replace function private.genre_list()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['Rock', 'Pop', 'Hip Hop', 'Electronic', 'Jazz', 'Classical', 'R&B', 'Folk', 'Metal', 'Country', 'Blues', 'Indie']::text[]
$$;

grant execute on function private.genre_list() to anon, authenticated, service_role;

-- Plays are recorded only through the marketplace. record_play counts a visitor by the listener id and
-- the address the Worker vouches for (its cookie, and the address Cloudflare saw); called straight
-- through the API, a script could name a new listener and address on every call and have each one
-- count. So a play counts only when the caller proves it is the marketplace's server: the secret it
-- sends in an X-Marketplace-Secret header (PostgREST hands the request's headers to the database), whose hash
-- the operator registers here (see the README). The anon key alone, or a user's own token, records
-- nothing. The same secret lets the Worker name stored files (files_named_by_the_marketplace below)
-- and ask about bans (private.suspended_until).
create table private.marketplace_secrets (
  secret_hash bytea primary key check (length(secret_hash) = 32),
  created_at timestamptz not null default now()
);

revoke all on private.marketplace_secrets from anon, authenticated;

-- For the operator (SQL editor, or the local scripts): trusts a Worker's secret. Long and random only.
create or replace function private.trust_marketplace_secret(secret text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if length(coalesce(secret, '')) < 32 then
    raise exception 'a marketplace secret has at least 32 characters' using errcode = '22023';
  end if;
  insert into private.marketplace_secrets (secret_hash) values (sha256(convert_to(secret, 'UTF8'))) on conflict do nothing;
end
$$;

revoke execute on function private.trust_marketplace_secret(text) from public, anon, authenticated;

-- Whether this request carries a registered marketplace secret. Triggers and policies ask it as the writer:
-- the answer tells nothing else, and `private` is not served by the API.
create or replace function private.is_marketplace_request()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.marketplace_secrets r
    where r.secret_hash = sha256(convert_to(
      coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-marketplace-secret', ''), 'UTF8'))
  )
$$;

revoke execute on function private.is_marketplace_request() from public, anon, authenticated;

grant execute on function private.is_marketplace_request() to anon, authenticated;

-- The marketplace's guard: the first statement of a function only the marketplace may call (orders,
-- payments, payouts, the media queue, mail), refusing any other caller (28000).
create or replace function private.require_marketplace_request()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not private.is_marketplace_request() then
    raise exception 'only the marketplace makes this request' using errcode = '28000';
  end if;
end
$$;

-- Asked only inside the security definer functions that guard with it, as their owner.
revoke execute on function private.require_marketplace_request() from public, anon, authenticated;

-- `YYYY-MM-DD` naming a day that exists. Immutable: an ISO date reads the same whatever DateStyle is.
create or replace function private.is_iso_date(value text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or value !~ '^\d{4}-\d{2}-\d{2}$' then
    return false;
  end if;
  return to_char(value::date, 'YYYY-MM-DD') = value;
exception
  when others then
    return false;
end
$$;

-- A row names a stored file only through the marketplace. Storage checks an upload's declared type, never
-- its bytes; the Worker checks the first bytes of every file (as it passes an upload on, and again before
-- a row names it). A user's own token could otherwise upload an HTML page declared `audio/mpeg` straight
-- to Storage and name it in a track. So a write through the API (as anon or authenticated) that sets a
-- file column to a new value must carry the Worker's secret; clearing one needs nothing. The service role
-- (Edge Functions) and the operator's own SQL (the seed) are not the API's users. The trigger's arguments
-- are the table's file columns, and the picture sizes the Worker read from those files' bytes.
create or replace function private.files_named_by_the_marketplace()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  file_column text;
  named text;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  foreach file_column in array tg_argv loop
    named := nullif(to_jsonb(new) ->> file_column, '');
    if named is not null
      and (tg_op = 'INSERT' or named is distinct from nullif(to_jsonb(old) ->> file_column, ''))
      and not private.is_marketplace_request() then
      raise exception 'a stored file is named only through the marketplace, which checks its bytes first'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end
$$;
