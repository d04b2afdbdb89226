-- A small (about 200 px) rendition of each release's artwork and each merch image, made in the browser at
-- upload and stored beside the original (in the owner's `small/` folder of the artwork bucket). Cards and
-- lists show it; the track page shows the original. Null where there is none (a release published without
-- JavaScript, or from before): pages then show the original.

alter table public.tracks
  add column artwork_small_url text,
  add constraint tracks_artwork_small_url_owned check (private.is_owned_public_url(artwork_small_url, 'artwork', artist_id));
alter table public.merch
  add column image_small_url text,
  add constraint merch_image_small_url_owned check (private.is_owned_public_url(image_small_url, 'artwork', artist_id));

-- The pages that draw cards and lists return the small rendition beside the original.
create or replace function public.home_page()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with released as (
    select t.id, t.title, t.artwork_url, t.artwork_small_url, t.type, t.album_title, t.genre, t.release_date, t.created_at,
      t.artist_id, a.artist_name
    from public.tracks t
    join public.artist_profiles a on a.id = t.artist_id
    where t.release_date <= current_date
  ),
  latest as (
    select r.* from released r order by r.release_date desc, r.created_at desc limit 1
  ),
  per_genre as (
    select r.genre, count(*)::integer as track_count,
      (select jsonb_agg(jsonb_build_object(
          'id', g.id, 'title', g.title, 'artwork_url', g.artwork_url, 'artwork_small_url', g.artwork_small_url, 'artist_id', g.artist_id,
          'artist_name', g.artist_name, 'release_date', g.release_date) order by g.release_date desc, g.created_at desc)
        from (select * from released g where g.genre = r.genre order by g.release_date desc, g.created_at desc limit 5) g
      ) as tracks
    from released r
    group by r.genre
  )
  select jsonb_build_object(
    'news', coalesce((
      select jsonb_agg(jsonb_build_object('id', n.id, 'title', n.title, 'content', n.content, 'type', n.type)
        order by n.created_at desc)
      from public.news_items n where n.active), '[]'),
    'featured', (
      select jsonb_build_object(
        'artist', private.artist_card(a),
        'track', jsonb_build_object('id', l.id, 'title', l.title, 'artwork_url', l.artwork_url, 'artwork_small_url', l.artwork_small_url, 'type', l.type,
          'album_title', l.album_title, 'release_date', l.release_date),
        'is_following', exists (
          select 1 from public.followers f where f.artist_id = a.id and f.fan_id = (select auth.uid())))
      from latest l join public.artist_profiles a on a.id = l.artist_id),
    'new_artists', coalesce((
      select jsonb_agg(private.artist_card(a) order by a.created_at desc)
      from (select id from public.artist_profiles order by created_at desc limit 5) newest
      join public.artist_profiles a on a.id = newest.id), '[]'),
    'popular_artists', coalesce((
      select jsonb_agg(private.artist_card(a) order by a.follower_count desc, a.artist_name)
      from (select id from public.artist_profiles order by follower_count desc, artist_name limit 5) popular
      join public.artist_profiles a on a.id = popular.id), '[]'),
    'genres', coalesce((
      select jsonb_agg(jsonb_build_object('genre', g.genre, 'track_count', g.track_count, 'tracks', g.tracks)
        order by g.track_count desc, g.genre)
      from per_genre g), '[]')
  )
$$;

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
          'plays', (select count(*) from public.analytics_events e where e.track_id = s.id and e.type = 'play'))
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
          'artwork_small_url', t.artwork_small_url,
          'release_date', t.release_date, 'upcoming', t.release_date > current_date,
          'duration_seconds', t.duration_seconds)
        order by t.release_date desc, t.album_title, t.track_number nulls last, t.created_at desc)
      from public.tracks t where t.artist_id = a.id), '[]'),
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
