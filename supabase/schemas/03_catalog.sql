-- Catalog: releases and their tracks, with their rules and who reads them. What follows from them is
-- beside it: 03_releases.sql (a release and its tracks kept together, publishing, the album page),
-- 03_merch.sql, 03_pages.sql (the public pages' reads) and 03_genres.sql (the genre roll-ups).
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

-- A release: what an artist publishes and sells as one, an album or a single. Every surface (the artist
-- page, the album page, embeds, JSON-LD, the sitemap, Your Tracks) groups tracks by their release, never
-- by a title. A single's release is its one track, and its title follows the track's. What the spec
-- calls a track's type and album title are its release's kind and title, read from the release (never
-- copied onto the track). A release is as visible as its tracks: it shows once one of them does, so an
-- upcoming album stays unannounced.
create table public.releases (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  kind text not null check (kind in ('album', 'single')),
  title text not null check (btrim(title) <> ''),
  -- An album's own price, set by its artist at upload and edit; null means the sum of its tracks' prices
  -- (release_price below). A single's price is its track's.
  price numeric(10, 2),
  -- On pre-order: a release dated ahead, shown and sold before its day (its tracks readable by all, the
  -- instant ones playable and the buyer's at once, the rest theirs on the day). Set by save_preorder
  -- (19_preorders.sql), which holds that every track of it is dated ahead.
  preorder boolean not null default false,
  created_at timestamptz not null default now(),
  -- When its page last changed (its title, its price, a track of it): the sitemap's lastmod.
  updated_at timestamptz not null default now(),
  constraint releases_title_length check (char_length(title) <= 200),
  constraint releases_price_range check (price is null or (price >= 0.99 and price <= 1000)),
  constraint releases_price_of_an_album check (price is null or kind = 'album'),
  -- A track's release is its own artist's (tracks' foreign key names both).
  constraint releases_id_artist_id_key unique (id, artist_id)
);

alter table public.releases enable row level security;

-- A row's updated_at: now, when anything but the columns named as the trigger's arguments (counters)
-- changed; otherwise as it was. Only the database sets it for API roles (a client's own
-- value is ignored); the marketplace's functions and the operator may set it (a release touched by its track).
create or replace function private.touch_when_changed()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  api boolean := current_user in ('anon', 'authenticated');
begin
  if tg_op = 'INSERT' then
    if api then
      new.updated_at := now();
    end if;
  -- (tg_argv is null, not empty, for a trigger given no arguments)
  elsif (to_jsonb(new) - coalesce(tg_argv, '{}') - 'updated_at') is distinct from (to_jsonb(old) - coalesce(tg_argv, '{}') - 'updated_at') then
    new.updated_at := now();
  elsif api then
    new.updated_at := old.updated_at;
  end if;
  return new;
end
$$;

create trigger releases_touch_when_changed
  before insert or update on public.releases
  for each row execute function private.touch_when_changed();

-- An artist's follower count is not a change of their page.
create trigger artist_profiles_touch_when_changed
  before insert or update on public.artist_profiles
  for each row execute function private.touch_when_changed('follower_count');

create index releases_artist_id_created_at_idx on public.releases (artist_id, created_at desc);

-- The releases on pre-order (the tracks' read policies ask for them once per query).
create index releases_preorder_idx on public.releases (id) where preorder;

revoke all on public.releases from anon, authenticated;

grant select on public.releases to anon, authenticated;

-- A release's kind is what it was published as; its title and an album's price are the artist's to edit.
grant insert (id, artist_id, kind, title, price), update (title, price), delete on public.releases to authenticated;

create policy "Artists add their own releases" on public.releases
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own releases" on public.releases
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists delete their own releases" on public.releases
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- At most 5,000 releases an artist, as many as tracks (04 counts those).
create trigger releases_limit
  before insert on public.releases
  for each row execute function private.limit_per_owner('artist_id', '5000', 'an artist has at most 5000 releases');

-- A publish writes one release (and a track written alone, one of its own): no request writes thousands.
create trigger releases_limit_per_request
  before insert on public.releases
  for each row execute function private.limit_rows_per_request('releases', '100');

-- Tracks an artist publishes. A track is public once released (release_date has come); its artist sees
-- it from the moment it is created.
create table public.tracks (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  -- The release the track belongs to: its kind and title are the track's type and album title.
  release_id uuid not null,
  track_number integer check (track_number > 0),
  genre text not null check (btrim(genre) <> ''),
  subgenre text,
  price numeric(10, 2) not null check (price >= 0.99),
  allow_pay_more boolean not null default false,
  description text not null check (btrim(description) <> ''),
  label text,
  release_date date not null default current_date,
  -- A pre-order's instant download: played, and its buyer's at once, before its release's day (only
  -- while its release is on pre-order: private.out_for_buyers, 19_preorders.sql).
  instant boolean not null default false,
  -- Path of the audio object in the private tracks bucket ({artist id}/{file}): its artist's and the
  -- marketplace's to read, not a visitor's (the grants below).
  file_url text,
  -- The master's format as its file ending ('wav', 'mp3'…): what pages say a release downloads in.
  master_format text generated always as (lower(substring(file_url from '\.([A-Za-z0-9]{1,5})$'))) stored,
  -- The MP3 bitrate its master warrants (download_mp3_kbps, 13_downloads.sql), set when its stream's job
  -- has read the master; null until then, and again for a new master.
  mp3_kbps integer check (mp3_kbps between 8 and 320),
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
  -- The artwork's size in pixels, read by the Worker from the file's header at upload (link previews and
  -- oEmbed name it); null when unknown (a release from before, or a header it could not read).
  artwork_width integer,
  artwork_height integer,
  constraint tracks_artwork_size check (private.is_picture_size(artwork_url, artwork_width, artwork_height)),
  -- When its page last changed (an edit; its made files are not one: 12_made_files.sql): the sitemap's lastmod.
  updated_at timestamptz not null default now(),
  constraint tracks_genre_in_catalog check (genre = any (private.genre_list())),
  constraint tracks_title_length check (char_length(title) <= 200),
  constraint tracks_subgenre_length check (char_length(subgenre) <= 100),
  constraint tracks_label_length check (char_length(label) <= 100),
  constraint tracks_description_length check (char_length(description) <= 5000),
  constraint tracks_price_range check (price <= 1000),
  constraint tracks_track_number_range check (track_number <= 100),
  constraint tracks_release_date_range check (release_date >= date '1900-01-01'),
  constraint tracks_release_id_fkey foreign key (release_id, artist_id)
    references public.releases (id, artist_id) on delete cascade
);

alter table public.tracks enable row level security;

create index tracks_artist_id_release_date_idx on public.tracks (artist_id, release_date desc);

create index tracks_created_at_idx on public.tracks (created_at desc);

-- A release's tracks in their order (the album page, the embeds, a release's visibility).
create index tracks_release_id_track_number_idx on public.tracks (release_id, track_number);

-- Finding a track genre whatever its case.
create index tracks_genre_lower_idx on public.tracks (lower(genre));

-- A genre's newest releases (the home page's rows), its released tracks counted, and per artist (genre
-- pages), all from the index.
create index tracks_genre_release_date_idx on public.tracks (genre, release_date desc, created_at desc) include (artist_id);

-- The tracks dated after today, per artist and genre: what the rollups hold that is not released yet.
-- Read from the release-date index alone.
create index tracks_release_date_genre_idx on public.tracks (release_date) include (genre, artist_id);

-- An artist's catalogue has bounds, so no request writes thousands of rows and no list of an artist's
-- grows without end: at most 5,000 tracks an artist, and at most 100 (an album's) in one request.
create trigger tracks_limit
  before insert on public.tracks
  for each row execute function private.limit_per_owner('artist_id', '5000', 'an artist has at most 5000 tracks');

create trigger tracks_limit_per_request
  before insert on public.tracks
  for each row execute function private.limit_rows_per_request('tracks', '100', 'at most 100 tracks are published at once');

create trigger tracks_files_named_by_the_marketplace
  before insert or update of file_url, artwork_url, artwork_small_url, artwork_width, artwork_height, mp3_kbps on public.tracks
  for each row execute function private.files_named_by_the_marketplace(
    'file_url', 'artwork_url', 'artwork_small_url', 'artwork_width', 'artwork_height', 'mp3_kbps');

-- A new master's MP3 bitrate is unknown until its stream's job reads it (a lossless one's too: its sample
-- rate bounds it), and promised by no page meanwhile.
create or replace function private.mp3_kbps_follows_the_master()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.file_url is distinct from old.file_url then
    new.mp3_kbps := null;
  end if;
  return new;
end
$$;

revoke execute on function private.mp3_kbps_follows_the_master() from public;

create trigger tracks_mp3_kbps_follows_the_master
  before insert or update of file_url on public.tracks
  for each row execute function private.mp3_kbps_follows_the_master();

create trigger tracks_touch_when_changed
  before insert or update on public.tracks
  for each row execute function private.touch_when_changed();

-- A track added, changed or removed changes its release's page and its artist's: their updated_at too.
create or replace function private.track_touches_its_pages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.updated_at is not distinct from old.updated_at then
    return null;
  end if;
  if tg_op <> 'INSERT' then
    update public.releases r set updated_at = now() where r.id = old.release_id;
    update public.artist_profiles a set updated_at = now() where a.id = old.artist_id;
  end if;
  if tg_op <> 'DELETE' then
    update public.releases r set updated_at = now() where r.id = new.release_id;
    update public.artist_profiles a set updated_at = now() where a.id = new.artist_id;
  end if;
  return null;
end
$$;

revoke execute on function private.track_touches_its_pages() from public;

create trigger tracks_touch_their_pages
  after insert or update or delete on public.tracks
  for each row execute function private.track_touches_its_pages();

revoke all on public.tracks from anon, authenticated;

-- Visitors read every column but the master's path (what a visitor would need to ask Storage for it).
grant select (
  id, artist_id, title, release_id, track_number, genre, subgenre, price, allow_pay_more, description, label,
  release_date, instant, master_format, mp3_kbps, artwork_url, peaks, duration_seconds, created_at, artwork_small_url,
  artwork_width, artwork_height, updated_at
) on public.tracks to anon;

grant select on public.tracks to authenticated;

grant insert, update, delete on public.tracks to authenticated;

-- The releases on pre-order whose day has not come, for the tracks' read policies. Written
-- `= any ((select private.preorder_releases())::uuid[])`, it runs once per query.
create or replace function private.preorder_releases()
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(r.id), '{}') from public.releases r
  where r.preorder and exists (select 1 from public.tracks t where t.release_id = r.id and t.release_date > current_date)
$$;

revoke execute on function private.preorder_releases() from public;

grant execute on function private.preorder_releases() to anon, authenticated, service_role;

-- A release on pre-order shows its tracks before their day (listed; only its instant ones play).
create policy "Visitors read released tracks" on public.tracks
  for select to anon
  using (
    (release_date <= current_date or release_id = any ((select private.preorder_releases())::uuid[]))
    and artist_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read released tracks and their own" on public.tracks
  for select to authenticated
  using (
    ((release_date <= current_date or release_id = any ((select private.preorder_releases())::uuid[]))
      and artist_id <> all ((select private.banned_accounts())::uuid[]))
    or artist_id = (select auth.uid()));

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

-- A release shows once one of its tracks does (the tracks' policies above decide), so an upcoming album
-- stays unannounced; its artist sees it from the start.
create policy "Visitors read released releases" on public.releases
  for select to anon
  using (exists (select 1 from public.tracks t where t.release_id = releases.id));

create policy "Users read released releases and their own" on public.releases
  for select to authenticated
  using (artist_id = (select auth.uid()) or exists (select 1 from public.tracks t where t.release_id = releases.id));

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
