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

-- Home: active news newest first, the featured artist (whoever released most recently) with that
-- release, the 5 newest and the 5 most followed artists, and per genre its released track count with
-- its 5 latest tracks.
create or replace function public.home_page()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with released as (
    select t.id, t.title, t.artwork_url, t.type, t.album_title, t.genre, t.release_date, t.created_at,
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
          'id', g.id, 'title', g.title, 'artwork_url', g.artwork_url, 'artist_id', g.artist_id,
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
        'track', jsonb_build_object('id', l.id, 'title', l.title, 'artwork_url', l.artwork_url, 'type', l.type,
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

-- Public artist page, or null when there is no such artist. Tracks come newest release first (the
-- page groups albums); only shows still to come; the latest 5 followers.
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
    -- Tour dates are ISO dates (YYYY-MM-DD), so text order is date order.
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
      from public.tracks t where t.artist_id = a.id), '[]')
  )
  from public.artist_profiles a
  where a.id = artist_page.artist_id
$$;

-- Public fan page, or null when there is no such fan: the profile and the artists they follow,
-- most recently followed first.
create or replace function public.fan_page(fan_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'username', p.username,
    'bio', p.bio,
    'profile_image_url', p.profile_image_url,
    'favorite_genres', to_jsonb(p.favorite_genres),
    'following', coalesce((
      select jsonb_agg(private.artist_card(a) order by f.created_at desc)
      from public.followers f join public.artist_profiles a on a.id = f.artist_id
      where f.fan_id = p.id), '[]')
  )
  from public.fan_profiles p
  where p.id = fan_page.fan_id
$$;

-- Directory search (/artists, /discover): a case-insensitive partial match of `search` on the artist
-- name or short description, and on any of their genres when `include_genres`. An empty search
-- matches everyone. Callers filter, sort and limit the result like the artist_cards view.
create or replace function public.search_artists(search text default '', include_genres boolean default true)
returns setof public.artist_cards
language sql
stable
security invoker
set search_path = ''
as $$
  select c.*
  from public.artist_cards c
  cross join (select lower(btrim(coalesce(search, ''))) as term) q
  where q.term = ''
    or strpos(lower(c.artist_name), q.term) > 0
    or strpos(lower(coalesce(c.short_description, '')), q.term) > 0
    or (include_genres and exists (select 1 from unnest(c.genres) as genre where strpos(lower(genre), q.term) > 0))
$$;

revoke execute on function public.home_page(), public.artist_page(uuid), public.fan_page(uuid),
  public.search_artists(text, boolean) from public;
grant execute on function public.home_page(), public.artist_page(uuid), public.fan_page(uuid),
  public.search_artists(text, boolean) to anon, authenticated, service_role;
