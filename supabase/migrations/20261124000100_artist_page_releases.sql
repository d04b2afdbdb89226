-- The public artist page lists the artist's releases a page at a time, newest first, instead of every
-- track they ever published in one answer (a prolific artist's page grew without bound). A release is
-- what the page draws as one card: an album (its tracks share a title) or a single track. A page never
-- splits an album; `release_count` says how many releases there are in all.
drop function public.artist_page(uuid);

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
    select t.*,
      case when t.type = 'album' and btrim(coalesce(t.album_title, '')) <> '' then 'album:' || btrim(t.album_title)
        else t.id::text end as release_key
    from public.tracks t
    where t.artist_id = artist_page.artist_id
  ),
  releases as (
    -- Newest first: an album is as new as its newest track.
    select r.release_key,
      row_number() over (order by max(r.release_date) desc, min(r.album_title), max(r.created_at) desc, r.release_key) as n
    from artist_tracks r
    group by r.release_key
  ),
  shown as (
    select r.release_key, r.n
    from releases r, paging p
    where r.n > (p.page - 1) * p.size and r.n <= p.page * p.size
  )
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
    'release_count', (select count(*) from releases),
    -- The page's releases in order, each release's tracks together, so the page groups them as listed.
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', t.id, 'title', t.title, 'type', t.type, 'album_title', t.album_title,
          'track_number', t.track_number, 'genre', t.genre, 'price', t.price, 'artwork_url', t.artwork_url,
          'artwork_small_url', t.artwork_small_url,
          'release_date', t.release_date, 'upcoming', t.release_date > current_date,
          'duration_seconds', t.duration_seconds)
        order by s.n, t.release_date desc, t.track_number nulls last, t.created_at desc)
      from artist_tracks t
      join shown s using (release_key)), '[]'),
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
