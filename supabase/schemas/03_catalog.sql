-- Catalog: tracks and merch with their rules, and the public pages' functions (home, artist, directory,
-- genre). The genre roll-ups those pages count from are 03_genres.sql.
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
-- by a title. A single's release is its one track, and its title follows the track's; an album's title
-- is its tracks' album_title (kept by the triggers below, so the spec's field stays readable). A release
-- is as visible as its tracks: it shows once one of them does, so an upcoming album stays unannounced.
create table public.releases (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  kind text not null check (kind in ('album', 'single')),
  title text not null check (btrim(title) <> ''),
  -- An album's own price, set by its artist at upload and edit; null means the sum of its tracks' prices
  -- (release_price below). A single's price is its track's.
  price numeric(10, 2),
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

-- At most 5,000 releases an artist, as many as tracks (04 counts those), concurrent adds one after the
-- other; the operator's own SQL is not counted.
create or replace function private.limit_artist_releases()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  perform pg_advisory_xact_lock(hashtext('releases:' || new.artist_id::text));
  if (select count(*) from public.releases r where r.artist_id = new.artist_id) >= 5000 then
    raise exception 'an artist has at most 5000 releases' using errcode = '54000';
  end if;
  return new;
end;
$$;

revoke execute on function private.limit_artist_releases() from public;

create trigger releases_limit
  before insert on public.releases
  for each row execute function private.limit_artist_releases();

-- What an album costs: its own price, or the sum of the tracks the reader may see (security invoker).
-- A computed field (`release_price` in a select); a single costs its track's price.
create or replace function public.release_price(release public.releases)
returns numeric
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(release.price, (select sum(t.price) from public.tracks t where t.release_id = release.id))
$$;

revoke execute on function public.release_price(public.releases) from public;

grant execute on function public.release_price(public.releases) to anon, authenticated, service_role;

-- Tracks an artist publishes. A track is public once released (release_date has come); its artist sees
-- it from the moment it is created.
create table public.tracks (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  -- The release the track belongs to; type and album_title follow it (tracks_follow_their_release).
  release_id uuid not null,
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
  -- The artwork's size in pixels, read by the Worker from the file's header at upload (link previews and
  -- oEmbed name it); null when unknown (a release from before, or a header it could not read).
  artwork_width integer,
  artwork_height integer,
  constraint tracks_artwork_size check (private.is_picture_size(artwork_url, artwork_width, artwork_height)),
  -- When its page last changed (an edit; its made files are not one: 12_made_files.sql): the sitemap's lastmod.
  updated_at timestamptz not null default now(),
  constraint tracks_genre_in_catalog check (genre = any (private.genre_list())),
  constraint tracks_title_length check (char_length(title) <= 200),
  constraint tracks_album_title_length check (char_length(album_title) <= 200),
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
-- grows without end: at most 5,000 tracks an artist, and at most 100 (an album's) in one request (one
-- transaction, as PostgREST runs each). Concurrent publishes of one artist wait for each other, so two
-- cannot both take the last places. The operator's own SQL (seeds, backfills) is not an API role and is
-- not counted.
create or replace function private.limit_artist_tracks()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  written integer := coalesce(nullif(current_setting('crate.tracks_written', true), ''), '0')::integer + 1;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if written > 100 then
    raise exception 'at most 100 tracks are published at once' using errcode = '54000';
  end if;
  perform set_config('crate.tracks_written', written::text, true);
  perform pg_advisory_xact_lock(hashtext('tracks:' || new.artist_id::text));
  if (select count(*) from public.tracks t where t.artist_id = new.artist_id) >= 5000 then
    raise exception 'an artist has at most 5000 tracks' using errcode = '54000';
  end if;
  return new;
end;
$$;

revoke execute on function private.limit_artist_tracks() from public;

create trigger tracks_limit
  before insert on public.tracks
  for each row execute function private.limit_artist_tracks();

create trigger tracks_files_named_by_the_marketplace
  before insert or update of file_url, artwork_url, artwork_small_url, artwork_width, artwork_height on public.tracks
  for each row execute function private.files_named_by_the_marketplace(
    'file_url', 'artwork_url', 'artwork_small_url', 'artwork_width', 'artwork_height');

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

grant select on public.tracks to anon, authenticated;

grant insert, update, delete on public.tracks to authenticated;

create policy "Visitors read released tracks" on public.tracks
  for select to anon
  using (release_date <= current_date and artist_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read released tracks and their own" on public.tracks
  for select to authenticated
  using (
    (release_date <= current_date and artist_id <> all ((select private.banned_accounts())::uuid[]))
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

-- A track follows its release: an album's tracks are album tracks titled by the album, a single's is not.
-- A track written without a release (a single published through the API, the operator's SQL) gets a
-- single of its own; an album track must name its album, since nothing works an album out from a title.
create or replace function private.track_follows_its_release()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  release public.releases;
begin
  if new.release_id is null then
    if new.type = 'album' then
      raise exception 'an album track names its release' using errcode = 'not_null_violation', column = 'release_id';
    end if;
    insert into public.releases (artist_id, kind, title) values (new.artist_id, 'single', new.title)
      returning id into new.release_id;
    return new;
  end if;
  -- Not found (another artist's, or none): the foreign key refuses the row.
  select * into release from public.releases r where r.id = new.release_id;
  if release.kind = 'album' then
    new.type := 'album';
    new.album_title := release.title;
  elsif release.kind = 'single' and new.type = 'album' then
    raise exception 'a single''s track is not an album track'
      using errcode = 'check_violation', constraint = 'tracks_type_follows_release';
  end if;
  return new;
end
$$;

revoke execute on function private.track_follows_its_release() from public;

create trigger tracks_follow_their_release
  before insert or update of release_id, type, album_title on public.tracks
  for each row execute function private.track_follows_its_release();

-- A single is titled by its track; a release left without tracks (its last one deleted or moved) goes.
create or replace function private.release_follows_its_tracks()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.title is distinct from old.title then
    update public.releases r set title = new.title
    where r.id = new.release_id and r.kind = 'single' and r.title is distinct from new.title;
  end if;
  if tg_op = 'DELETE' or new.release_id is distinct from old.release_id then
    delete from public.releases r
    where r.id = old.release_id and not exists (select 1 from public.tracks t where t.release_id = r.id);
  end if;
  return null;
end
$$;

revoke execute on function private.release_follows_its_tracks() from public;

create trigger tracks_release_follows
  after update of title, release_id or delete on public.tracks
  for each row execute function private.release_follows_its_tracks();

-- An album renamed renames its tracks' album_title.
create or replace function private.album_title_to_tracks()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if new.kind = 'album' then
    update public.tracks t set album_title = new.title where t.release_id = new.id and t.album_title is distinct from new.title;
  end if;
  return null;
end
$$;

revoke execute on function private.album_title_to_tracks() from public;

create trigger releases_title_to_tracks
  after update of title on public.releases
  for each row execute function private.album_title_to_tracks();

-- Publishing a release: the release and all its tracks in one transaction (an album whole or not at all),
-- as the artist (row-level security, the catalogue's limits, and the marketplace's header for the files
-- the tracks name). A single has exactly one track; an album at least one, and maybe a price of its own
-- (null: the sum of its tracks'). Returns the tracks' ids.
create or replace function public.publish_release(kind text, title text, tracks jsonb, price numeric default null)
returns setof uuid
language plpgsql
security invoker
set search_path = ''
as $$
declare
  artist uuid := (select auth.uid());
  published uuid;
begin
  if jsonb_typeof(publish_release.tracks) <> 'array' or jsonb_array_length(publish_release.tracks) = 0
    or (publish_release.kind = 'single' and jsonb_array_length(publish_release.tracks) <> 1) then
    raise exception 'a single has one track and an album at least one'
      using errcode = 'check_violation', constraint = 'releases_track_count';
  end if;
  insert into public.releases (artist_id, kind, title, price)
  values (artist, publish_release.kind, publish_release.title, publish_release.price)
  returning id into published;
  return query
    insert into public.tracks (
      release_id, artist_id, type, title, track_number, genre, subgenre, price, allow_pay_more, description, label,
      release_date, file_url, peaks, duration_seconds, artwork_url, artwork_small_url, artwork_width, artwork_height)
    -- (a key left out is null here, not the column's default)
    select published, artist, publish_release.kind, t.title, t.track_number, t.genre, t.subgenre, t.price,
      coalesce(t.allow_pay_more, false), t.description, t.label, coalesce(t.release_date, current_date), t.file_url,
      t.peaks, t.duration_seconds,
      t.artwork_url, t.artwork_small_url, t.artwork_width, t.artwork_height
    from jsonb_populate_recordset(null::public.tracks, publish_release.tracks) with ordinality as t
    order by t.ordinality
    returning id;
end
$$;

revoke execute on function public.publish_release(text, text, jsonb, numeric) from public;

grant execute on function public.publish_release(text, text, jsonb, numeric) to authenticated, service_role;

-- Saving a track's edit page: its details (the keys of `details`, others kept) and, for an album track, its
-- album's title and price (`album`: {title, price}, a null price being the sum of its tracks'), in one
-- transaction, as the artist. Whether the track was the caller's to save (row-level security decides).
create or replace function public.save_track(track_id uuid, details jsonb, album jsonb default null)
returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
declare
  saved_release uuid;
begin
  update public.tracks t
  set (title, genre, subgenre, label, price, allow_pay_more, release_date, description, track_number) = (
    select d.title, d.genre, d.subgenre, d.label, d.price, d.allow_pay_more, d.release_date, d.description, d.track_number
    from jsonb_populate_record(t, save_track.details) d)
  where t.id = save_track.track_id
  returning t.release_id into saved_release;
  if saved_release is null then
    return false;
  end if;
  if save_track.album is not null then
    update public.releases r
    set title = coalesce(save_track.album ->> 'title', r.title), price = (save_track.album ->> 'price')::numeric
    where r.id = saved_release and r.kind = 'album';
  end if;
  return true;
end
$$;

revoke execute on function public.save_track(uuid, jsonb, jsonb) from public;

grant execute on function public.save_track(uuid, jsonb, jsonb) to authenticated, service_role;

-- How many tracks of this track's album the reader may see (null for a track on no album): a computed
-- field (`album_track_count` in a select), so the track page sizes its album embed in the same read.
create or replace function public.album_track_count(track public.tracks)
returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select case when track.type <> 'album' then null else (
    select count(*)::integer from public.tracks t where t.release_id = track.release_id)
  end
$$;

revoke execute on function public.album_track_count(public.tracks) from public;

grant execute on function public.album_track_count(public.tracks) to anon, authenticated, service_role;

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

-- At most 500 merch items an artist (a store, not a warehouse), concurrent adds one after the other; the
-- operator's own SQL is not counted.
create or replace function private.limit_artist_merch()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  perform pg_advisory_xact_lock(hashtext('merch:' || new.artist_id::text));
  if (select count(*) from public.merch m where m.artist_id = new.artist_id) >= 500 then
    raise exception 'an artist has at most 500 merch items' using errcode = '54000';
  end if;
  return new;
end;
$$;

revoke execute on function private.limit_artist_merch() from public;

create trigger merch_limit
  before insert on public.merch
  for each row execute function private.limit_artist_merch();

create trigger merch_files_named_by_the_marketplace
  before insert or update of image_url, image_small_url on public.merch
  for each row execute function private.files_named_by_the_marketplace('image_url', 'image_small_url');

revoke all on public.merch from anon, authenticated;

grant select on public.merch to anon, authenticated;

grant insert, update, delete on public.merch to authenticated;

create policy "Visitors read merch" on public.merch
  for select to anon using (artist_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read merch" on public.merch
  for select to authenticated
  using (artist_id <> all ((select private.banned_accounts())::uuid[]) or artist_id = (select auth.uid()));

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
    select t.*
    from public.tracks t
    where t.artist_id = artist_page.artist_id
  ),
  releases as (
    -- Newest first: an album is as new as its newest track.
    select r.release_id,
      row_number() over (order by max(r.release_date) desc, max(r.created_at) desc, r.release_id) as n
    from artist_tracks r
    group by r.release_id
  ),
  shown as (
    select r.release_id, r.n
    from releases r, paging p
    where r.n > (p.page - 1) * p.size and r.n <= p.page * p.size
  )
  select private.artist_card(a) || jsonb_build_object(
    'bio', a.bio,
    'website', a.website,
    'social_links', a.social_links,
    'profile_image_width', a.profile_image_width,
    'profile_image_height', a.profile_image_height,
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
          'id', t.id, 'release_id', t.release_id, 'title', t.title, 'type', t.type, 'album_title', t.album_title,
          'track_number', t.track_number, 'genre', t.genre, 'price', t.price, 'artwork_url', t.artwork_url,
          'artwork_small_url', t.artwork_small_url,
          'release_date', t.release_date, 'upcoming', t.release_date > current_date,
          'duration_seconds', t.duration_seconds)
        order by s.n, t.release_date desc, t.track_number nulls last, t.created_at desc)
      from artist_tracks t
      join shown s using (release_id)), '[]'),
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

-- The album page: the release, its artist and the tracks the reader may see, in their order; null when the
-- reader may see none of them (an upcoming album, a banned artist's, none at all). A single's release
-- answers too, so its address leads to its track. What an album shares (artwork, label, description) is
-- its first track's: the upload form gives all of its tracks the same.
create or replace function public.album_page(release_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with shown as (
    select t.*, row_number() over (order by t.track_number nulls last, t.created_at, t.id) as n
    from public.tracks t
    where t.release_id = album_page.release_id
  ),
  lead_track as (select * from shown where n = 1)
  select jsonb_build_object(
    'id', r.id,
    'kind', r.kind,
    'title', r.title,
    'price', public.release_price(r),
    'release_date', (select max(s.release_date) from shown s),
    'upcoming', (select bool_and(s.release_date > current_date) from shown s),
    'duration_seconds', (select sum(s.duration_seconds) from shown s),
    'genre', l.genre,
    'label', l.label,
    'description', l.description,
    'artwork_url', l.artwork_url,
    'artwork_width', l.artwork_width,
    'artwork_height', l.artwork_height,
    'artist', jsonb_build_object('id', a.id, 'artist_name', a.artist_name, 'profile_image_url', a.profile_image_url),
    -- The masters' paths, for the formats it downloads in (stated before anyone buys).
    'file_paths', coalesce((select jsonb_agg(s.file_url) from shown s where nullif(s.file_url, '') is not null), '[]'),
    -- Whether the reader bought every track of it shown (then they download it rather than buy it), or made it.
    'owned', private.bought_all(array(select s.id from shown s)),
    'own_release', r.artist_id is not distinct from (select auth.uid()),
    'tracks', (
      select jsonb_agg(jsonb_build_object(
          'id', s.id, 'title', s.title, 'track_number', s.track_number, 'price', s.price,
          'duration_seconds', s.duration_seconds, 'artwork_url', s.artwork_url,
          'artwork_small_url', s.artwork_small_url, 'upcoming', s.release_date > current_date)
        order by s.n)
      from shown s)
  )
  from public.releases r
  join lead_track l on true
  join public.artist_profiles a on a.id = r.artist_id
  where r.id = album_page.release_id
$$;

revoke execute on function public.album_page(uuid) from public;

grant execute on function public.album_page(uuid) to anon, authenticated, service_role;

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
