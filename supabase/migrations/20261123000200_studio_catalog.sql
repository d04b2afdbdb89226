-- The artist's studio: their own catalogue (every track, released or not, with its play count, and their
-- merch) in one read, and merch on the public artist page. Both run as the caller, so row-level security
-- decides: an artist sees their own tracks and the plays of their own tracks, nobody else's.

-- Play counts per track: an index-only count of one track's plays.
create index analytics_events_plays_by_track_idx on public.analytics_events (track_id) where type = 'play';

-- The studio's track list: the caller's tracks of one kind ('all', 'album', 'single'), newest release
-- first, a page at a time, with how many there are in all; and the caller's merch (newest first).
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
          'release_date', s.release_date, 'upcoming', s.release_date > current_date,
          'plays', (select count(*) from public.analytics_events e where e.track_id = s.id and e.type = 'play'))
        order by s.release_date desc, s.album_title nulls first, s.track_number nulls last, s.created_at desc)
      from shown s), '[]'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'image_url', m.image_url) order by m.created_at desc)
      from (
        select * from public.merch m where m.artist_id = (select auth.uid()) order by m.created_at desc limit 100
      ) m), '[]')
  )
$$;

revoke execute on function public.studio_catalog(text, integer, integer) from public;
grant execute on function public.studio_catalog(text, integer, integer) to authenticated, service_role;

-- The public artist page gains the artist's merch (newest first, at most 24).
create or replace function public.artist_page(artist_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
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
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', t.id, 'title', t.title, 'type', t.type, 'album_title', t.album_title,
          'track_number', t.track_number, 'genre', t.genre, 'price', t.price, 'artwork_url', t.artwork_url,
          'release_date', t.release_date, 'upcoming', t.release_date > current_date,
          'duration_seconds', t.duration_seconds)
        order by t.release_date desc, t.album_title, t.track_number nulls last, t.created_at desc)
      from public.tracks t where t.artist_id = a.id), '[]'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'description', m.description, 'image_url', m.image_url)
        order by m.created_at desc)
      from (select * from public.merch m where m.artist_id = a.id order by m.created_at desc limit 24) m), '[]')
  )
  from public.artist_profiles a
  where a.id = artist_page.artist_id
$$;
