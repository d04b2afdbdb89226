set check_function_bodies = off;

-- Releases as their tracks make them: an album's price, a track following its release and a release its
-- tracks, publishing a release whole, saving a track with its album, and the album page. The releases
-- table itself, and the tracks it holds, are 03_catalog.sql.

-- What an album costs: its own price, or the sum of all its tracks' prices, out or not (a track dated ahead
-- is the buyer's on its day: private.release_tracks_price). A computed field (`release_price` in a select)
-- of a release the reader may see; a single costs its track's price.
create or replace function public.release_price(release public.releases)
returns numeric
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(release.price, private.release_tracks_price(release.id))
$$;

revoke execute on function public.release_price(public.releases) from public;

grant execute on function public.release_price(public.releases) to anon, authenticated, service_role;

comment on function public.release_price(public.releases) is
  'Runs as its caller: a computed field of releases (`release_price` in a select), read under row-level security.';

-- The sum of a release's tracks' prices, every track's, those dated ahead too (which the reader may not see).
create or replace function private.release_tracks_price(release_id uuid)
returns numeric
language sql
stable
security definer
set search_path = ''
as $$
  select sum(t.price) from public.tracks t where t.release_id = release_tracks_price.release_id
$$;

revoke execute on function private.release_tracks_price(uuid) from public;

grant execute on function private.release_tracks_price(uuid) to anon, authenticated, service_role;

-- A track written without a release (a single published through the API, the operator's SQL) gets a
-- single of its own; one naming a release belongs to it (the foreign key refuses another artist's).
create or replace function private.track_follows_its_release()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if new.release_id is null then
    insert into public.releases (artist_id, kind, title) values (new.artist_id, 'single', new.title)
      returning id into new.release_id;
  end if;
  return new;
end
$$;

revoke execute on function private.track_follows_its_release() from public;

create trigger tracks_follow_their_release
  before insert or update of release_id on public.tracks
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
      release_id, artist_id, title, track_number, genre, subgenre, price, allow_pay_more, description, label,
      release_date, file_url, peaks, duration_seconds, artwork_url, artwork_small_url, artwork_width, artwork_height)
    -- (a key left out is null here, not the column's default)
    select published, artist, t.title, t.track_number, t.genre, t.subgenre, t.price,
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

comment on function public.publish_release(text, text, jsonb, numeric) is
  'Runs as its caller: it writes the caller''s own catalogue, as row-level security and the catalogue''s triggers let them.';

-- Saving a track's edit page: its details (the keys of `details`, others kept) and, for an album track, its
-- album's title and price (`album`: {title, price}, a null price being the sum of its tracks'), in one
-- transaction, as the artist. Whether the track was the caller's to save (row-level security decides). A
-- pre-order's track keeps its day here (23514, tracks_release_date_of_a_preorder): save_preorder moves it.
create or replace function public.save_track(track_id uuid, details jsonb, album jsonb default null)
returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
declare
  saved_release uuid;
begin
  -- A pre-order's day is moved whole, its buyers told (save_preorder, 19_preorders.sql), not one track's here.
  if exists (
    select 1 from public.tracks t join public.releases r on r.id = t.release_id
    where t.id = save_track.track_id and r.preorder and t.release_date > current_date
      and (save_track.details ->> 'release_date')::date is distinct from t.release_date
      and save_track.details ? 'release_date') then
    raise exception 'a pre-order''s release date is moved with its pre-order'
      using errcode = 'check_violation', constraint = 'tracks_release_date_of_a_preorder';
  end if;
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

comment on function public.save_track(uuid, jsonb, jsonb) is
  'Runs as its caller: it writes the caller''s own catalogue, as row-level security and the catalogue''s triggers let them.';

-- Replacing a published track's files from its edit page, in one transaction, as the artist: its audio
-- (`audio`: {file_url, peaks, duration_seconds}) and its release's artwork (`artwork`: {url, small_url,
-- width, height}), on every track of an album, since the upload gives an album's tracks one artwork. Only
-- the marketplace's header lets a row name a stored file (files_named_by_the_marketplace): the Worker has
-- judged them by their bytes. Its stream and download files follow the new master
-- (made_files_follow_the_master). Answers the master it replaced, for the Worker to remove (the old artwork
-- stays in the artist's media library; its small rendition is the sweep's), or null when the track is not
-- the caller's (another artist's released track is readable, not theirs to change).
create or replace function public.replace_track_files(track_id uuid, audio jsonb default null, artwork jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  replaced public.tracks;
begin
  select * into replaced
  from public.tracks t
  where t.id = replace_track_files.track_id and t.artist_id = (select auth.uid())
  for update;
  if not found then
    return null;
  end if;
  if replace_track_files.audio is not null then
    update public.tracks t
    set file_url = replace_track_files.audio ->> 'file_url',
      peaks = nullif(replace_track_files.audio -> 'peaks', 'null'::jsonb),
      duration_seconds = (replace_track_files.audio ->> 'duration_seconds')::numeric
    where t.id = replaced.id;
  end if;
  if replace_track_files.artwork is not null then
    update public.tracks t
    set artwork_url = replace_track_files.artwork ->> 'url',
      artwork_small_url = replace_track_files.artwork ->> 'small_url',
      artwork_width = (replace_track_files.artwork ->> 'width')::integer,
      artwork_height = (replace_track_files.artwork ->> 'height')::integer
    where t.release_id = replaced.release_id;
  end if;
  return jsonb_build_object(
    'replaced_master', case when replace_track_files.audio is not null then nullif(replaced.file_url, '') end);
end
$$;

revoke execute on function public.replace_track_files(uuid, jsonb, jsonb) from public;

grant execute on function public.replace_track_files(uuid, jsonb, jsonb) to authenticated, service_role;

comment on function public.replace_track_files(uuid, jsonb, jsonb) is
  'Runs as its caller: it writes the caller''s own track, as row-level security and the catalogue''s triggers let them.';

-- How many of its tracks the reader may see: a computed field of a release (`track_count` in a select), so
-- the track page sizes its album embed in the same read.
create or replace function public.track_count(release public.releases)
returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select count(*)::integer from public.tracks t where t.release_id = track_count.release.id
$$;

revoke execute on function public.track_count(public.releases) from public;

grant execute on function public.track_count(public.releases) to anon, authenticated, service_role;

comment on function public.track_count(public.releases) is
  'Runs as its caller: a computed field of releases (`track_count` in a select), read under row-level security.';

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
    select t.id, t.title, t.track_number, t.price, t.duration_seconds, t.release_date, t.genre, t.label,
      t.description, t.artwork_url, t.artwork_small_url, t.artwork_width, t.artwork_height, t.master_format,
      t.mp3_kbps, t.allow_pay_more, t.instant, row_number() over (order by t.track_number nulls last, t.created_at, t.id) as n
    from public.tracks t
    where t.release_id = album_page.release_id
  ),
  lead_track as (select * from shown where n = 1)
  select jsonb_build_object(
    'id', r.id,
    'kind', r.kind,
    'title', r.title,
    'price', public.release_price(r),
    'currency', private.artist_currency(r.artist_id),
    'allow_pay_more', l.allow_pay_more,
    'release_date', (select max(s.release_date) from shown s),
    'upcoming', (select bool_and(s.release_date > current_date) from shown s),
    -- On pre-order: sold now, its instant tracks playable; and whether the reader has pre-ordered it.
    'preorder', r.preorder and (select bool_and(s.release_date > current_date) from shown s),
    'preordered', private.preordered(r.id),
    'duration_seconds', (select sum(s.duration_seconds) from shown s),
    'genre', l.genre,
    'label', l.label,
    'description', l.description,
    'artwork_url', l.artwork_url,
    'artwork_width', l.artwork_width,
    'artwork_height', l.artwork_height,
    'artist', jsonb_build_object('id', a.id, 'artist_name', a.artist_name, 'profile_image_url', a.profile_image_url),
    -- Its masters' formats and the MP3 each warrants, for the formats it downloads in (stated before anyone buys).
    'masters', coalesce((
      select jsonb_agg(jsonb_build_object('format', s.master_format, 'mp3_kbps', s.mp3_kbps))
      from shown s where s.master_format is not null), '[]'),
    -- Whether the reader bought every track of it shown (then they download it rather than buy it), or made it.
    'owned', private.bought_all(array(select s.id from shown s)),
    'own_release', r.artist_id is not distinct from (select auth.uid()),
    'tracks', (
      select jsonb_agg(jsonb_build_object(
          'id', s.id, 'title', s.title, 'track_number', s.track_number, 'price', s.price,
          'duration_seconds', s.duration_seconds, 'artwork_url', s.artwork_url,
          'artwork_small_url', s.artwork_small_url, 'upcoming', s.release_date > current_date, 'instant', s.instant,
          -- Whether the reader bought it (an album bought in part shows which tracks are theirs).
          'owned', private.bought_all(array[s.id]))
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

comment on function public.album_page(uuid) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';
