-- Genre figures at any size. Home and /genres counted every released track per genre on each visit (53
-- and 132 ms at 100× the demo data), and a genre's page read every profile tagged with it. The database
-- now keeps the counts as tracks and profiles change: per artist and genre, and per genre.
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

-- One row per genre: its tracks, and the artists with at least one track in it.
create table private.genre_tracks (
  genre text primary key,
  track_count integer not null default 0,
  artist_count integer not null default 0
);

revoke all on private.artist_genre_tracks, private.genre_tracks from anon, authenticated;

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

revoke execute on function private.count_genre_tracks(uuid[], text[], integer[]), private.roll_up_track_genres(),
  private.roll_up_profile_genres() from public, anon, authenticated;

create trigger roll_up_profile_genres
  after insert or update of genres or delete on public.artist_profiles
  for each row execute function private.roll_up_profile_genres();

-- What is already there.
insert into private.artist_genre_tracks (genre, artist_id, track_count, tagged)
select genre, artist_id, sum(track_count)::integer, bool_or(tagged)
from (
  select t.genre, t.artist_id, count(*) as track_count, false as tagged from public.tracks t group by 1, 2
  union all
  select g, a.id, 0, true from public.artist_profiles a, unnest(a.genres) as g
) rows
group by 1, 2;

insert into private.genre_tracks (genre, track_count, artist_count)
select genre, sum(track_count), count(*) from private.artist_genre_tracks where track_count > 0 group by genre;

-- The tracks dated after today, per artist and genre: what the rollups hold that is not released yet.
-- Read from the release-date index alone.
create index tracks_release_date_genre_idx on public.tracks (release_date) include (genre, artist_id);
drop index public.tracks_release_date_idx;

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

revoke execute on function private.scheduled_genre_tracks(text), private.genre_figures(), private.genre_artist_tracks(text)
  from public;
grant execute on function private.genre_figures(), private.genre_artist_tracks(text) to anon, authenticated, service_role;

-- /genres, from the rollup.
drop view public.genre_counts;
create view public.genre_counts with (security_invoker = true) as
select f.genre, f.artist_count, f.track_count, f.artist_count + f.track_count as total_count
from private.genre_figures() f;

revoke all on public.genre_counts from anon, authenticated;
grant select on public.genre_counts to anon, authenticated;

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
