set check_function_bodies = off;

-- Download codes: an artist gives a release away (with a vinyl, at a show) without any payment. A code is
-- 12 characters from an alphabet without look-alikes (no 0/O, 1/I/L), about 59 bits: not guessable, and
-- redemption attempts are limited besides (redeem_download_code). Each works once: redeemed, the
-- release joins the fan's collection as $0 purchases marked with the code (not sales: the roll-ups leave
-- them out). The artist sees every code of theirs, exports them, and disables unused ones.
create table public.download_codes (
  id uuid primary key default gen_random_uuid(),
  release_id uuid not null,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  code text not null,
  created_at timestamptz not null default now(),
  disabled_at timestamptz,
  redeemed_by uuid references auth.users (id) on delete set null,
  redeemed_at timestamptz,
  constraint download_codes_release_id_fkey foreign key (release_id, artist_id)
    references public.releases (id, artist_id) on delete cascade,
  constraint download_codes_code_key unique (code),
  constraint download_codes_code_shape check (code ~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{12}$'),
  -- (a redeemer who deleted their account leaves the date)
  constraint download_codes_redeemed check (redeemed_by is null or redeemed_at is not null)
);

alter table public.download_codes enable row level security;

-- A release's codes, newest first (the studio's list, the export, the counts).
create index download_codes_release_id_created_at_idx on public.download_codes (release_id, created_at desc, id);

-- An artist's codes of the last hour, for the hourly bound on making them.
create index download_codes_artist_id_idx on public.download_codes (artist_id, created_at desc);

-- An artist's newest redeemed codes (the dashboard's Recent Activity).
create index download_codes_artist_id_redeemed_at_idx on public.download_codes (artist_id, redeemed_at desc)
  where redeemed_at is not null;

revoke all on public.download_codes from anon, authenticated;

-- Codes are made and redeemed by the functions below; their artist reads them and disables unused ones.
grant select, update (disabled_at) on public.download_codes to authenticated;

create policy "Artists read their own codes" on public.download_codes
  for select to authenticated
  using (artist_id = (select auth.uid()));

-- (and enable them again: disabling can be undone while the code is unused)
create policy "Artists disable their own unused codes" on public.download_codes
  for update to authenticated
  using (artist_id = (select auth.uid()) and redeemed_at is null)
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- A purchase made by a code (amount 0): what marks it as one.
alter table public.purchases add column download_code_id uuid references public.download_codes (id) on delete set null;

create index purchases_download_code_id_idx on public.purchases (download_code_id);

-- A fresh code: 12 characters of the alphabet, each from a random byte below 248 (8 × 31, so none is likelier).
create or replace function private.new_download_code()
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  made text := '';
  byte integer;
begin
  while char_length(made) < 12 loop
    byte := get_byte(extensions.gen_random_bytes(1), 0);
    if byte < 248 then
      made := made || substr(alphabet, byte % 31 + 1, 1);
    end if;
  end loop;
  return made;
end
$$;

revoke execute on function private.new_download_code() from public;

grant execute on function private.new_download_code() to authenticated;

-- Makes `how_many` (1 to 1,000) new codes for one of the caller's releases, at most 10,000 a release and
-- private.hourly_bound('download codes') an artist an hour (making them costs the backend about a millisecond each).
-- Returns how many it made.
create or replace function private.create_download_codes(release_id uuid, how_many integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  made integer;
begin
  if how_many is null or how_many < 1 or how_many > 1000 then
    raise exception 'from 1 to 1000 codes at a time' using errcode = 'check_violation', constraint = 'download_codes_how_many';
  end if;
  if not (select private.is_active_user())
    or not exists (select 1 from public.releases r where r.id = create_download_codes.release_id and r.artist_id = me) then
    raise exception 'codes are made by the release''s artist' using errcode = '42501';
  end if;
  perform pg_advisory_xact_lock(hashtext('codes:' || create_download_codes.release_id::text));
  if (select count(*) from public.download_codes c where c.release_id = create_download_codes.release_id) + how_many > 10000 then
    raise exception 'a release has at most 10000 codes' using errcode = '54000';
  end if;
  if (select count(*) from public.download_codes c where c.artist_id = me and c.created_at > now() - interval '1 hour')
      + how_many > private.hourly_bound('download codes') then
    raise exception 'at most % codes an hour', private.hourly_bound('download codes') using errcode = '54000', hint = 'hourly';
  end if;
  insert into public.download_codes (release_id, artist_id, code)
  select create_download_codes.release_id, me, private.new_download_code()
  from generate_series(1, how_many)
  on conflict (code) do nothing;
  get diagnostics made = row_count;
  return made;
end
$$;

revoke execute on function private.create_download_codes(uuid, integer) from public;

grant execute on function private.create_download_codes(uuid, integer) to authenticated;

create or replace function public.create_download_codes(release_id uuid, how_many integer)
returns integer
language sql
security invoker
set search_path = ''
as $$
  select private.create_download_codes(create_download_codes.release_id, create_download_codes.how_many)
$$;

revoke execute on function public.create_download_codes(uuid, integer) from public;

grant execute on function public.create_download_codes(uuid, integer) to authenticated, service_role;

-- Who tried a code, and from where, for the last hour only: what the limits count.
create table private.code_attempts (
  account uuid not null,
  address text not null,
  attempted_at timestamptz not null default now()
);

create index code_attempts_account_idx on private.code_attempts (account, attempted_at desc);

create index code_attempts_address_idx on private.code_attempts (address, attempted_at desc);

revoke all on private.code_attempts from anon, authenticated;

-- A fan redeems a code (typed any way: case, spaces and dashes do not matter). At most 10 attempts an
-- account and 30 an address (the marketplace says which) an hour, wrong or right, so no one guesses
-- their way to a code. The outcome is an answer, not an error, so a wrong attempt still counts:
-- `redeemed` (with the release), `unknown` (no such code, or disabled), `used` (redeemed before),
-- `owned` (the fan owns the whole release already: the code stays unused, for someone else), `too_many`
-- (beyond the limits). Redeemed, the release's tracks (those not already owned) become the fan's $0
-- purchases marked with the code. A user without a fan account, or banned, is refused (42501).
create or replace function private.redeem_download_code(code text, address text)
returns table (outcome text, release_id uuid, kind text, title text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  typed text := upper(regexp_replace(coalesce(redeem_download_code.code, ''), '[\s-]', '', 'g'));
  from_address text := case
    when private.is_marketplace_request() then coalesce(nullif(btrim(redeem_download_code.address), ''), 'unknown')
    else 'api' end;
  found public.download_codes;
begin
  if me is null or not (select private.is_active_user())
    or not exists (select 1 from public.fan_profiles f where f.id = me) then
    raise exception 'codes are redeemed with a fan account' using errcode = '42501';
  end if;
  perform pg_advisory_xact_lock(hashtext('code attempts'));
  delete from private.code_attempts a where a.attempted_at < now() - interval '1 hour';
  if (select count(*) from private.code_attempts a where a.account = me) >= 10
    or (select count(*) from private.code_attempts a where a.address = from_address) >= 30 then
    return query select 'too_many', null::uuid, null::text, null::text;
    return;
  end if;
  insert into private.code_attempts (account, address) values (me, from_address);

  select * into found from public.download_codes c where c.code = typed for update;
  if found.id is null or found.disabled_at is not null then
    return query select 'unknown', null::uuid, null::text, null::text;
    return;
  end if;
  if found.redeemed_at is not null then
    return query select 'used', null::uuid, null::text, null::text;
    return;
  end if;
  if not exists (
    select 1 from public.tracks t
    where t.release_id = found.release_id
      and not exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = me)
  ) then
    return query select 'owned', r.id, r.kind, r.title from public.releases r where r.id = found.release_id;
    return;
  end if;
  update public.download_codes c set redeemed_by = me, redeemed_at = now() where c.id = found.id;
  insert into public.purchases (amount, track_id, user_id, download_code_id)
  select 0, t.id, me, found.id
  from public.tracks t
  where t.release_id = found.release_id
    and not exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = me);
  return query select 'redeemed', r.id, r.kind, r.title from public.releases r where r.id = found.release_id;
end
$$;

revoke execute on function private.redeem_download_code(text, text) from public;

grant execute on function private.redeem_download_code(text, text) to authenticated;

create or replace function public.redeem_download_code(code text, address text default null)
returns table (outcome text, release_id uuid, kind text, title text)
language sql
security invoker
set search_path = ''
as $$
  select * from private.redeem_download_code(redeem_download_code.code, redeem_download_code.address)
$$;

revoke execute on function public.redeem_download_code(text, text) from public;

grant execute on function public.redeem_download_code(text, text) to authenticated, service_role;

-- A release's codes for its artist's studio, a page at a time, newest first, each with who redeemed it
-- (their name as their profile gives it) and when, and the counts of the whole release.
create or replace function public.release_codes(release_id uuid, page integer default 1, page_size integer default 100)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with mine as (
    select c.* from public.download_codes c where c.release_id = release_codes.release_id
  ),
  paging as (
    select least(greatest(coalesce(release_codes.page_size, 100), 1), 1000) as size,
      least(greatest(coalesce(release_codes.page, 1), 1), 10000) as page
  )
  select jsonb_build_object(
    'total', (select count(*) from mine),
    'redeemed', (select count(*) from mine where redeemed_at is not null),
    'disabled', (select count(*) from mine where disabled_at is not null),
    'codes', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', c.id, 'code', c.code, 'created_at', c.created_at, 'disabled_at', c.disabled_at,
          'redeemed_at', c.redeemed_at,
          'redeemed_by', (
            select coalesce(f.username, a.artist_name)
            from (select c.redeemed_by as id) u
            left join public.fan_profiles f on f.id = u.id
            left join public.artist_profiles a on a.id = u.id))
        order by c.created_at desc, c.id)
      from (
        select m.* from mine m, paging g
        order by m.created_at desc, m.id
        limit (select size from paging) offset ((select page from paging) - 1) * (select size from paging)
      ) c), '[]')
  )
$$;

revoke execute on function public.release_codes(uuid, integer, integer) from public;

grant execute on function public.release_codes(uuid, integer, integer) to authenticated, service_role;

comment on function public.release_codes(uuid, integer, integer) is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';

-- The artist's releases with their codes counted, newest first, a page at a time (the studio's Download
-- Codes page).
create or replace function public.studio_releases(page integer default 1, page_size integer default 50)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with mine as (
    select r.* from public.releases r where r.artist_id = (select auth.uid())
  ),
  paging as (
    select least(greatest(coalesce(studio_releases.page_size, 50), 1), 100) as size,
      least(greatest(coalesce(studio_releases.page, 1), 1), 10000) as page
  )
  select jsonb_build_object(
    'release_count', (select count(*) from mine),
    'releases', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', r.id, 'kind', r.kind, 'title', r.title, 'created_at', r.created_at,
          'track_count', (select count(*) from public.tracks t where t.release_id = r.id),
          'codes', (select count(*) from public.download_codes c where c.release_id = r.id),
          'redeemed', (select count(*) from public.download_codes c where c.release_id = r.id and c.redeemed_at is not null))
        order by r.created_at desc, r.id)
      from (
        select m.* from mine m
        order by m.created_at desc, m.id
        limit (select size from paging) offset ((select page from paging) - 1) * (select size from paging)
      ) r), '[]')
  )
$$;

revoke execute on function public.studio_releases(integer, integer) from public;

grant execute on function public.studio_releases(integer, integer) to authenticated, service_role;

comment on function public.studio_releases(integer, integer) is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';
