-- Baseline: the whole schema as supabase/schemas declares it, file by file in their order. It replaces
-- the history that led here (squashed before the first deploy; a drift check showed the two build the
-- same schema). Never edited: each later change is a migration written by `npm run db:diff` from an edit
-- to supabase/schemas.

-- ====================================================================================================
-- supabase/schemas/01_foundation.sql
-- ====================================================================================================

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
-- sends in an X-Play-Reporter header (PostgREST hands the request's headers to the database), whose hash
-- the operator registers here (see the README). The anon key alone, or a user's own token, records
-- nothing. The same secret lets the Worker name stored files (files_named_by_the_marketplace below)
-- and ask about bans (private.suspended_until).
create table private.play_reporters (
  secret_hash bytea primary key check (length(secret_hash) = 32),
  created_at timestamptz not null default now()
);

revoke all on private.play_reporters from anon, authenticated;

-- For the operator (SQL editor, or the local scripts): trusts a Worker's secret. Long and random only.
create or replace function private.trust_play_reporter(secret text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if length(coalesce(secret, '')) < 32 then
    raise exception 'a play reporter secret has at least 32 characters' using errcode = '22023';
  end if;
  insert into private.play_reporters (secret_hash) values (sha256(convert_to(secret, 'UTF8'))) on conflict do nothing;
end
$$;

revoke execute on function private.trust_play_reporter(text) from public, anon, authenticated;

-- Whether this request carries a registered reporter secret. Triggers and policies ask it as the writer:
-- the answer tells nothing else, and `private` is not served by the API.
create or replace function private.is_play_reporter()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.play_reporters r
    where r.secret_hash = sha256(convert_to(
      coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-play-reporter', ''), 'UTF8'))
  )
$$;

revoke execute on function private.is_play_reporter() from public, anon, authenticated;

grant execute on function private.is_play_reporter() to anon, authenticated;

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
-- are the table's file columns.
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
      and not private.is_play_reporter() then
      raise exception 'a stored file is named only through the marketplace, which checks its bytes first'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end
$$;

-- ====================================================================================================
-- supabase/schemas/02_accounts.sql
-- ====================================================================================================

-- Accounts: roles, artist and fan profiles, payout settings, the profile made at sign-up, and bans as
-- the sign-in form asks about them.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- A signed-in user whose account is not banned. Access tokens stay valid until they expire, so a ban
-- must also be checked here, where every write policy can see it.
create or replace function private.is_active_user()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from auth.users u
    where u.id = (select auth.uid())
      and u.deleted_at is null
      and (u.banned_until is null or u.banned_until <= now())
  )
$$;

revoke execute on function private.is_active_user() from public;

grant execute on function private.is_active_user() to anon, authenticated, service_role;

-- A banned administrator's access token still says admin until it expires: is_admin() answers for the
-- account as it is now. (The case keeps visitors from looking up a user at all.)
create or replace function public.is_admin()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select case
    when (select auth.jwt()) -> 'app_metadata' ->> 'role' = 'admin' then (select private.is_active_user())
    else false
  end
$$;

revoke execute on function public.is_admin() from public;

grant execute on function public.is_admin() to anon, authenticated, service_role;

create or replace function private.is_social_links(links jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(links) = 'object' then
      (select bool_and(
          key in ('twitter', 'instagram')
          and (jsonb_typeof(value) = 'null'
            or (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') <= 200
              and private.is_social_link(key, value #>> '{}'))))
        from jsonb_each(links)) is not false
    else false
  end
$$;

-- Upcoming shows: at most 50, each a real date with a venue and a city.
create or replace function private.is_tour_dates(dates jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(dates) = 'array' and jsonb_array_length(dates) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(show -> 'date') = 'string' and private.is_iso_date(show ->> 'date')
        and jsonb_typeof(show -> 'venue') = 'string' and char_length(show ->> 'venue') between 1 and 120
        and jsonb_typeof(show -> 'city') = 'string' and char_length(show ->> 'city') between 1 and 120, false)), true)
      from jsonb_array_elements(dates) as show)
    else false
  end
$$;

-- { minimum_price ≥ 0, default_currency, auto_withdraw, withdraw_threshold whole ≥ 50 }
create or replace function private.is_artist_payment_settings(settings jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(settings) = 'object' then coalesce(
      private.is_json_number(settings -> 'minimum_price', 0, 1000000)
      and private.is_currency(settings ->> 'default_currency')
      and jsonb_typeof(settings -> 'auto_withdraw') = 'boolean'
      and private.is_json_number(settings -> 'withdraw_threshold', 50, 1000000000, true), false)
    else false
  end
$$;

-- { paypal_email (or null), default_currency }
create or replace function private.is_fan_payment_settings(settings jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(settings) = 'object' then coalesce(
      (jsonb_typeof(settings -> 'paypal_email') = 'null'
        or settings -> 'paypal_email' is null
        or private.is_email(settings ->> 'paypal_email'))
      and private.is_currency(settings ->> 'default_currency'), false)
    else false
  end
$$;

create table public.artist_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  artist_name text not null check (btrim(artist_name) <> ''),
  short_description text,
  bio text,
  profile_image_url text,
  genres text[] not null default '{}' check (private.is_genre_list(genres)),
  website text check (private.is_url(website)),
  social_links jsonb not null default '{}' check (private.is_social_links(social_links)),
  tour_dates jsonb not null default '[]' check (private.is_tour_dates(tour_dates)),
  -- Kept by the followers triggers; lists sort by it.
  follower_count integer not null default 0 check (follower_count >= 0),
  created_at timestamptz not null default now(),
  constraint artist_profiles_profile_image_url_owned check (private.is_owned_public_url(profile_image_url, 'artwork', id)),
  constraint artist_profiles_artist_name_length check (char_length(artist_name) <= 100),
  constraint artist_profiles_short_description_length check (char_length(short_description) <= 200),
  constraint artist_profiles_bio_length check (char_length(bio) <= 5000),
  constraint artist_profiles_website_length check (char_length(website) <= 2000)
);

alter table public.artist_profiles enable row level security;

create index artist_profiles_created_at_idx on public.artist_profiles (created_at desc);

create index artist_profiles_genres_idx on public.artist_profiles using gin (genres);

create index artist_profiles_artist_name_trgm_idx on public.artist_profiles using gin (artist_name extensions.gin_trgm_ops);

create index artist_profiles_short_description_trgm_idx on public.artist_profiles
  using gin (short_description extensions.gin_trgm_ops);

create index artist_profiles_follower_count_idx on public.artist_profiles (follower_count desc, artist_name);

create trigger artist_profiles_files_named_by_the_marketplace
  before insert or update of profile_image_url on public.artist_profiles
  for each row execute function private.files_named_by_the_marketplace('profile_image_url');

-- Profiles and payout rows are created with the user (create_profile_for_new_user), never by the API; a user
-- edits their own. Column grants keep follower_count and ids out of reach.
revoke all on public.artist_profiles from anon, authenticated;

grant select on public.artist_profiles to anon, authenticated;

grant update (artist_name, short_description, bio, profile_image_url, genres, website, social_links, tour_dates)
  on public.artist_profiles to authenticated;

create policy "Visitors read artist profiles" on public.artist_profiles
  for select to anon using (true);

create policy "Users read artist profiles" on public.artist_profiles
  for select to authenticated using (true);

create policy "Artists update their own profile" on public.artist_profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()) and (select private.is_active_user()));

create table public.fan_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null check (btrim(username) <> ''),
  bio text,
  profile_image_url text,
  favorite_genres text[] not null default '{}' check (private.is_genre_list(favorite_genres)),
  created_at timestamptz not null default now(),
  constraint fan_profiles_profile_image_url_owned check (private.is_owned_public_url(profile_image_url, 'artwork', id)),
  constraint fan_profiles_username_length check (char_length(username) <= 50),
  constraint fan_profiles_bio_length check (char_length(bio) <= 2000)
);

alter table public.fan_profiles enable row level security;

create index fan_profiles_created_at_idx on public.fan_profiles (created_at desc);

create trigger fan_profiles_files_named_by_the_marketplace
  before insert or update of profile_image_url on public.fan_profiles
  for each row execute function private.files_named_by_the_marketplace('profile_image_url');

revoke all on public.fan_profiles from anon, authenticated;

grant select on public.fan_profiles to anon, authenticated;

grant update (username, bio, profile_image_url, favorite_genres) on public.fan_profiles to authenticated;

create policy "Visitors read fan profiles" on public.fan_profiles
  for select to anon using (true);

create policy "Users read fan profiles" on public.fan_profiles
  for select to authenticated using (true);

create policy "Fans update their own profile" on public.fan_profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()) and (select private.is_active_user()));

create table public.artist_payout_settings (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  paypal_email text not null check (private.is_email(paypal_email)),
  payment_settings jsonb not null
    default '{"minimum_price": 1, "default_currency": "USD", "auto_withdraw": false, "withdraw_threshold": 50}'
    check (private.is_artist_payment_settings(payment_settings)),
  created_at timestamptz not null default now(),
  constraint artist_payout_settings_paypal_email_length check (char_length(paypal_email) <= 254)
);

alter table public.artist_payout_settings enable row level security;

revoke all on public.artist_payout_settings from anon, authenticated;

grant select, update (paypal_email, payment_settings) on public.artist_payout_settings to authenticated;

create policy "Artists read their own payout settings" on public.artist_payout_settings
  for select to authenticated using (artist_id = (select auth.uid()));

create policy "Artists update their own payout settings" on public.artist_payout_settings
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create table public.fan_payout_settings (
  fan_id uuid primary key references public.fan_profiles (id) on delete cascade,
  payment_settings jsonb not null
    default '{"paypal_email": null, "default_currency": "USD"}'
    check (private.is_fan_payment_settings(payment_settings)),
  created_at timestamptz not null default now()
);

alter table public.fan_payout_settings enable row level security;

revoke all on public.fan_payout_settings from anon, authenticated;

grant select, update (payment_settings) on public.fan_payout_settings to authenticated;

create policy "Fans read their own payout settings" on public.fan_payout_settings
  for select to authenticated using (fan_id = (select auth.uid()));

create policy "Fans update their own payout settings" on public.fan_payout_settings
  for update to authenticated
  using (fan_id = (select auth.uid()))
  with check (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- Every artist or fan gets their profile in the same transaction as their auth user, from the metadata the
-- sign-up form sends, so a sign-up can never leave a user without a profile. Invalid metadata raises,
-- which rolls the whole sign-up back. Users without a role in their metadata (administrators created by
-- an operator) get no profile.
create or replace function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  metadata jsonb := coalesce(new.raw_user_meta_data, '{}');
  genres text[];
begin
  case metadata ->> 'role'
    when 'artist' then
      if nullif(btrim(metadata ->> 'artist_name'), '') is null then
        raise exception 'artist_name is required' using errcode = '23514';
      end if;
      if not coalesce(private.is_email(metadata ->> 'paypal_email'), false) then
        raise exception 'paypal_email is required and must be an email address' using errcode = '23514';
      end if;
      genres := private.text_array(metadata -> 'genres', 'genres');
      if not private.is_genre_list(genres) then
        raise exception 'genres must come from the genre list' using errcode = '23514';
      end if;

      insert into public.artist_profiles (id, artist_name, bio, genres)
      values (new.id, btrim(metadata ->> 'artist_name'), nullif(metadata ->> 'bio', ''), genres);
      insert into public.artist_payout_settings (artist_id, paypal_email)
      values (new.id, btrim(metadata ->> 'paypal_email'));

    when 'fan' then
      if nullif(btrim(metadata ->> 'username'), '') is null then
        raise exception 'username is required' using errcode = '23514';
      end if;
      genres := private.text_array(metadata -> 'favorite_genres', 'favorite_genres');
      if not private.is_genre_list(genres) then
        raise exception 'favorite_genres must come from the genre list' using errcode = '23514';
      end if;

      insert into public.fan_profiles (id, username, favorite_genres)
      values (new.id, btrim(metadata ->> 'username'), genres);
      insert into public.fan_payout_settings (fan_id) values (new.id);

    else
      null;
  end case;
  return new;
end
$$;

revoke execute on function private.create_profile_for_new_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();

-- Whether the signed-in user is an artist. Only artists write to the tracks bucket: a fan (or any account
-- without an artist profile) could otherwise store files there, in their own folder, that no track would
-- ever name.
create or replace function private.is_artist()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  -- Artist profiles are readable by every role; the profile's id is the user's.
  select exists (select 1 from public.artist_profiles p where p.id = (select auth.uid()))
$$;

revoke execute on function private.is_artist() from public;

grant execute on function private.is_artist() to anon, authenticated, service_role;

-- Whether the signed-in user is an artist or a fan, from their profile rows. Sign-up metadata says what
-- they chose, but it is theirs to edit (a fan can set user_metadata.role = 'artist' on themselves), so
-- the app's role guards decide by this instead; metadata only picks UI. An artist_profiles row makes an
-- artist, exactly what every artist policy checks.
create or replace function public.account_role()
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select case
    when exists (select 1 from public.artist_profiles p where p.id = (select auth.uid())) then 'artist'
    when exists (select 1 from public.fan_profiles p where p.id = (select auth.uid())) then 'fan'
  end
$$;

revoke execute on function public.account_role() from public, anon;

grant execute on function public.account_role() to authenticated, service_role;

-- A handle ('name', '@name') or a profile address on the network's own site; the app's socialProfile()
-- reads links with the same patterns.
create or replace function private.is_social_link(network text, value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select value ~ '^@?[A-Za-z0-9_.]{1,30}$'
    or value ~* (
      '^https?://(www\.)?('
      || case network when 'twitter' then 'twitter\.com|x\.com' when 'instagram' then 'instagram\.com' end
      || ')/@?[A-Za-z0-9_.]{1,30}([/?#]\S*)?$')
$$;

-- When a banned account's ban ends, for the sign-in form's message: Auth answers a banned user's sign-in
-- with user_banned and no date. Only the Worker may ask (28000 for anyone else), and only with the
-- password Auth has just accepted: for a wrong one the answer is null, as for an account that is not
-- banned, so nobody can list who is banned and until when.
create or replace function private.suspended_until(email text, password text)
returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_play_reporter() then
    raise exception 'a ban''s end is told through the marketplace' using errcode = '28000';
  end if;
  return (
    select u.banned_until
    from auth.users u
    where u.email = lower(btrim(suspended_until.email))
      and u.deleted_at is null
      and u.banned_until > now()
      and u.encrypted_password like '$2%'
      and u.encrypted_password = extensions.crypt(suspended_until.password, u.encrypted_password)
  );
end
$$;

revoke execute on function private.suspended_until(text, text) from public;

grant execute on function private.suspended_until(text, text) to anon, authenticated, service_role;

create or replace function public.suspended_until(email text, password text)
returns timestamptz
language sql
stable
security invoker
set search_path = ''
as $$
  select private.suspended_until(email, password)
$$;

revoke execute on function public.suspended_until(text, text) from public;

grant execute on function public.suspended_until(text, text) to anon, authenticated, service_role;

-- ====================================================================================================
-- supabase/schemas/03_catalog.sql
-- ====================================================================================================

-- Catalog: tracks and merch with their rules, the artist cards, the genre roll-ups, and the public
-- pages' functions (home, artist, directory, genre).
--
-- Every rule the forms hold is the database's too, so nothing written straight through the API can go
-- around them: lengths of every text people type, the price range, release dates from 1900 to two years
-- ahead, track numbers within an album's size, a track's genre from the catalog's list. The limits are the
-- app's (app/lib/constants.ts: textLimits, maximumPrice, albumTrackLimit).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Waveform peaks for the player: an array of numbers in [0, 1].
create or replace function private.is_peaks(peaks jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(peaks) = 'array' then (
      select coalesce(bool_and(private.is_json_number(peak, 0, 1)), true)
      from jsonb_array_elements(peaks) as peak)
    else false
  end
$$;

-- Tracks an artist publishes. A track is public once released (release_date has come); its artist sees
-- it from the moment it is created.
create table public.tracks (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  type text not null default 'single' check (type in ('album', 'single', 'other')),
  album_title text check (album_title is null or type = 'album'),
  track_number integer check (track_number > 0),
  genre text not null check (btrim(genre) <> ''),
  subgenre text,
  price numeric(10, 2) not null check (price >= 0.99),
  allow_pay_more boolean not null default false,
  description text not null check (btrim(description) <> ''),
  label text,
  release_date date not null default current_date,
  -- Path of the audio object in the private tracks bucket ({artist id}/{file}).
  file_url text,
  artwork_url text,
  peaks jsonb check (peaks is null or private.is_peaks(peaks)),
  duration_seconds numeric check (duration_seconds >= 0),
  created_at timestamptz not null default now(),
  -- An empty file_url is the spec's "track without an audio file", like null.
  constraint tracks_file_url_owned
    check (file_url is null or file_url = '' or private.is_owned_object_path(file_url, artist_id)),
  constraint tracks_artwork_url_owned check (private.is_owned_public_url(artwork_url, 'artwork', artist_id)),
  -- A small (about 200 px) rendition of each release's artwork and each merch image, made in the browser at
  -- upload and stored beside the original (in the owner's `small/` folder of the artwork bucket). Cards and
  -- lists show it; the track page shows the original. Null where there is none (a release published without
  -- JavaScript, or from before): pages then show the original.
  artwork_small_url text,
  constraint tracks_artwork_small_url_owned check (private.is_owned_public_url(artwork_small_url, 'artwork', artist_id)),
  constraint tracks_genre_in_catalog check (genre = any (private.genre_list())),
  constraint tracks_title_length check (char_length(title) <= 200),
  constraint tracks_album_title_length check (char_length(album_title) <= 200),
  constraint tracks_subgenre_length check (char_length(subgenre) <= 100),
  constraint tracks_label_length check (char_length(label) <= 100),
  constraint tracks_description_length check (char_length(description) <= 5000),
  constraint tracks_price_range check (price <= 1000),
  constraint tracks_track_number_range check (track_number <= 100),
  constraint tracks_release_date_range check (release_date >= date '1900-01-01')
);

alter table public.tracks enable row level security;

create index tracks_artist_id_release_date_idx on public.tracks (artist_id, release_date desc);

create index tracks_created_at_idx on public.tracks (created_at desc);

-- Finding a track genre whatever its case.
create index tracks_genre_lower_idx on public.tracks (lower(genre));

-- A genre's newest releases (the home page's rows), its released tracks counted, and per artist (genre
-- pages), all from the index.
create index tracks_genre_release_date_idx on public.tracks (genre, release_date desc, created_at desc) include (artist_id);

-- The tracks dated after today, per artist and genre: what the rollups hold that is not released yet.
-- Read from the release-date index alone.
create index tracks_release_date_genre_idx on public.tracks (release_date) include (genre, artist_id);

create trigger tracks_files_named_by_the_marketplace
  before insert or update of file_url, artwork_url, artwork_small_url on public.tracks
  for each row execute function private.files_named_by_the_marketplace('file_url', 'artwork_url', 'artwork_small_url');

revoke all on public.tracks from anon, authenticated;

grant select on public.tracks to anon, authenticated;

grant insert, update, delete on public.tracks to authenticated;

create policy "Visitors read released tracks" on public.tracks
  for select to anon using (release_date <= current_date);

create policy "Users read released tracks and their own" on public.tracks
  for select to authenticated
  using (release_date <= current_date or artist_id = (select auth.uid()));

-- The artist_id foreign key to artist_profiles is what keeps fans from publishing.
create policy "Artists add their own tracks" on public.tracks
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own tracks" on public.tracks
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists delete their own tracks" on public.tracks
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- Merchandise an artist sells, public to everyone.
create table public.merch (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  price numeric(10, 2) not null check (price >= 0.99),
  allow_pay_more boolean not null default false,
  description text not null check (btrim(description) <> ''),
  image_url text,
  created_at timestamptz not null default now(),
  constraint merch_image_url_owned check (private.is_owned_public_url(image_url, 'artwork', artist_id)),
  image_small_url text,
  constraint merch_image_small_url_owned check (private.is_owned_public_url(image_small_url, 'artwork', artist_id)),
  constraint merch_title_length check (char_length(title) <= 200),
  constraint merch_description_length check (char_length(description) <= 5000),
  constraint merch_price_range check (price <= 1000)
);

alter table public.merch enable row level security;

create index merch_artist_id_created_at_idx on public.merch (artist_id, created_at desc);

create trigger merch_files_named_by_the_marketplace
  before insert or update of image_url, image_small_url on public.merch
  for each row execute function private.files_named_by_the_marketplace('image_url', 'image_small_url');

revoke all on public.merch from anon, authenticated;

grant select on public.merch to anon, authenticated;

grant insert, update, delete on public.merch to authenticated;

create policy "Visitors read merch" on public.merch
  for select to anon using (true);

create policy "Users read merch" on public.merch
  for select to authenticated using (true);

create policy "Artists add their own merch" on public.merch
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own merch" on public.merch
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists delete their own merch" on public.merch
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- What the directory and genre pages show, computed by the database from the rows the reader can see
-- (security_invoker views: visitors count released tracks only).

-- Directory cards (/artists, /discover, home rows): public profile fields with follower and track counts.
create view public.artist_cards with (security_invoker = true) as
select
  a.id,
  a.artist_name,
  a.short_description,
  a.profile_image_url,
  a.genres,
  a.follower_count,
  (select count(*)::integer from public.tracks t where t.artist_id = a.id) as track_count,
  a.created_at
from public.artist_profiles a;

revoke all on public.artist_cards from anon, authenticated;

grant select on public.artist_cards to anon, authenticated;

-- One read per public page: each function returns exactly what its page shows, as JSON, so a render
-- makes a single round trip to the database. All are security invoker: they read through the same
-- row-level security as the tables (visitors see released tracks only), and "am I following" is
-- answered for the caller.

-- An artist as the directory cards show them.
create or replace function private.artist_card(artist public.artist_profiles)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', artist.id,
    'artist_name', artist.artist_name,
    'short_description', artist.short_description,
    'profile_image_url', artist.profile_image_url,
    'genres', to_jsonb(artist.genres),
    'follower_count', artist.follower_count
  )
$$;

revoke execute on function private.artist_card(public.artist_profiles) from public;

grant execute on function private.artist_card(public.artist_profiles) to anon, authenticated, service_role;

-- Home, with each genre's count from the rollup instead of counted over every released track.
create or replace function public.home_page()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with latest as (
    select t.* from public.tracks t
    where t.release_date <= current_date
    order by t.release_date desc, t.created_at desc
    limit 1
  ),
  per_genre as (
    select f.genre, f.track_count from private.genre_figures() f
  )
  select jsonb_build_object(
    'news', coalesce((
      select jsonb_agg(jsonb_build_object('id', n.id, 'title', n.title, 'content', n.content, 'type', n.type)
        order by n.created_at desc)
      from public.news_items n where n.active), '[]'),
    'featured', (
      select jsonb_build_object(
        'artist', private.artist_card(a),
        'track', jsonb_build_object('id', l.id, 'title', l.title, 'artwork_url', l.artwork_url,
          'artwork_small_url', l.artwork_small_url, 'type', l.type, 'album_title', l.album_title,
          'release_date', l.release_date),
        'is_following', exists (
          select 1 from public.followers f where f.artist_id = a.id and f.fan_id = (select auth.uid())))
      from latest l join public.artist_profiles a on a.id = l.artist_id),
    'new_artists', coalesce((
      select jsonb_agg(private.artist_card(a) order by a.created_at desc)
      from (select * from public.artist_profiles order by created_at desc limit 5) a), '[]'),
    'popular_artists', coalesce((
      select jsonb_agg(private.artist_card(a) order by a.follower_count desc, a.artist_name)
      from (select * from public.artist_profiles order by follower_count desc, artist_name limit 5) a), '[]'),
    'genres', coalesce((
      select jsonb_agg(jsonb_build_object('genre', g.genre, 'track_count', g.track_count, 'tracks', (
          select jsonb_agg(jsonb_build_object(
              'id', t.id, 'title', t.title, 'artwork_url', t.artwork_url, 'artwork_small_url', t.artwork_small_url,
              'artist_id', t.artist_id, 'artist_name', a.artist_name, 'release_date', t.release_date)
            order by t.release_date desc, t.created_at desc)
          from (
            select * from public.tracks t
            where t.genre = g.genre and t.release_date <= current_date
            order by t.release_date desc, t.created_at desc
            limit 5
          ) t
          join public.artist_profiles a on a.id = t.artist_id))
        order by g.track_count desc, g.genre)
      from per_genre g), '[]')
  )
$$;

revoke execute on function public.home_page() from public;

grant execute on function public.home_page() to anon, authenticated, service_role;

create or replace function public.genre_page(genre text, max_artists integer default 200)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with named as (
    select coalesce(
      (select g from unnest(private.genre_list()) as g where lower(g) = lower(genre_page.genre)),
      (select t.genre from public.tracks t where lower(t.genre) = lower(genre_page.genre)
        group by t.genre order by count(*) desc, t.genre limit 1)
    ) as genre
  ),
  listed as (
    select a.id, a.artist_name, a.short_description, a.profile_image_url, a.follower_count, c.track_count
    from named
    cross join private.genre_artist_tracks(named.genre) c
    -- each artist by their id (OFFSET 0 keeps the lookup): a join would read every profile for a genre's share
    cross join lateral (select * from public.artist_profiles p where p.id = c.artist_id offset 0) a
  )
  select jsonb_build_object(
    'genre', (select genre from named),
    'artists', coalesce((
      select jsonb_agg(to_jsonb(l) order by l.track_count desc, l.follower_count desc, l.artist_name)
      from (select * from listed order by track_count desc, follower_count desc, artist_name
            limit least(greatest(max_artists, 1), 500)) l
    ), '[]')
  )
$$;

grant execute on function public.genre_page(text, integer) to anon, authenticated, service_role;

create or replace function public.artist_directory(
  search text default '',
  include_genres boolean default true,
  any_genres text[] default '{}',
  newest boolean default false,
  page integer default 1,
  page_size integer default 48
)
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  term text := btrim(coalesce(search, ''));
  size integer := least(greatest(coalesce(page_size, 48), 1), 100);
  skip integer := (least(greatest(coalesce(page, 1), 1), 10000) - 1) * size;
  -- the genres the text names in part ("hip" names Hip Hop), when genres count as text
  named_genres text[] := case
    when include_genres and term <> '' then
      array(select g from unnest(private.genre_list()) as g where strpos(lower(g), lower(term)) > 0)
    else '{}'
  end;
  conditions text[] := '{}';
  ordering text := case when newest then 'a.created_at desc, a.id' else 'a.follower_count desc, a.artist_name, a.id' end;
  filter text;
  result jsonb;
begin
  if term <> '' then
    conditions := array_append(conditions, '(a.artist_name ilike $1 or a.short_description ilike $1 or a.genres && $2)');
  end if;
  if cardinality(coalesce(any_genres, '{}')) > 0 then
    conditions := array_append(conditions, 'a.genres && $3');
  end if;
  filter := case when cardinality(conditions) > 0 then 'where ' || array_to_string(conditions, ' and ') else '' end;
  execute format(
    $query$
      select jsonb_build_object(
        'total', (select count(*) from public.artist_profiles a %1$s),
        'artists', coalesce((
          select jsonb_agg(
            private.artist_card(p.profile) || jsonb_build_object(
              'track_count', (select count(*) from public.tracks t where t.artist_id = (p.profile).id),
              'created_at', (p.profile).created_at)
            order by p.n)
          from (
            select a as profile, row_number() over (order by %2$s) as n
            from public.artist_profiles a %1$s
            order by %2$s
            limit $4 offset $5
          ) p), '[]'))
    $query$, filter, ordering)
  into result
  using '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%', named_genres, any_genres, size, skip;
  return result;
end
$$;

revoke execute on function public.artist_directory(text, boolean, text[], boolean, integer, integer) from public;

grant execute on function public.artist_directory(text, boolean, text[], boolean, integer, integer)
  to anon, authenticated, service_role;

-- Genre figures at any size. Home and /genres counted every released track per genre on each visit (53
-- and 132 ms at 100× the demo data), and a genre's page read every profile tagged with it. The database
-- keeps the counts as tracks and profiles change: per artist and genre, and per genre.
--
-- The rollups count tracks whatever their release date. A scheduled release becomes released on its day
-- without any write, so the readers take away the tracks still scheduled: the few dated after today,
-- found by the release-date index. The figures are exact on every day and no job has to run.

-- One row per artist and genre they have tracks in or their profile names.
create table private.artist_genre_tracks (
  genre text not null,
  artist_id uuid not null,
  track_count integer not null default 0,
  tagged boolean not null default false,
  primary key (genre, artist_id)
);

create index artist_genre_tracks_artist_id_idx on private.artist_genre_tracks (artist_id);

-- A genre's artists from the index alone.
create index artist_genre_tracks_genre_idx on private.artist_genre_tracks (genre) include (artist_id, track_count, tagged);

revoke all on private.artist_genre_tracks from anon, authenticated;

-- One row per genre: its tracks, and the artists with at least one track in it.
create table private.genre_tracks (
  genre text primary key,
  track_count integer not null default 0,
  artist_count integer not null default 0
);

revoke all on private.genre_tracks from anon, authenticated;

-- Adds each (artist, genre, change in tracks) to both rollups in one statement. The upsert returns each
-- row's new count under its lock, so an artist is counted in or out of a genre exactly once even when
-- two writers meet; rows are locked in key order, so two writers never wait on each other in a circle.
-- Rows left with no track and no tag go.
create or replace function private.count_genre_tracks(artist_ids uuid[], genres text[], changes integer[])
returns void
language sql
security definer
set search_path = ''
as $$
  with delta as (
    select d.artist_id, d.genre, d.change
    from unnest(artist_ids, genres, changes) as d(artist_id, genre, change)
    where d.change <> 0
  ),
  counted as (
    insert into private.artist_genre_tracks as r (genre, artist_id, track_count)
    select d.genre, d.artist_id, d.change from delta d order by d.genre, d.artist_id
    on conflict (genre, artist_id) do update set track_count = r.track_count + excluded.track_count
    returning r.genre, r.artist_id, r.track_count
  )
  insert into private.genre_tracks as g (genre, track_count, artist_count)
  select c.genre, sum(d.change),
    count(*) filter (where d.change > 0 and c.track_count = d.change) - count(*) filter (where c.track_count = 0)
  from counted c
  join delta d on d.genre = c.genre and d.artist_id = c.artist_id
  group by c.genre
  order by c.genre
  on conflict (genre) do update
    set track_count = g.track_count + excluded.track_count, artist_count = g.artist_count + excluded.artist_count;

  delete from private.artist_genre_tracks r
  using unnest(artist_ids, genres) as d(artist_id, genre)
  where r.genre = d.genre and r.artist_id = d.artist_id and r.track_count = 0 and not r.tagged;
$$;

revoke execute on function private.count_genre_tracks(uuid[], text[], integer[]) from public, anon, authenticated;

-- Statement triggers: a bulk insert is one grouped write. Tracks of an artist being deleted are
-- skipped: the artist's own trigger below takes their rows away whole.
create or replace function private.roll_up_track_genres()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  artist_ids uuid[];
  genres text[];
  changes integer[];
begin
  if tg_op = 'INSERT' then
    select array_agg(c.artist_id), array_agg(c.genre), array_agg(c.change)
    into artist_ids, genres, changes
    from (select t.artist_id, t.genre, count(*)::integer as change from added_tracks t group by 1, 2) c;
  elsif tg_op = 'DELETE' then
    select array_agg(c.artist_id), array_agg(c.genre), array_agg(c.change)
    into artist_ids, genres, changes
    from (
      select t.artist_id, t.genre, -count(*)::integer as change
      from removed_tracks t
      where exists (select 1 from public.artist_profiles a where a.id = t.artist_id)
      group by 1, 2
    ) c;
  else
    select array_agg(c.artist_id), array_agg(c.genre), array_agg(c.change)
    into artist_ids, genres, changes
    from (
      select t.artist_id, t.genre, sum(t.change)::integer as change
      from (
        select n.artist_id, n.genre, 1 as change from added_tracks n
        union all
        select o.artist_id, o.genre, -1 from removed_tracks o
      ) t
      group by 1, 2
    ) c;
  end if;
  if artist_ids is not null then
    perform private.count_genre_tracks(artist_ids, genres, changes);
  end if;
  return null;
end
$$;

create trigger roll_up_added_track_genres
  after insert on public.tracks referencing new table as added_tracks
  for each statement execute function private.roll_up_track_genres();

create trigger roll_up_changed_track_genres
  after update on public.tracks referencing old table as removed_tracks new table as added_tracks
  for each statement execute function private.roll_up_track_genres();

create trigger roll_up_removed_track_genres
  after delete on public.tracks referencing old table as removed_tracks
  for each statement execute function private.roll_up_track_genres();

revoke execute on function private.roll_up_track_genres() from public, anon, authenticated;

-- The genres a profile names (a genre's page lists those artists with 0 tracks too); a removed artist's
-- rows leave both rollups.
create or replace function private.roll_up_profile_genres()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update private.genre_tracks g
    set track_count = g.track_count - r.track_count, artist_count = g.artist_count - 1
    from private.artist_genre_tracks r
    where r.artist_id = old.id and r.genre = g.genre and r.track_count > 0;
    delete from private.artist_genre_tracks r where r.artist_id = old.id;
    return null;
  end if;

  insert into private.artist_genre_tracks as r (genre, artist_id, tagged)
  select g, new.id, true from unnest(new.genres) as g
  on conflict (genre, artist_id) do update set tagged = true;
  update private.artist_genre_tracks r set tagged = false
  where r.artist_id = new.id and r.tagged and not (r.genre = any (new.genres));
  delete from private.artist_genre_tracks r
  where r.artist_id = new.id and r.track_count = 0 and not r.tagged;
  return null;
end
$$;

create trigger roll_up_profile_genres
  after insert or update of genres or delete on public.artist_profiles
  for each row execute function private.roll_up_profile_genres();

revoke execute on function private.roll_up_profile_genres() from public, anon, authenticated;

create or replace function private.scheduled_genre_tracks(only_genre text default null)
returns table (genre text, artist_id uuid, track_count integer)
language sql
stable
security definer
set search_path = ''
as $$
  select t.genre, t.artist_id, count(*)::integer
  from public.tracks t
  where t.release_date > current_date and (only_genre is null or t.genre = only_genre)
  group by 1, 2
$$;

revoke execute on function private.scheduled_genre_tracks(text) from public;

-- Released tracks per genre, and the artists who released them. The same figures for every reader:
-- the public catalog's, whoever is signed in.
create or replace function private.genre_figures()
returns table (genre text, artist_count integer, track_count integer)
language sql
stable
security definer
set search_path = ''
as $$
  with scheduled as (
    -- each looked up by its key: a join would read the whole rollup for a few scheduled tracks
    select s.genre, s.track_count,
      (select r.track_count from private.artist_genre_tracks r where r.genre = s.genre and r.artist_id = s.artist_id) as all_tracks
    from private.scheduled_genre_tracks() s
  ),
  waiting as (
    select s.genre, sum(s.track_count)::integer as tracks,
      (count(*) filter (where s.all_tracks = s.track_count))::integer as artists
    from scheduled s
    group by s.genre
  )
  select g.genre, g.artist_count - coalesce(w.artists, 0), g.track_count - coalesce(w.tracks, 0)
  from private.genre_tracks g
  left join waiting w on w.genre = g.genre
  where g.track_count - coalesce(w.tracks, 0) > 0
$$;

revoke execute on function private.genre_figures() from public;

grant execute on function private.genre_figures() to anon, authenticated, service_role;

-- A genre's artists: those whose profile names it and those with released tracks in it, each with their
-- count of released tracks in it.
create or replace function private.genre_artist_tracks(genre text)
returns table (artist_id uuid, track_count integer)
language sql
stable
security definer
set search_path = ''
as $$
  select r.artist_id, r.track_count - coalesce(s.track_count, 0)
  from private.artist_genre_tracks r
  left join private.scheduled_genre_tracks(genre_artist_tracks.genre) s on s.artist_id = r.artist_id
  where r.genre = genre_artist_tracks.genre
    and (r.tagged or r.track_count > coalesce(s.track_count, 0))
$$;

revoke execute on function private.genre_artist_tracks(text) from public;

grant execute on function private.genre_artist_tracks(text) to anon, authenticated, service_role;

create view public.genre_counts with (security_invoker = true) as
select f.genre, f.artist_count, f.track_count, f.artist_count + f.track_count as total_count
from private.genre_figures() f;

revoke all on public.genre_counts from anon, authenticated;

grant select on public.genre_counts to anon, authenticated;

create function public.artist_page(artist_id uuid, release_page integer default 1, release_page_size integer default 24)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with paging as (
    select least(greatest(coalesce(release_page_size, 24), 1), 100) as size,
      least(greatest(coalesce(release_page, 1), 1), 10000) as page
  ),
  artist_tracks as (
    -- What the caller may see of the artist's tracks (row-level security: released ones, and the
    -- artist's own upcoming ones for the artist), each with the release it belongs to.
    select t.*,
      case when t.type = 'album' and btrim(coalesce(t.album_title, '')) <> '' then 'album:' || btrim(t.album_title)
        else t.id::text end as release_key
    from public.tracks t
    where t.artist_id = artist_page.artist_id
  ),
  releases as (
    -- Newest first: an album is as new as its newest track.
    select r.release_key,
      row_number() over (order by max(r.release_date) desc, min(r.album_title), max(r.created_at) desc, r.release_key) as n
    from artist_tracks r
    group by r.release_key
  ),
  shown as (
    select r.release_key, r.n
    from releases r, paging p
    where r.n > (p.page - 1) * p.size and r.n <= p.page * p.size
  )
  select private.artist_card(a) || jsonb_build_object(
    'bio', a.bio,
    'website', a.website,
    'social_links', a.social_links,
    'is_following', exists (
      select 1 from public.followers f where f.artist_id = a.id and f.fan_id = (select auth.uid())),
    'latest_followers', coalesce((
      select jsonb_agg(jsonb_build_object('id', f.fan_id, 'display_name', f.display_name,
          'profile_image_url', f.profile_image_url, 'is_fan', f.is_fan) order by f.created_at desc)
      from (
        select * from public.artist_followers f where f.artist_id = a.id order by f.created_at desc limit 5
      ) f), '[]'),
    'upcoming_shows', coalesce((
      select jsonb_agg(show order by show ->> 'date')
      from jsonb_array_elements(a.tour_dates) as show
      where show ->> 'date' >= to_char(current_date, 'YYYY-MM-DD')), '[]'),
    'release_count', (select count(*) from releases),
    -- The page's releases in order, each release's tracks together, so the page groups them as listed.
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', t.id, 'title', t.title, 'type', t.type, 'album_title', t.album_title,
          'track_number', t.track_number, 'genre', t.genre, 'price', t.price, 'artwork_url', t.artwork_url,
          'artwork_small_url', t.artwork_small_url,
          'release_date', t.release_date, 'upcoming', t.release_date > current_date,
          'duration_seconds', t.duration_seconds)
        order by s.n, t.release_date desc, t.track_number nulls last, t.created_at desc)
      from artist_tracks t
      join shown s using (release_key)), '[]'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'description', m.description, 'image_url', m.image_url,
          'image_small_url', m.image_small_url)
        order by m.created_at desc)
      from (select * from public.merch m where m.artist_id = a.id order by m.created_at desc limit 24) m), '[]')
  )
  from public.artist_profiles a
  where a.id = artist_page.artist_id
$$;

revoke execute on function public.artist_page(uuid, integer, integer) from public;

grant execute on function public.artist_page(uuid, integer, integer) to anon, authenticated, service_role;

-- A release may be announced up to two years ahead. "Ahead" moves with the calendar, which a check
-- constraint must not depend on, so a trigger holds it when the date is written; it refuses as a check
-- constraint would (23514), so the app reads it the same way.
create or replace function private.release_date_in_range()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.release_date > current_date + interval '2 years' then
    raise exception 'release date % is more than two years ahead', new.release_date
      using errcode = 'check_violation', constraint = 'tracks_release_date_range';
  end if;
  return new;
end
$$;

create trigger tracks_release_date_in_range
  before insert or update of release_date on public.tracks
  for each row execute function private.release_date_in_range();

-- ====================================================================================================
-- supabase/schemas/04_studio.sql
-- ====================================================================================================

-- Studio: the store's settings, what the artist's dashboard and catalog read, and the uploads no
-- release names yet.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Store settings as the Store Settings form keeps them (spec section 5): the database holds the same rules
-- as the form's schema, so a write through the API cannot store what the form would refuse.
-- - pricing tiers: a name and an optional description of bounded length, a price from 0 to the catalog's
--   maximum in cents, at most 20 tiers;
-- - discount codes: a code (unique per artist whatever its case), a whole percentage 0-100, an optional
--   real date it is valid until, on or off; at most 50 codes;
-- - bundling: on or off, with a percentage 0-100.
create or replace function private.is_pricing_tiers(tiers jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(tiers) = 'array' and jsonb_array_length(tiers) <= 20 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(tier -> 'id') = 'string' and char_length(tier ->> 'id') <= 40
        and jsonb_typeof(tier -> 'name') = 'string' and btrim(tier ->> 'name') <> '' and char_length(tier ->> 'name') <= 100
        and private.is_json_number(tier -> 'price', 0, 1000) and private.is_cents(tier -> 'price')
        and (jsonb_typeof(tier -> 'description') is null or jsonb_typeof(tier -> 'description') = 'null'
          or (jsonb_typeof(tier -> 'description') = 'string' and char_length(tier ->> 'description') <= 500)), false)), true)
      from jsonb_array_elements(tiers) as tier)
    else false
  end
$$;

create or replace function private.is_discounts(discounts jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(discounts) = 'array' and jsonb_array_length(discounts) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(discount -> 'id') = 'string' and char_length(discount ->> 'id') <= 40
        and jsonb_typeof(discount -> 'code') = 'string' and btrim(discount ->> 'code') <> ''
        and char_length(discount ->> 'code') <= 40
        and private.is_json_number(discount -> 'percentage', 0, 100, true)
        and (jsonb_typeof(discount -> 'validUntil') is null or jsonb_typeof(discount -> 'validUntil') = 'null'
          or private.is_iso_date(discount ->> 'validUntil'))
        and jsonb_typeof(discount -> 'active') = 'boolean', false)), true)
        and count(distinct lower(btrim(discount ->> 'code'))) = count(*)
      from jsonb_array_elements(discounts) as discount)
    else false
  end
$$;

-- { enabled, discountPercentage 0-100 }
create or replace function private.is_bundling(bundling jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(bundling) = 'object' then coalesce(
      jsonb_typeof(bundling -> 'enabled') = 'boolean'
      and private.is_json_number(bundling -> 'discountPercentage', 0, 100), false)
    else false
  end
$$;

create table public.store_settings (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  pricing_tiers jsonb not null default '[]' check (private.is_pricing_tiers(pricing_tiers)),
  discounts jsonb not null default '[]' check (private.is_discounts(discounts)),
  bundling jsonb not null default '{"enabled": false, "discountPercentage": 10}' check (private.is_bundling(bundling)),
  created_at timestamptz not null default now()
);

alter table public.store_settings enable row level security;

revoke all on public.store_settings from anon, authenticated;

grant select, insert (artist_id, pricing_tiers, discounts, bundling),
  update (pricing_tiers, discounts, bundling) on public.store_settings to authenticated;

create policy "Artists read their own store settings" on public.store_settings
  for select to authenticated using (artist_id = (select auth.uid()));

create policy "Artists create their own store settings" on public.store_settings
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own store settings" on public.store_settings
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create or replace function public.studio_catalog(kind text default 'all', page integer default 1, page_size integer default 50)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with mine as (
    select t.*
    from public.tracks t
    where t.artist_id = (select auth.uid())
      and (studio_catalog.kind = 'all' or t.type = studio_catalog.kind)
  ),
  shown as (
    select m.* from mine m
    order by m.release_date desc, m.album_title nulls first, m.track_number nulls last, m.created_at desc
    limit least(greatest(studio_catalog.page_size, 1), 100)
    offset (greatest(studio_catalog.page, 1) - 1) * least(greatest(studio_catalog.page_size, 1), 100)
  )
  select jsonb_build_object(
    'track_count', (select count(*) from mine),
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', s.id, 'title', s.title, 'type', s.type, 'album_title', s.album_title,
          'track_number', s.track_number, 'price', s.price, 'artwork_url', s.artwork_url,
          'artwork_small_url', s.artwork_small_url,
          'release_date', s.release_date, 'upcoming', s.release_date > current_date,
          'plays', (select coalesce(sum(d.plays), 0) from public.track_daily_stats d where d.track_id = s.id))
        order by s.release_date desc, s.album_title nulls first, s.track_number nulls last, s.created_at desc)
      from shown s), '[]'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'image_url', m.image_url, 'image_small_url', m.image_small_url) order by m.created_at desc)
      from (
        select * from public.merch m where m.artist_id = (select auth.uid()) order by m.created_at desc limit 100
      ) m), '[]')
  )
$$;

revoke execute on function public.studio_catalog(text, integer, integer) from public;

grant execute on function public.studio_catalog(text, integer, integer) to authenticated, service_role;

-- Files the upload form stored ahead of publishing (resumable uploads start the moment a file is chosen)
-- that no release ever used, because the artist left the form. Removed files are taken care of by the
-- form itself; these are what is left: audio in the tracks bucket and artwork renditions (the `small/`
-- folder) that no track or merch item names, older than a day. Full-size artwork is not listed: it shows
-- in the artist's Media Manager, where they see it and may use or remove it.
-- Read by the sweep-unpublished-uploads Edge Function with the service role, which removes them through
-- Storage (objects are never deleted in SQL: the bytes live in Storage).

create or replace function public.unpublished_uploads(older_than interval default '1 day', max_count integer default 500)
returns table (bucket_id text, name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select o.bucket_id, o.name
  from storage.objects o
  cross join lateral (
    select case when split_part(o.name, '/', 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then split_part(o.name, '/', 1)::uuid end as owner_id
  ) folder
  where o.created_at < now() - unpublished_uploads.older_than
    and (
      (o.bucket_id = 'tracks' and not exists (
        select 1 from public.tracks t where t.artist_id = folder.owner_id and t.file_url = o.name))
      or (o.bucket_id = 'artwork' and split_part(o.name, '/', 2) = 'small'
        and not exists (
          select 1 from public.tracks t
          where t.artist_id = folder.owner_id and split_part(t.artwork_small_url, '/object/public/artwork/', 2) = o.name)
        and not exists (
          select 1 from public.merch m
          where m.artist_id = folder.owner_id and split_part(m.image_small_url, '/object/public/artwork/', 2) = o.name))
    )
  order by o.created_at
  limit least(greatest(unpublished_uploads.max_count, 1), 1000)
$$;

revoke execute on function public.unpublished_uploads(interval, integer) from public, anon, authenticated;

grant execute on function public.unpublished_uploads(interval, integer) to service_role;

-- The dashboard's statistics row sums the rollups rather than counting every event: sales, downloads and
-- plays of the last 30 UTC days against the 30 before, at any number of events.
create or replace function public.artist_dashboard()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with me as (
    select (select auth.uid()) as id, (now() at time zone 'UTC')::date - 29 as recent_from,
      (now() at time zone 'UTC')::date - 59 as previous_from, now() - interval '30 days' as recent_since,
      now() - interval '60 days' as previous_since
  ),
  figures as (
    select coalesce(sum(s.revenue), 0) as revenue,
      coalesce(sum(s.revenue) filter (where s.day >= me.recent_from), 0) as recent_revenue,
      coalesce(sum(s.revenue) filter (where s.day >= me.previous_from and s.day < me.recent_from), 0) as previous_revenue,
      coalesce(sum(s.downloads), 0) as downloads,
      coalesce(sum(s.downloads) filter (where s.day >= me.recent_from), 0) as recent_downloads,
      coalesce(sum(s.downloads) filter (where s.day >= me.previous_from and s.day < me.recent_from), 0) as previous_downloads,
      coalesce(sum(s.plays), 0) as plays,
      coalesce(sum(s.plays) filter (where s.day >= me.recent_from), 0) as recent_plays,
      coalesce(sum(s.plays) filter (where s.day >= me.previous_from and s.day < me.recent_from), 0) as previous_plays
    from me left join public.track_daily_stats s on s.artist_id = me.id
    group by me.id
  ),
  follows as (
    select count(*) filter (where f.created_at >= me.recent_since) as recent,
      count(*) filter (where f.created_at >= me.previous_since and f.created_at < me.recent_since) as previous
    from me left join public.followers f on f.artist_id = me.id
    group by me.id
  ),
  activity as (
    (select 'purchase' as type, p.id, p.track_id, p.user_id, p.amount, null::text as content, p.created_at
      from me join public.purchases p on p.artist_id = me.id order by p.created_at desc limit 5)
    union all
    (select e.type, e.id, e.track_id, e.user_id, null, null, e.created_at
      from me join public.analytics_events e on e.artist_id = me.id order by e.created_at desc limit 5)
    union all
    (select 'comment', c.id, c.track_id, c.user_id, null, c.content, c.created_at
      from me join public.comments c on c.artist_id = me.id order by c.created_at desc limit 5)
  )
  select jsonb_build_object(
    'stats', (
      select jsonb_build_object(
        'revenue', jsonb_build_object('total', f.revenue, 'trend', private.trend(f.recent_revenue, f.previous_revenue)),
        'downloads', jsonb_build_object('total', f.downloads, 'trend', private.trend(f.recent_downloads, f.previous_downloads)),
        'streams', jsonb_build_object('total', f.plays, 'trend', private.trend(f.recent_plays, f.previous_plays)),
        'followers', (select jsonb_build_object('total', a.follower_count, 'trend', private.trend(fo.recent, fo.previous))
          from me join public.artist_profiles a on a.id = me.id cross join follows fo))
      from figures f),
    'library', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'type', t.type,
          'artwork_url', coalesce(t.artwork_small_url, t.artwork_url), 'release_date', t.release_date)
        order by t.release_date desc, t.created_at desc)
      from (
        select t.* from me join public.tracks t on t.artist_id = me.id order by t.release_date desc, t.created_at desc limit 3
      ) t), '[]'),
    'activity', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'type', a.type, 'track_title', t.title, 'track_id', a.track_id,
          'username', coalesce(fan.username, artist.artist_name), 'amount', a.amount, 'content', a.content,
          'created_at', a.created_at) order by a.created_at desc)
      from (select * from activity order by created_at desc limit 10) a
      left join public.tracks t on t.id = a.track_id
      left join public.fan_profiles fan on fan.id = a.user_id
      left join public.artist_profiles artist on artist.id = a.user_id), '[]')
  )
$$;

revoke execute on function public.artist_dashboard() from public, anon;

grant execute on function public.artist_dashboard() to authenticated, service_role;

-- What reached Storage without the Worker. Storage keeps what its bucket's declared types allow, so a
-- user's own token can still store an HTML page declared `audio/mpeg`; no row may name it
-- (private.files_named_by_the_marketplace), and the daily sweep (sweep-unpublished-uploads) reads the first bytes of each audio and image file stored
-- since the day before yesterday and removes those that are not the type declared for them. A day's
-- uploads at most `max_count`; the window overlaps, so a missed run is made up the next day.
create or replace function public.recent_uploads(within interval default '2 days', max_count integer default 1000)
returns table (bucket_id text, name text, mimetype text)
language sql
stable
security invoker
set search_path = ''
as $$
  select o.bucket_id, o.name, o.metadata ->> 'mimetype'
  from storage.objects o
  where o.bucket_id in ('tracks', 'artwork')
    and o.created_at > now() - recent_uploads.within
  order by o.created_at desc
  limit least(greatest(recent_uploads.max_count, 1), 10000)
$$;

revoke execute on function public.recent_uploads(interval, integer) from public, anon, authenticated;

grant execute on function public.recent_uploads(interval, integer) to service_role;

-- ====================================================================================================
-- supabase/schemas/05_fan.sql
-- ====================================================================================================

-- Fan: follows, likes, comments and purchases, and the fan's pages.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Who follows which artist. Any signed-in user may follow an artist, never themselves.
-- artist_profiles.follower_count is kept by triggers: each follow or unfollow updates the artist row,
-- whose row lock serialises concurrent changes, so the count stays exact.

create table public.followers (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  fan_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (artist_id, fan_id),
  constraint followers_not_self check (artist_id <> fan_id)
);

alter table public.followers enable row level security;

-- (artist_id, fan_id) is indexed by the unique constraint; this one serves "latest followers".
create index followers_artist_id_created_at_idx on public.followers (artist_id, created_at desc);

create index followers_fan_id_created_at_idx on public.followers (fan_id, created_at desc);

revoke all on public.followers from anon, authenticated;

grant select on public.followers to anon, authenticated;

grant insert (artist_id, fan_id), delete on public.followers to authenticated;

create policy "Visitors read followers" on public.followers
  for select to anon using (true);

create policy "Users read followers" on public.followers
  for select to authenticated using (true);

create policy "Users follow as themselves" on public.followers
  for insert to authenticated
  with check (fan_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users unfollow as themselves" on public.followers
  for delete to authenticated
  using (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- Definer: the follower may not update the artist's row themselves.
create or replace function private.count_follower()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.artist_profiles set follower_count = follower_count + 1 where id = new.artist_id;
  else
    update public.artist_profiles set follower_count = follower_count - 1 where id = old.artist_id;
  end if;
  return null;
end
$$;

create trigger count_follower
  after insert or delete on public.followers
  for each row execute function private.count_follower();

revoke execute on function private.count_follower() from public;

create or replace function public.get_follower_count(artist_id uuid)
returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce((select p.follower_count from public.artist_profiles p where p.id = get_follower_count.artist_id), 0)
$$;

grant execute on function public.get_follower_count(uuid) to anon, authenticated, service_role;

-- The follower list of an artist page: followers are auth users, so their display name comes from
-- whichever profile they have (a fan's username, or an artist's name).
create view public.artist_followers with (security_invoker = true) as
select
  f.id,
  f.artist_id,
  f.fan_id,
  f.created_at,
  coalesce(fp.username, ap.artist_name) as display_name,
  coalesce(fp.profile_image_url, ap.profile_image_url) as profile_image_url,
  fp.id is not null as is_fan
from public.followers f
left join public.fan_profiles fp on fp.id = f.fan_id
left join public.artist_profiles ap on ap.id = f.fan_id;

revoke all on public.artist_followers from anon, authenticated;

grant select on public.artist_followers to anon, authenticated;

-- Definer: the artist a purchase (or a comment) belongs to is set by the database from the track,
-- never by the writer. Shared by every table with track_id and artist_id columns.
create or replace function private.fill_artist_from_track()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select t.artist_id into new.artist_id from public.tracks t where t.id = new.track_id;
  return new;
end
$$;

revoke execute on function private.fill_artist_from_track() from public;

-- Sales. Not written by users directly: purchases come from the payment side (service role; there is no
-- checkout yet). Private to the buyer and the track's artist.
create table public.purchases (
  id uuid primary key default gen_random_uuid(),
  amount numeric(10, 2) not null check (amount >= 0),
  -- A sold track stays: restrict keeps the sale record from disappearing with it.
  track_id uuid not null references public.tracks (id) on delete restrict,
  -- Filled from the track by a trigger; lets the artist's policy and live feed filter on one column.
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The buyer's country (ISO 3166-1 alpha-2, as Cloudflare reports it on the request); null when unknown.
  country text check (country ~ '^[A-Z]{2}$')
);

alter table public.purchases enable row level security;

create index purchases_track_id_idx on public.purchases (track_id);

create index purchases_artist_id_created_at_idx on public.purchases (artist_id, created_at desc);

create index purchases_user_id_created_at_idx on public.purchases (user_id, created_at desc);

create trigger fill_purchase_artist
  before insert or update of track_id on public.purchases
  for each row execute function private.fill_artist_from_track();

revoke all on public.purchases from anon, authenticated;

grant select on public.purchases to authenticated;

create policy "Buyers and the track's artist read purchases" on public.purchases
  for select to authenticated
  using (user_id = (select auth.uid()) or artist_id = (select auth.uid()));

-- Comments on tracks: readable wherever the track is, written by signed-in users as themselves.
create table public.comments (
  id uuid primary key default gen_random_uuid(),
  content text not null check (btrim(content) <> ''),
  track_id uuid not null references public.tracks (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- Filled from the track by a trigger, for the artist's live activity feed.
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- The comment form allows 2,000 characters; the database holds every writer to the same.
  constraint comments_content_length check (char_length(content) <= 2000)
);

alter table public.comments enable row level security;

create index comments_track_id_created_at_idx on public.comments (track_id, created_at desc);

create index comments_artist_id_created_at_idx on public.comments (artist_id, created_at desc);

create index comments_user_id_idx on public.comments (user_id);

-- A comment's artist is set by the database from the track, not by the commenter.
create trigger fill_comment_artist
  before insert on public.comments
  for each row execute function private.fill_artist_from_track();

revoke all on public.comments from anon, authenticated;

grant select on public.comments to anon, authenticated;

grant insert (content, track_id, user_id), delete on public.comments to authenticated;

-- The subquery runs under the tracks policies, so a comment is visible exactly when its track is.
create policy "Visitors read comments on visible tracks" on public.comments
  for select to anon
  using (exists (select 1 from public.tracks t where t.id = track_id));

create policy "Users read comments on visible tracks" on public.comments
  for select to authenticated
  using (exists (select 1 from public.tracks t where t.id = track_id));

create policy "Users comment as themselves" on public.comments
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and (select private.is_active_user())
    and exists (select 1 from public.tracks t where t.id = track_id)
  );

create policy "Users delete their own comments" on public.comments
  for delete to authenticated
  using (user_id = (select auth.uid()) and (select private.is_active_user()));

-- Public fan page, or null when there is no such fan: the profile and the artists they follow,
-- most recently followed first.
create or replace function public.fan_page(fan_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'username', p.username,
    'bio', p.bio,
    'profile_image_url', p.profile_image_url,
    'favorite_genres', to_jsonb(p.favorite_genres),
    'following', coalesce((
      select jsonb_agg(private.artist_card(a) order by f.created_at desc)
      from public.followers f join public.artist_profiles a on a.id = f.artist_id
      where f.fan_id = p.id), '[]')
  )
  from public.fan_profiles p
  where p.id = fan_page.fan_id
$$;

revoke execute on function public.fan_page(uuid) from public;

grant execute on function public.fan_page(uuid) to anon, authenticated, service_role;

-- What the track page shows of its comments: each with its author's public name and picture (artist
-- name or fan username), in one read. security_invoker: the comments policies still decide which rows
-- a reader sees (those on tracks they can see).
create view public.track_comments with (security_invoker = true) as
select
  c.id,
  c.track_id,
  c.user_id,
  c.content,
  c.created_at,
  coalesce(a.artist_name, f.username) as author_name,
  coalesce(a.profile_image_url, f.profile_image_url) as author_image_url,
  -- Which public page the author has, if any: artist pages and fan pages live at different paths.
  case when a.id is not null then 'artist' when f.id is not null then 'fan' end as author_kind
from public.comments c
left join public.artist_profiles a on a.id = c.user_id
left join public.fan_profiles f on f.id = c.user_id;

revoke all on public.track_comments from anon, authenticated;

grant select on public.track_comments to anon, authenticated;

-- A listener's liked tracks (Liked Songs, beyond the spec's placeholder): their own rows only, for any signed-in user.
create table public.likes (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, track_id)
);

alter table public.likes enable row level security;

-- Liked Songs lists a user's likes newest first; a deleted track removes its likes.
create index likes_user_id_created_at_idx on public.likes (user_id, created_at desc);

create index likes_track_id_idx on public.likes (track_id);

revoke all on public.likes from anon, authenticated;

-- The user id comes from the session (the column default), never from the request.
grant select, insert (track_id), delete on public.likes to authenticated;

create policy "Users read their own likes" on public.likes
  for select to authenticated using (user_id = (select auth.uid()));

-- Only a track the user can see (released, or their own): the subquery runs under the tracks policies.
create policy "Users like tracks they can see" on public.likes
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and (select private.is_active_user())
    and exists (select 1 from public.tracks t where t.id = track_id)
  );

create policy "Users remove their own likes" on public.likes
  for delete to authenticated using (user_id = (select auth.uid()));

-- The fan dashboard in one read: the three counts (purchases, follows, plays of the last 30 days), the
-- library panel (the newest purchased tracks) and recommendations (artists in the fan's favourite genres,
-- or else the genres of the artists they follow, that they do not follow yet, the most followed first).
-- Runs as the caller: row-level security keeps every part to their own rows.
create or replace function public.fan_dashboard()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with me as (select (select auth.uid()) as id),
  taste as (
    select coalesce(
      nullif((select f.favorite_genres from me join public.fan_profiles f on f.id = me.id), '{}'),
      (select array_agg(distinct genre) from me
         join public.followers fo on fo.fan_id = me.id
         join public.artist_profiles a on a.id = fo.artist_id
         cross join unnest(a.genres) as genre),
      '{}') as genres
  )
  select jsonb_build_object(
    'purchased_count', (select count(*) from me join public.purchases p on p.user_id = me.id),
    'following_count', (select count(*) from me join public.followers f on f.fan_id = me.id),
    'recent_count', (
      select count(*) from me join public.analytics_events e on e.user_id = me.id
      where e.type = 'play' and e.created_at >= now() - interval '30 days'),
    'library', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title,
          'artwork_url', coalesce(t.artwork_small_url, t.artwork_url), 'artist_id', a.id, 'artist_name', a.artist_name)
        order by bought.created_at desc)
      from (
        select p.track_id, max(p.created_at) as created_at
        from me join public.purchases p on p.user_id = me.id
        group by p.track_id
        order by max(p.created_at) desc
        limit 6
      ) bought
      join public.tracks t on t.id = bought.track_id
      join public.artist_profiles a on a.id = t.artist_id), '[]'),
    'recommendations', coalesce((
      select jsonb_agg(private.artist_card(a) order by a.follower_count desc, a.artist_name)
      from (
        select a.* from public.artist_profiles a, taste, me
        where a.genres && taste.genres
          and a.id <> me.id
          and not exists (select 1 from public.followers f where f.artist_id = a.id and f.fan_id = me.id)
        order by a.follower_count desc, a.artist_name
        limit 6
      ) a), '[]')
  )
$$;

revoke execute on function public.fan_dashboard() from public, anon;

grant execute on function public.fan_dashboard() to authenticated, service_role;

-- ====================================================================================================
-- supabase/schemas/06_listening.sql
-- ====================================================================================================

-- Listening: play and download events, and the honest play count (record_play).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Plays and downloads. Not written by users directly: plays come through record_play(), which fills in
-- the artist and the listener itself. Private to the listener and the track's artist.
create table public.analytics_events (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in ('play', 'download')),
  track_id uuid not null references public.tracks (id) on delete cascade,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  -- null for a visitor's play
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The listener's country (ISO 3166-1 alpha-2, as Cloudflare reports it on the request); null
  -- when unknown (locally, or when Cloudflare cannot tell).
  country text check (country ~ '^[A-Z]{2}$')
);

alter table public.analytics_events enable row level security;

create index analytics_events_track_id_created_at_idx on public.analytics_events (track_id, created_at desc);

create index analytics_events_artist_id_type_created_at_idx on public.analytics_events (artist_id, type, created_at desc);

create index analytics_events_user_id_type_created_at_idx on public.analytics_events (user_id, type, created_at desc);

revoke all on public.analytics_events from anon, authenticated;

grant select on public.analytics_events to authenticated;

create policy "Listeners and the track's artist read events" on public.analytics_events
  for select to authenticated
  using (user_id = (select auth.uid()) or artist_id = (select auth.uid()));

-- Honest play counts. A play counts once per listener per track per 10 minutes: the signed-in user, or a
-- visitor by the anonymous id the Worker keeps in a cookie together with their address. An address
-- gets at most 30 counted plays per 10 minutes (a burst beyond that is refused: no person listens that
-- fast), and a banned user's plays are refused. The player reports a play only after 5 seconds of real
-- playback (or at the end of a shorter track), so skipping through a catalogue counts nothing.
--
-- Who played what in the last 10 minutes is kept apart from the analytics events, and only that long:
-- the addresses it needs never reach the analytics an artist reads.
create table private.recent_plays (
  listener text not null,
  address text not null,
  track_id uuid not null references public.tracks (id) on delete cascade,
  played_at timestamptz not null default now()
);

create index recent_plays_listener_idx on private.recent_plays (listener, track_id, played_at desc);

create index recent_plays_address_idx on private.recent_plays (address, played_at desc);

create index recent_plays_played_at_idx on private.recent_plays (played_at);

create index recent_plays_track_id_idx on private.recent_plays (track_id);

revoke all on private.recent_plays from anon, authenticated;

-- Callers other than the marketplace's server are refused first, with 28000, so the Worker can tell its
-- own misconfiguration from a refused listener.
create or replace function private.record_play(track_id uuid, country text, listener text, address text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  track_artist uuid;
  who text;
  from_address text := coalesce(nullif(btrim(record_play.address), ''), 'unknown');
begin
  if not private.is_play_reporter() then
    raise exception 'plays are recorded through the marketplace' using errcode = '28000';
  end if;
  if me is not null and not (select private.is_active_user()) then
    raise exception 'this account is suspended' using errcode = '42501';
  end if;

  select t.artist_id into track_artist
  from public.tracks t
  where t.id = record_play.track_id
    and (t.release_date <= current_date or t.artist_id = me);
  if track_artist is null then
    raise exception 'track not found' using errcode = 'P0002';
  end if;

  who := case
    when me is not null then 'user:' || me
    else 'visitor:' || coalesce(nullif(btrim(record_play.listener), ''), 'unknown') || '@' || from_address
  end;
  -- One listener at a time, so two reports of the same play cannot both count.
  perform pg_advisory_xact_lock(hashtext(who));

  delete from private.recent_plays where played_at < now() - interval '10 minutes';
  if exists (
    select 1 from private.recent_plays r
    where r.listener = who and r.track_id = record_play.track_id
  ) then
    return false;
  end if;
  if (select count(*) from private.recent_plays r where r.address = from_address) >= 30 then
    raise exception 'too many plays from one address' using errcode = '54000';
  end if;

  insert into private.recent_plays (listener, address, track_id) values (who, from_address, record_play.track_id);
  insert into public.analytics_events (type, track_id, artist_id, user_id, country)
  values ('play', record_play.track_id, track_artist, me, record_play.country);
  return true;
end
$$;

revoke execute on function private.record_play(uuid, text, text, text) from public;

grant execute on function private.record_play(uuid, text, text, text) to anon, authenticated, service_role;

create or replace function public.record_play(track_id uuid, country text default null, listener text default null, address text default null)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.record_play(record_play.track_id, record_play.country, record_play.listener, record_play.address)
$$;

revoke execute on function public.record_play(uuid, text, text, text) from public;

grant execute on function public.record_play(uuid, text, text, text) to anon, authenticated, service_role;

-- ====================================================================================================
-- supabase/schemas/07_analytics.sql
-- ====================================================================================================

-- Analytics: the artist's totals, the daily roll-ups fed by events and purchases, trends, and the
-- analytics page's function (spec sections 2, 3 and 7).
--
-- Why rollups rather than indexes alone: an artist's figures for a year are sums over every event of that
-- year. With an index that is still one index entry per event (a million plays is a million entries to
-- count on every visit); a rollup is one row per track per day and one per country per day, whatever the
-- number of events (a year of fifty tracks is about 18,000 rows). The database keeps them itself, in the
-- same transaction as the events (statement triggers, so a bulk insert costs one grouped write), so they
-- are never stale and nothing else has to run.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Filled by the analytics aggregation (service role); the artist only creates the empty row.
create table public.analytics (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  revenue jsonb not null default '{"total": 0, "trend": 0, "history": []}',
  downloads jsonb not null default '{"total": 0, "trend": 0, "history": []}',
  top_tracks jsonb not null default '[]' check (jsonb_typeof(top_tracks) = 'array'),
  geography jsonb not null default '[]' check (jsonb_typeof(geography) = 'array'),
  created_at timestamptz not null default now()
);

alter table public.analytics enable row level security;

revoke all on public.analytics from anon, authenticated;

grant select, insert (artist_id) on public.analytics to authenticated;

create policy "Artists read their own analytics" on public.analytics
  for select to authenticated using (artist_id = (select auth.uid()));

create policy "Artists create their own analytics" on public.analytics
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- From nothing to something is no percentage: it was read as "+100%", a figure nobody earned. The trend is
-- null then, which the pages show as "New"; from nothing to nothing it stays 0.
create or replace function private.trend(recent numeric, previous numeric)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case
    when previous = 0 then case when recent > 0 then null else 0 end
    else round((recent - previous) / previous * 100, 1)
  end
$$;

grant execute on function private.trend(numeric, numeric) to authenticated, service_role;

-- One row per track and UTC day. Read by the track's artist only; written only by the triggers below.
create table public.track_daily_stats (
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  day date not null,
  track_id uuid not null references public.tracks (id) on delete cascade,
  plays integer not null default 0,
  downloads integer not null default 0,
  sales integer not null default 0,
  revenue numeric(14, 2) not null default 0,
  primary key (artist_id, day, track_id)
);

alter table public.track_daily_stats enable row level security;

create index track_daily_stats_track_id_idx on public.track_daily_stats (track_id);

revoke all on public.track_daily_stats from anon, authenticated;

grant select on public.track_daily_stats to authenticated;

create policy "Artists read their own daily track figures" on public.track_daily_stats
  for select to authenticated using (artist_id = (select auth.uid()));

-- One row per artist, country and UTC day; 'ZZ' (CLDR's "unknown region") stands for an unknown country.
create table public.country_daily_stats (
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  day date not null,
  country text not null check (country ~ '^[A-Z]{2}$'),
  plays integer not null default 0,
  downloads integer not null default 0,
  primary key (artist_id, day, country)
);

alter table public.country_daily_stats enable row level security;

revoke all on public.country_daily_stats from anon, authenticated;

grant select on public.country_daily_stats to authenticated;

create policy "Artists read their own daily country figures" on public.country_daily_stats
  for select to authenticated using (artist_id = (select auth.uid()));

-- Definer: the rollups take no writes from users; these add (or, for deleted rows, take away) each
-- statement's events, grouped, so a bulk insert is one write per track and day. Rows of a track or
-- artist being deleted are skipped: their rollups go with them (cascade).
create or replace function private.roll_up_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  sign integer := case when tg_op = 'DELETE' then -1 else 1 end;
begin
  insert into public.track_daily_stats as s (artist_id, day, track_id, plays, downloads)
  select e.artist_id, (e.created_at at time zone 'UTC')::date, e.track_id,
    sign * count(*) filter (where e.type = 'play'), sign * count(*) filter (where e.type = 'download')
  from changed_events e
  join public.tracks t on t.id = e.track_id
  group by 1, 2, 3
  on conflict (artist_id, day, track_id) do update
    set plays = s.plays + excluded.plays, downloads = s.downloads + excluded.downloads;

  insert into public.country_daily_stats as s (artist_id, day, country, plays, downloads)
  select e.artist_id, (e.created_at at time zone 'UTC')::date, coalesce(e.country, 'ZZ'),
    sign * count(*) filter (where e.type = 'play'), sign * count(*) filter (where e.type = 'download')
  from changed_events e
  join public.artist_profiles a on a.id = e.artist_id
  group by 1, 2, 3
  on conflict (artist_id, day, country) do update
    set plays = s.plays + excluded.plays, downloads = s.downloads + excluded.downloads;
  return null;
end
$$;

-- Events and purchases are never updated through the API (no grants); inserts and deletes (a track's
-- removal cascades to its events) are what change the figures.
create trigger roll_up_new_events
  after insert on public.analytics_events referencing new table as changed_events
  for each statement execute function private.roll_up_events();

create trigger roll_up_removed_events
  after delete on public.analytics_events referencing old table as changed_events
  for each statement execute function private.roll_up_events();

revoke execute on function private.roll_up_events() from public;

create or replace function private.roll_up_purchases()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  sign integer := case when tg_op = 'DELETE' then -1 else 1 end;
begin
  insert into public.track_daily_stats as s (artist_id, day, track_id, sales, revenue)
  select p.artist_id, (p.created_at at time zone 'UTC')::date, p.track_id, sign * count(*), sign * sum(p.amount)
  from changed_purchases p
  join public.tracks t on t.id = p.track_id
  group by 1, 2, 3
  on conflict (artist_id, day, track_id) do update
    set sales = s.sales + excluded.sales, revenue = s.revenue + excluded.revenue;
  return null;
end
$$;

create trigger roll_up_new_purchases
  after insert on public.purchases referencing new table as changed_purchases
  for each statement execute function private.roll_up_purchases();

create trigger roll_up_removed_purchases
  after delete on public.purchases referencing old table as changed_purchases
  for each statement execute function private.roll_up_purchases();

revoke execute on function private.roll_up_purchases() from public;

-- The raw figures of one period for the artist-analytics Edge Function, which shapes them (totals, trends,
-- daily or weekly history): per day for this period and the one before (for the trend), and the
-- period's top tracks and countries. Runs as the caller, so an artist only ever reads their own rollups;
-- it also creates the caller's analytics row with its defaults when missing (spec section 4). Null for a
-- caller who is not an artist.
create or replace function public.artist_analytics(days integer)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  today date := (now() at time zone 'UTC')::date;
  first_day date := today - (days - 1);
begin
  if days is null or days not in (7, 30, 90, 365) then
    raise exception 'period must be 7, 30, 90 or 365 days' using errcode = '22023';
  end if;
  if not exists (select 1 from public.artist_profiles a where a.id = me) then
    return null;
  end if;

  insert into public.analytics (artist_id) values (me) on conflict (artist_id) do nothing;

  return jsonb_build_object(
    'today', today,
    'days', coalesce((
      select jsonb_agg(jsonb_build_object('day', d.day, 'plays', d.plays, 'downloads', d.downloads,
          'sales', d.sales, 'revenue', d.revenue) order by d.day)
      from (
        select s.day, sum(s.plays) as plays, sum(s.downloads) as downloads, sum(s.sales) as sales, sum(s.revenue) as revenue
        from public.track_daily_stats s
        where s.artist_id = me and s.day >= first_day - days
        group by s.day
      ) d), '[]'),
    'top_tracks', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'plays', top.plays,
          'downloads', top.downloads, 'sales', top.sales, 'revenue', top.revenue)
        order by top.revenue desc, top.plays desc, t.title)
      from (
        select s.track_id, sum(s.plays) as plays, sum(s.downloads) as downloads, sum(s.sales) as sales, sum(s.revenue) as revenue
        from public.track_daily_stats s
        where s.artist_id = me and s.day >= first_day
        group by s.track_id
        order by sum(s.revenue) desc, sum(s.plays) desc
        limit 10
      ) top
      join public.tracks t on t.id = top.track_id), '[]'),
    'geography', coalesce((
      select jsonb_agg(jsonb_build_object('country', nullif(g.country, 'ZZ'), 'plays', g.plays, 'downloads', g.downloads)
        order by g.plays + g.downloads desc, g.country)
      from (
        select c.country, sum(c.plays) as plays, sum(c.downloads) as downloads
        from public.country_daily_stats c
        where c.artist_id = me and c.day >= first_day
        group by c.country
        having sum(c.plays) + sum(c.downloads) > 0
        order by sum(c.plays) + sum(c.downloads) desc
        limit 50
      ) g), '[]')
  );
end
$$;

revoke execute on function public.artist_analytics(integer) from public, anon;

grant execute on function public.artist_analytics(integer) to authenticated, service_role;

-- ====================================================================================================
-- supabase/schemas/08_administration.sql
-- ====================================================================================================

-- Administration: news, the audit log, and the record of what administrators did to users.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- News items for the home page banner, managed by administrators.

create table public.news_items (
  id uuid primary key default gen_random_uuid(),
  title text not null check (btrim(title) <> ''),
  content text not null check (btrim(content) <> ''),
  type text not null default 'info' check (type in ('info', 'update', 'announcement')),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  constraint news_items_title_length check (char_length(title) <= 200),
  constraint news_items_content_length check (char_length(content) <= 2000)
);

alter table public.news_items enable row level security;

create index news_items_active_created_at_idx on public.news_items (active, created_at desc);

create index news_items_created_at_idx on public.news_items (created_at desc);

revoke all on public.news_items from anon, authenticated;

grant select on public.news_items to anon, authenticated;

grant insert (title, content, type, active), update (title, content, type, active), delete
  on public.news_items to authenticated;

create policy "Visitors read active news" on public.news_items
  for select to anon using (active);

create policy "Users read active news, admins all news" on public.news_items
  for select to authenticated using (active or (select public.is_admin()));

create policy "Admins add news" on public.news_items
  for insert to authenticated
  with check ((select public.is_admin()) and (select private.is_active_user()));

create policy "Admins update news" on public.news_items
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()) and (select private.is_active_user()));

create policy "Admins delete news" on public.news_items
  for delete to authenticated
  using ((select public.is_admin()) and (select private.is_active_user()));

-- Administration's audit log (beyond the spec): what administrators change, by whom, to what, when and
-- why. News changes are written by the database itself (a trigger on news_items), so no change escapes
-- it. Administrators read it; nobody writes, edits or deletes it through the API: there are no grants
-- for that, not even to the service role (the trigger's function owns the writes).

create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  -- null when the change came from outside the API (an operator's SQL, the seed)
  actor_id uuid references auth.users (id) on delete set null,
  -- who that was, as their token named them then (the log outlives accounts and address changes)
  actor_email text,
  action text not null,
  target_id uuid,
  -- what the change was about, as it read then (a news item's title)
  summary text not null,
  reason text,
  created_at timestamptz not null default now(),
  constraint audit_log_action_check check (action in (
    'news.add', 'news.edit', 'news.activate', 'news.deactivate', 'news.delete',
    'user.ban', 'user.unban', 'user.password_reset'
  ))
);

alter table public.audit_log enable row level security;

-- Newest first on the admin dashboard; who did what.
create index audit_log_created_at_idx on public.audit_log (created_at desc);

create index audit_log_actor_id_idx on public.audit_log (actor_id);

revoke all on public.audit_log from anon, authenticated, service_role;

grant select on public.audit_log to authenticated;

create policy "Administrators read the audit log" on public.audit_log
  for select to authenticated using ((select public.is_admin()));

-- Definer: it writes the log the callers may not write.
create or replace function private.audit_news_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.audit_log (actor_id, actor_email, action, target_id, summary)
  values (
    (select auth.uid()),
    (select auth.jwt()) ->> 'email',
    case
      when tg_op = 'INSERT' then 'news.add'
      when tg_op = 'DELETE' then 'news.delete'
      when new.active is distinct from old.active and (new.title, new.content, new.type) = (old.title, old.content, old.type)
        then case when new.active then 'news.activate' else 'news.deactivate' end
      else 'news.edit'
    end,
    coalesce(new.id, old.id),
    coalesce(new.title, old.title));
  return null;
end
$$;

create trigger audit_news_changes
  after insert or update or delete on public.news_items
  for each row execute function private.audit_news_change();

revoke execute on function private.audit_news_change() from public;

-- Called by the Edge Functions (service role) after the Auth API has done its part, with the
-- administrator they checked. A ban also ends every session of the user, so no refresh token outlives
-- it even where the Auth server keeps them; their access token is refused by every write policy
-- through private.is_active_user().
create or replace function private.record_user_administration(
  actor_id uuid,
  actor_email text,
  action text,
  user_id uuid,
  user_email text,
  reason text
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if action not like 'user.%' then
    raise exception 'not a user administration action: %', action using errcode = '22023';
  end if;
  if action = 'user.ban' then
    update auth.refresh_tokens rt set revoked = true, updated_at = now()
    where rt.user_id = record_user_administration.user_id::text and not rt.revoked;
    delete from auth.sessions s where s.user_id = record_user_administration.user_id;
  end if;
  insert into public.audit_log (actor_id, actor_email, action, target_id, summary, reason)
  values (actor_id, actor_email, action, user_id, user_email, nullif(btrim(reason), ''));
end
$$;

revoke execute on function private.record_user_administration(uuid, text, text, uuid, text, text) from public;

grant execute on function private.record_user_administration(uuid, text, text, uuid, text, text) to service_role;

create or replace function public.record_user_administration(
  actor_id uuid,
  actor_email text,
  action text,
  user_id uuid,
  user_email text,
  reason text default null
)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.record_user_administration(actor_id, actor_email, action, user_id, user_email, reason)
$$;

-- anon and authenticated too: the platform's default privileges grant them every new function in public.
revoke execute on function public.record_user_administration(uuid, text, text, uuid, text, text)
  from public, anon, authenticated;

grant execute on function public.record_user_administration(uuid, text, text, uuid, text, text) to service_role;

-- ====================================================================================================
-- supabase/schemas/09_storage.sql
-- ====================================================================================================

-- Storage: the buckets and who may read, write and remove their objects.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Bucket settings are not secret; clients and the storage service may read them as any role.
create policy "Anyone reads our buckets" on storage.buckets
  for select to anon, authenticated
  using (true);

-- File storage: private track audio and public artwork, each user writing only under their own
-- folder ({user id}/...). Track audio is read by its artist, and by listeners through signed URLs
-- (issued by an Edge Function after checking the track may be played), never listed by others.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('tracks', 'tracks', false, 52428800, array[
    'audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg-3',
    'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave',
    'audio/aac', 'audio/x-aac', 'audio/aacp', 'audio/vnd.dlna.adts',
    'audio/ogg', 'audio/x-ogg', 'application/ogg'
  ]),
  ('artwork', 'artwork', true, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

create policy "Users read their own track audio" on storage.objects
  for select to authenticated
  using (bucket_id = 'tracks' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users delete their own track audio" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

-- Artwork is public through its public URL (which bypasses policies); listing is per owner, for the
-- media manager.
create policy "Users list their own artwork" on storage.objects
  for select to authenticated
  using (bucket_id = 'artwork' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users upload artwork to their folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'artwork'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Users replace their own artwork" on storage.objects
  for update to authenticated
  using (bucket_id = 'artwork' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (
    bucket_id = 'artwork'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Users delete their own artwork" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'artwork'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Artists upload track audio to their folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
    and (select private.is_artist())
  );

create policy "Artists replace their own track audio" on storage.objects
  for update to authenticated
  using (bucket_id = 'tracks' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
    and (select private.is_artist())
  );

-- ====================================================================================================
-- supabase/schemas/10_realtime.sql
-- ====================================================================================================

-- Realtime: the tables whose inserts the live dashboards hear.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The artist dashboard's live activity feed listens for new purchases, plays/downloads and comments;
-- Realtime delivers each change only to subscribers whose policies let them read the row.
alter publication supabase_realtime add table public.purchases, public.analytics_events, public.comments;
