-- Downloads: taking home what one owns, and download codes that give a release away (further down). A
-- track's artist downloads it any time; anyone else a track they bought (or got with a code). Nobody else, however they ask: these functions answer who may take which file, and Storage signs
-- a master (for a minute) only for its artist or for someone who bought its track (the policy below).
-- Every download a buyer takes is the spec's `download` event, so the artist's Downloads figure, trends
-- and analytics count real downloads (the daily roll-ups of 07_analytics.sql count them as they come).
set check_function_bodies = off;

-- Whether the caller may download the track: its artist, or its buyer, with an account in good standing.
-- A buyer keeps what they bought when its artist is banned or the track is withdrawn from sale later.
create or replace function private.may_download(track_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and (select private.is_active_user()) and exists (
    select 1 from public.tracks t
    where t.id = may_download.track_id
      and (t.artist_id = (select auth.uid())
        or exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = (select auth.uid()))))
$$;

revoke execute on function private.may_download(uuid) from public;

grant execute on function private.may_download(uuid) to authenticated;

-- Whether the caller bought every one of these tracks (an album's page: "You own this"). Visitors may ask
-- (the answer is no), without reading anyone's purchases.
create or replace function private.bought_all(track_ids uuid[])
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and cardinality(bought_all.track_ids) > 0 and not exists (
    select 1 from unnest(bought_all.track_ids) as wanted (id)
    where not exists (select 1 from public.purchases p where p.track_id = wanted.id and p.user_id = (select auth.uid())))
$$;

revoke execute on function private.bought_all(uuid[]) from public;

grant execute on function private.bought_all(uuid[]) to anon, authenticated;

-- The master a stored path is, or a download file made of it, for a buyer of its track: what lets Storage
-- sign it for them.
create or replace function private.bought_master(path text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select private.is_active_user()) and exists (
    select 1 from public.tracks t
    join public.purchases p on p.track_id = t.id
    where p.user_id = (select auth.uid())
      and (t.file_url = bought_master.path
        or t.id in (select f.track_id from private.made_files f where f.path = bought_master.path)))
$$;

revoke execute on function private.bought_master(text) from public;

grant execute on function private.bought_master(text) to authenticated;

-- Storage's policies run per object: a track by its master's path.
create index tracks_file_url_idx on public.tracks (file_url);

create policy "Buyers read the masters of the tracks they bought" on storage.objects
  for select to authenticated
  using (bucket_id = 'tracks' and private.bought_master(name));

-- The formats a download is made in, beside the master as uploaded: MP3 at 320 kbps for every master, and
-- FLAC where the master is lossless (a WAV; FLAC of a lossy file would only be bigger). The media Worker's
-- queue makes each the first time someone asks for it (or ahead of it), tagged with the track's title,
-- artist, album, number, year and cover, and stores it beside the stream; made once, kept, and made again
-- only for a new master. They are made files of the track (12_made_files.sql), asked for here.

-- Whether a master is lossless, so a FLAC of it is too: a WAV (the only lossless format uploads take).
create or replace function private.is_lossless_master(path text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(is_lossless_master.path ~* '\.wav$', false)
$$;

grant execute on function private.is_lossless_master(text) to anon, authenticated, service_role;

-- The files to take for `track_ids` (in that order), in `format` ('original': the master as uploaded;
-- 'mp3'; 'flac', which gives the master itself where it is not lossless): those the caller may download and
-- that have audio, each with what names it and its state. A made file not made yet is asked for here
-- (`requested`: the marketplace then queues it), again when the master changed, when a request went
-- unanswered for ten minutes, or an hour after it failed. `take` records a buyer's download once a day per
-- track (a file taken again, or a request retried, is not another download), and only when every file is
-- ready: a page asking whether the files are ready takes nothing. The artist's own are not downloads.
-- The country comes only from the marketplace, which reads it off the request.
create or replace function private.take_downloads(track_ids uuid[], country text, format text, take boolean)
returns table (
  track uuid, path text, title text, artist_name text, album_title text, track_number integer,
  state text, requested boolean
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  wanted record;
  made private.made_files;
  all_ready boolean := true;
  bought uuid[] := '{}';
begin
  if take_downloads.format is null or take_downloads.format not in ('original', 'mp3', 'flac') then
    raise exception 'a download is original, mp3 or flac' using errcode = '22023';
  end if;
  for wanted in
    select t.id, t.artist_id, t.file_url, t.title, a.artist_name, t.album_title, t.track_number
    from unnest(take_downloads.track_ids) with ordinality as asked (id, n)
    join public.tracks t on t.id = asked.id
    join public.artist_profiles a on a.id = t.artist_id
    where nullif(t.file_url, '') is not null and private.may_download(t.id)
    order by asked.n
  loop
    track := wanted.id;
    title := wanted.title;
    artist_name := wanted.artist_name;
    album_title := wanted.album_title;
    track_number := wanted.track_number;
    requested := false;
    if take_downloads.format = 'original'
      or (take_downloads.format = 'flac' and not private.is_lossless_master(wanted.file_url)) then
      path := wanted.file_url;
      state := 'ready';
    else
      insert into private.made_files as f (track_id, format, master_path)
      values (wanted.id, take_downloads.format, wanted.file_url)
      on conflict on constraint made_files_pkey do update
        set master_path = excluded.master_path, path = null, state = 'preparing', failure = null, requested_at = now()
        where f.master_path <> excluded.master_path
          or (f.state = 'preparing' and f.requested_at < now() - interval '10 minutes')
          or (f.state = 'failed' and f.requested_at < now() - interval '1 hour');
      requested := found;
      select * into made from private.made_files f where f.track_id = wanted.id and f.format = take_downloads.format;
      path := made.path;
      state := made.state;
    end if;
    all_ready := all_ready and state = 'ready';
    if wanted.artist_id <> me then
      bought := bought || wanted.id;
    end if;
    return next;
  end loop;
  if take_downloads.take and all_ready then
    for wanted in select b.id, t.artist_id from unnest(bought) as b (id) join public.tracks t on t.id = b.id loop
      perform pg_advisory_xact_lock(hashtext('download:' || me::text || ':' || wanted.id::text));
      if not exists (
        select 1 from public.analytics_events e
        where e.user_id = me and e.type = 'download' and e.track_id = wanted.id and e.created_at > now() - interval '1 day'
      ) then
        insert into public.analytics_events (type, track_id, artist_id, user_id, country)
        values ('download', wanted.id, wanted.artist_id, me,
          case when private.is_marketplace_request() then take_downloads.country end);
      end if;
    end loop;
  end if;
end
$$;

revoke execute on function private.take_downloads(uuid[], text, text, boolean) from public;

grant execute on function private.take_downloads(uuid[], text, text, boolean) to authenticated;

-- One track's file to take in `format`, or 42501 when it is not the caller's to download (P0002: it has no
-- audio). `take` false asks only whether it is ready (and has it made).
create or replace function public.download_track(track_id uuid, country text default null, format text default 'original', take boolean default true)
returns table (
  track uuid, path text, title text, artist_name text, album_title text, track_number integer,
  state text, requested boolean
)
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if not private.may_download(download_track.track_id) then
    raise exception 'only its artist and those who bought it download a track' using errcode = '42501';
  end if;
  return query select * from private.take_downloads(
    array[download_track.track_id], download_track.country, download_track.format, download_track.take);
  if not found then
    raise exception 'this track has no audio file' using errcode = 'P0002';
  end if;
end
$$;

revoke execute on function public.download_track(uuid, text, text, boolean) from public;

grant execute on function public.download_track(uuid, text, text, boolean) to authenticated, service_role;

-- A release's files to take in `format`, in its order: those of its tracks the caller may download (an
-- album bought track by track gives what was bought). 42501 when there are none.
create or replace function public.download_release(release_id uuid, country text default null, format text default 'original', take boolean default true)
returns table (
  track uuid, path text, title text, artist_name text, album_title text, track_number integer,
  state text, requested boolean
)
language plpgsql
security invoker
set search_path = ''
as $$
begin
  return query select * from private.take_downloads(
    array(
      select t.id from public.tracks t
      where t.release_id = download_release.release_id
      order by t.track_number nulls last, t.created_at, t.id),
    download_release.country, download_release.format, download_release.take);
  if not found then
    raise exception 'nothing of this release is the caller''s to download' using errcode = '42501';
  end if;
end
$$;

revoke execute on function public.download_release(uuid, text, text, boolean) from public;

grant execute on function public.download_release(uuid, text, text, boolean) to authenticated, service_role;

-- What the caller owns, by release, for Purchased: a page of releases (newest purchase first), each with
-- the tracks of it they bought, in its order, and when and for how much. Row-level security: one's own
-- purchases, and the tracks they may see.
create or replace function public.owned_releases(page integer default 1, page_size integer default 20)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with bought as (
    select p.id as purchase_id, p.amount, p.created_at as bought_at, t.*
    from public.purchases p
    join public.tracks t on t.id = p.track_id
    where p.user_id = (select auth.uid())
  ),
  releases as (
    select b.release_id, max(b.bought_at) as last_bought, sum(b.amount) as amount,
      row_number() over (order by max(b.bought_at) desc, b.release_id) as n
    from bought b
    group by b.release_id
  ),
  paging as (
    select least(greatest(coalesce(owned_releases.page_size, 20), 1), 100) as size,
      least(greatest(coalesce(owned_releases.page, 1), 1), 10000) as page
  )
  select jsonb_build_object(
    'release_count', (select count(*) from releases),
    'releases', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', r.id, 'kind', r.kind, 'title', r.title, 'bought_at', o.last_bought, 'amount', o.amount,
          'artist', jsonb_build_object('id', a.id, 'artist_name', a.artist_name),
          'tracks', (
            select jsonb_agg(jsonb_build_object(
                'id', b.id, 'title', b.title, 'track_number', b.track_number, 'duration_seconds', b.duration_seconds,
                'artwork_url', b.artwork_url, 'artwork_small_url', b.artwork_small_url,
                'has_audio', nullif(b.file_url, '') is not null, 'lossless', private.is_lossless_master(b.file_url))
              order by b.track_number nulls last, b.created_at, b.id)
            from (select distinct on (b.id) * from bought b where b.release_id = r.id) b))
        order by o.n)
      from releases o
      cross join paging g
      join public.releases r on r.id = o.release_id
      join public.artist_profiles a on a.id = r.artist_id
      where o.n > (g.page - 1) * g.size and o.n <= g.page * g.size), '[]')
  )
$$;

revoke execute on function public.owned_releases(integer, integer) from public;

grant execute on function public.owned_releases(integer, integer) to authenticated, service_role;

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

create index download_codes_artist_id_idx on public.download_codes (artist_id);

revoke all on public.download_codes from anon, authenticated;

-- Codes are made and redeemed by the functions below; their artist reads them and disables unused ones.
grant select, update (disabled_at) on public.download_codes to authenticated;

create policy "Artists read their own codes" on public.download_codes
  for select to authenticated
  using (artist_id = (select auth.uid()));

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

-- Makes `how_many` (1 to 1,000) new codes for one of the caller's releases, at most 10,000 a release.
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
-- `too_many` (beyond the limits). Redeemed, the release's tracks (those not already owned) become the
-- fan's $0 purchases marked with the code. A user without a fan account, or banned, is refused (42501).
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
