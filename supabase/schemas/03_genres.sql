-- Genres: the figures the home, /genres and genre pages show, kept by the database as tracks and
-- profiles change (03_pages.sql's functions read them).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

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
-- the public catalog's, whoever is signed in. What the rollups hold beyond them is taken away per artist
-- and genre: tracks still scheduled, and every track of an artist banned for now (their tracks leave
-- every public read while the ban lasts; the rollups keep counting them, so a lifted ban needs nothing).
create or replace function private.genre_figures()
returns table (genre text, artist_count integer, track_count integer)
language sql
stable
security definer
set search_path = ''
as $$
  with banned as (
    select private.banned_accounts() as ids
  ),
  withheld as (
    select s.genre, s.artist_id, s.track_count
    from private.scheduled_genre_tracks() s, banned b
    where s.artist_id <> all (b.ids)
    union all
    select r.genre, r.artist_id, r.track_count
    from private.artist_genre_tracks r, banned b
    where r.artist_id = any (b.ids) and r.track_count > 0
  ),
  per_artist as (
    -- each looked up by its key: a join would read the whole rollup for a few withheld rows
    select w.genre, w.track_count,
      (select r.track_count from private.artist_genre_tracks r where r.genre = w.genre and r.artist_id = w.artist_id) as all_tracks
    from withheld w
  ),
  waiting as (
    select p.genre, sum(p.track_count)::integer as tracks,
      (count(*) filter (where p.all_tracks = p.track_count))::integer as artists
    from per_artist p
    group by p.genre
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
    and r.artist_id <> all (private.banned_accounts())
$$;

revoke execute on function private.genre_artist_tracks(text) from public;

grant execute on function private.genre_artist_tracks(text) to anon, authenticated, service_role;

create view public.genre_counts with (security_invoker = true) as
select f.genre, f.artist_count, f.track_count, f.artist_count + f.track_count as total_count
from private.genre_figures() f;

revoke all on public.genre_counts from anon, authenticated;

grant select on public.genre_counts to anon, authenticated;
