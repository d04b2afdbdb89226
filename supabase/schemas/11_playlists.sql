-- Playlists: a user's own ordered lists of tracks, private or public. Fans and artists both have them.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- A playlist belongs to the user who made it; only they write it. A public one anyone may read and play.
create table public.playlists (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  description text,
  is_public boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint playlists_name_length check (char_length(btrim(name)) >= 1 and char_length(name) <= 100),
  constraint playlists_description_length check (char_length(description) <= 500)
);

alter table public.playlists enable row level security;

-- Your Playlists and the sidebar list a user's playlists, the most recently changed first.
create index playlists_owner_id_updated_at_idx on public.playlists (owner_id, updated_at desc);

revoke all on public.playlists from anon, authenticated;

grant select on public.playlists to anon, authenticated;

-- The owner comes from the session (the column default), never from the request.
grant insert (name, description, is_public), update (name, description, is_public), delete on public.playlists to authenticated;

create policy "Visitors read public playlists" on public.playlists
  for select to anon using (is_public and owner_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read public playlists and their own" on public.playlists
  for select to authenticated
  using ((is_public and owner_id <> all ((select private.banned_accounts())::uuid[])) or owner_id = (select auth.uid()));

create policy "Users make their own playlists" on public.playlists
  for insert to authenticated
  with check (owner_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users change their own playlists" on public.playlists
  for update to authenticated
  using (owner_id = (select auth.uid()))
  with check (owner_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users delete their own playlists" on public.playlists
  for delete to authenticated using (owner_id = (select auth.uid()) and (select private.is_active_user()));

-- At most 200 playlists a user (spec-free: enough for any listener, and a bound on every list of them).
create trigger playlists_limit
  before insert on public.playlists
  for each row execute function private.limit_per_owner('owner_id', '200', 'a user has at most 200 playlists');

create or replace function private.touch_playlist()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

revoke execute on function private.touch_playlist() from public;

create trigger playlists_touch
  before update on public.playlists
  for each row execute function private.touch_playlist();

-- The tracks of a playlist, in the owner's order. A track may be in a playlist once; a deleted track
-- leaves every playlist with it.
create table public.playlist_tracks (
  playlist_id uuid not null references public.playlists (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  -- Set by the database: a new track goes last; move_playlist_track() reorders.
  position integer not null default 0,
  added_at timestamptz not null default now(),
  primary key (playlist_id, track_id),
  -- Places are distinct and within the playlist's size, whoever writes them (checked at the end of each
  -- statement, so move_playlist_track() can renumber in one update).
  constraint playlist_tracks_position_range check (position between 1 and 500),
  constraint playlist_tracks_position_unique unique (playlist_id, position) deferrable initially immediate
);

alter table public.playlist_tracks enable row level security;

-- A playlist's tracks are read in order (the unique constraint's index); a deleted track's rows are
-- found by its id.
create index playlist_tracks_track_id_idx on public.playlist_tracks (track_id);

revoke all on public.playlist_tracks from anon, authenticated;

grant select on public.playlist_tracks to anon, authenticated;

grant insert (playlist_id, track_id), update (position), delete on public.playlist_tracks to authenticated;

-- Readable wherever the playlist is and the track is (the subqueries run under the playlists' and the
-- tracks' policies): an artist's unreleased track in their public playlist is no row to anyone else.
create policy "Everyone reads the tracks of playlists they can see" on public.playlist_tracks
  for select to anon, authenticated
  using (
    exists (select 1 from public.playlists p where p.id = playlist_id)
    and exists (select 1 from public.tracks t where t.id = track_id)
  );

-- Only a track the owner can see (released, or their own): that subquery runs under the tracks policies.
create policy "Owners add tracks they can see" on public.playlist_tracks
  for insert to authenticated
  with check (
    (select private.is_active_user())
    and exists (select 1 from public.playlists p where p.id = playlist_id and p.owner_id = (select auth.uid()))
    and exists (select 1 from public.tracks t where t.id = track_id)
  );

create policy "Owners reorder their playlists" on public.playlist_tracks
  for update to authenticated
  using (exists (select 1 from public.playlists p where p.id = playlist_id and p.owner_id = (select auth.uid())))
  with check (
    (select private.is_active_user())
    and exists (select 1 from public.playlists p where p.id = playlist_id and p.owner_id = (select auth.uid())));

create policy "Owners remove tracks from their playlists" on public.playlist_tracks
  for delete to authenticated
  using (
    (select private.is_active_user())
    and exists (select 1 from public.playlists p where p.id = playlist_id and p.owner_id = (select auth.uid())));

-- A new track goes last, into a playlist of at most 500 tracks. The playlist's row is locked, so
-- concurrent adds count one after the other. Places left free by removals are closed up first when the
-- last place is taken.
create or replace function private.place_playlist_track()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  track_count integer;
begin
  perform 1 from public.playlists p where p.id = new.playlist_id for update;
  select count(*), coalesce(max(pt.position), 0) + 1
    into track_count, new.position
    from public.playlist_tracks pt
    where pt.playlist_id = new.playlist_id;
  if track_count >= 500 then
    raise exception 'a playlist holds at most 500 tracks' using errcode = '54000';
  end if;
  if new.position > 500 then
    update public.playlist_tracks pt
      set position = o.place
      from (
        select r.track_id, row_number() over (order by r.position, r.added_at) as place
        from public.playlist_tracks r
        where r.playlist_id = new.playlist_id
      ) o
      where pt.playlist_id = new.playlist_id and pt.track_id = o.track_id and pt.position <> o.place;
    new.position := track_count + 1;
  end if;
  return new;
end;
$$;

revoke execute on function private.place_playlist_track() from public;

create trigger playlist_tracks_place
  before insert on public.playlist_tracks
  for each row execute function private.place_playlist_track();

-- A playlist whose tracks were added, moved or removed counts as changed (Your Playlists lists the most
-- recently changed first). Definer: the owner may not set the time themselves; once a transaction.
create or replace function private.playlist_tracks_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.playlists p
    set updated_at = now()
    where p.id = coalesce(new.playlist_id, old.playlist_id) and p.updated_at < now();
  return null;
end;
$$;

revoke execute on function private.playlist_tracks_changed() from public;

create trigger playlist_tracks_changed
  after insert or update or delete on public.playlist_tracks
  for each row execute function private.playlist_tracks_changed();

-- Moves a track of the caller's playlist to a place (1 is first), renumbering the rest in one
-- transaction. Runs as the caller: only the owner may, and only their own playlist's rows change.
create or replace function public.move_playlist_track(playlist_id uuid, track_id uuid, to_position integer)
returns void
language plpgsql
set search_path = ''
as $$
declare
  ordered uuid[];
  target integer;
begin
  if not exists (
    select 1 from public.playlists p
    where p.id = move_playlist_track.playlist_id and p.owner_id = (select auth.uid())
    for update
  ) then
    raise exception 'playlist not found' using errcode = 'P0002';
  end if;
  select array_agg(pt.track_id order by pt.position, pt.added_at)
    into ordered
    from public.playlist_tracks pt
    where pt.playlist_id = move_playlist_track.playlist_id;
  if ordered is null or not (move_playlist_track.track_id = any (ordered)) then
    raise exception 'track not in playlist' using errcode = 'P0002';
  end if;
  ordered := array_remove(ordered, move_playlist_track.track_id);
  target := greatest(1, least(to_position, cardinality(ordered) + 1));
  ordered := ordered[1:target - 1] || move_playlist_track.track_id || ordered[target:];
  update public.playlist_tracks pt
    set position = o.place
    from unnest(ordered) with ordinality as o (track_id, place)
    where pt.playlist_id = move_playlist_track.playlist_id
      and pt.track_id = o.track_id
      and pt.position is distinct from o.place;
end;
$$;

revoke execute on function public.move_playlist_track(uuid, uuid, integer) from public, anon;

grant execute on function public.move_playlist_track(uuid, uuid, integer) to authenticated;

comment on function public.move_playlist_track(uuid, uuid, integer) is
  'Runs as its caller: it reorders the caller''s own playlist, as row-level security lets them.';

-- A playlist's page in one read: the playlist, its owner's name and its tracks in order. Runs as the
-- reader: a private playlist of someone else is no row (null), and only the tracks the reader may see
-- are listed (released ones, or their own).
create or replace function public.playlist_page(playlist_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'name', p.name,
    'description', p.description,
    'is_public', p.is_public,
    'owner_id', p.owner_id,
    'owner_name', coalesce(a.artist_name, f.username, 'Unknown'),
    'owner_is_artist', a.id is not null,
    -- The first track's stored waveform, for the player that shows it before anything plays (the rest
    -- come with each track's audio: 500 waveforms would weigh more than the page).
    'first_peaks', (
      select t.peaks
      from public.playlist_tracks pt
      join public.tracks t on t.id = pt.track_id
      where pt.playlist_id = p.id
      order by pt.position, pt.added_at
      limit 1
    ),
    'tracks', coalesce((
      select jsonb_agg(
        jsonb_build_object(
          'id', t.id,
          'title', t.title,
          'artwork_url', t.artwork_url,
          'artwork_small_url', t.artwork_small_url,
          'artwork_width', t.artwork_width,
          'artwork_height', t.artwork_height,
          'duration_seconds', t.duration_seconds,
          'artist', jsonb_build_object('id', ta.id, 'artist_name', ta.artist_name)
        )
        order by pt.position, pt.added_at
      )
      from public.playlist_tracks pt
      join public.tracks t on t.id = pt.track_id
      join public.artist_profiles ta on ta.id = t.artist_id
      where pt.playlist_id = p.id
    ), '[]'::jsonb)
  )
  from public.playlists p
  left join public.artist_profiles a on a.id = p.owner_id
  left join public.fan_profiles f on f.id = p.owner_id
  where p.id = playlist_page.playlist_id
$$;

revoke execute on function public.playlist_page(uuid) from public;

grant execute on function public.playlist_page(uuid) to anon, authenticated;

comment on function public.playlist_page(uuid) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';

-- Your Playlists in one read: each of the caller's playlists with its track count and the small artwork
-- of its first four tracks (the page's mosaic), the most recently changed first.
create or replace function public.my_playlists()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', p.id,
      'name', p.name,
      'description', p.description,
      'is_public', p.is_public,
      'track_count', (
        select count(*) from public.playlist_tracks pt join public.tracks t on t.id = pt.track_id where pt.playlist_id = p.id
      ),
      'artwork', coalesce((
        select jsonb_agg(first.artwork)
        from (
          select coalesce(t.artwork_small_url, t.artwork_url) as artwork
          from public.playlist_tracks pt
          join public.tracks t on t.id = pt.track_id
          where pt.playlist_id = p.id
          order by pt.position, pt.added_at
          limit 4
        ) first
      ), '[]'::jsonb)
    )
    order by p.updated_at desc
  ), '[]'::jsonb)
  from public.playlists p
  where p.owner_id = (select auth.uid())
$$;

revoke execute on function public.my_playlists() from public, anon;

grant execute on function public.my_playlists() to authenticated;

comment on function public.my_playlists() is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';
