set check_function_bodies = off;

-- The public pages' reads: home, a genre, the artist directory, an artist's page (the album page is
-- 03_releases.sql's).

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

-- The tracks an artist page lists of each release: with 24 releases a page, at most 240 tracks, however
-- long the albums.
create or replace function private.artist_page_tracks()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 10
$$;

grant execute on function private.artist_page_tracks() to anon, authenticated, service_role;

-- Home, with each genre's count from the rollup instead of counted over every released track.
create or replace function public.home_page()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  -- The featured artist: the one with the newest release among artists whose account is at least 30 days
  -- old and who have at least 5 followers, so an account made minutes ago (or one with no listeners)
  -- cannot take the home page by publishing last.
  with latest as (
    select t.id, t.title, t.artwork_url, t.artwork_small_url, t.release_date, t.artist_id, t.release_id
    from public.tracks t
    join public.artist_profiles a on a.id = t.artist_id
    where t.release_date <= current_date
      and a.created_at <= now() - interval '30 days' and a.follower_count >= 5
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
          'artwork_small_url', l.artwork_small_url, 'release_date', l.release_date,
          'release', jsonb_build_object('id', r.id, 'kind', r.kind, 'title', r.title)),
        'is_following', exists (
          select 1 from public.followers f where f.artist_id = a.id and f.fan_id = (select auth.uid())))
      from latest l
      join public.artist_profiles a on a.id = l.artist_id
      join public.releases r on r.id = l.release_id),
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
            select t.id, t.title, t.artwork_url, t.artwork_small_url, t.artist_id, t.release_date, t.created_at
            from public.tracks t
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

comment on function public.home_page() is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';

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

comment on function public.genre_page(text, integer) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';

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

comment on function public.artist_directory(text, boolean, text[], boolean, integer, integer) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';

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
    -- What the caller may see of the artist's tracks (row-level security: released ones, a pre-order's,
    -- and the artist's own upcoming ones for the artist), each with the release it belongs to.
    select t.release_id, t.release_date, t.created_at
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
    'currency', private.artist_currency(a.id),
    'bio', a.bio,
    'website', a.website,
    'social_links', a.social_links,
    'profile_image_width', a.profile_image_width,
    'profile_image_height', a.profile_image_height,
    'is_following', exists (
      select 1 from public.followers f where f.artist_id = a.id and f.fan_id = (select auth.uid())),
    'latest_followers', coalesce((
      select jsonb_agg(jsonb_build_object('id', f.fan_id, 'display_name', f.display_name,
          'profile_image_url', f.profile_image_url, 'is_fan', f.is_fan) order by f.created_at desc, f.fan_id)
      from (
        -- (by who, where two followed at once: the same five on every read)
        select * from public.artist_followers f where f.artist_id = a.id order by f.created_at desc, f.fan_id limit 5
      ) f), '[]'),
    'upcoming_shows', coalesce((
      select jsonb_agg(show order by show ->> 'date')
      from jsonb_array_elements(a.tour_dates) as show
      where show ->> 'date' >= to_char(current_date, 'YYYY-MM-DD')), '[]'),
    'release_count', (select count(*) from releases),
    -- The page's releases, newest first, each with its first tracks in their order (at most
    -- private.artist_page_tracks(): a page of long albums stays small; the album's page has the rest) and
    -- how many it has, its date (its newest track's) and its artwork (its first track's that has one).
    'releases', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', r.id, 'kind', r.kind, 'title', r.title,
          'release_date', k.release_date, 'upcoming', k.release_date > current_date,
          'preorder', r.preorder and k.release_date > current_date,
          'artwork_url', k.artwork_url, 'track_count', k.track_count, 'tracks', k.tracks)
        order by s.n)
      from shown s
      join public.releases r on r.id = s.release_id
      cross join lateral (
        select max(t.release_date) as release_date, count(*) as track_count,
          (array_agg(coalesce(t.artwork_small_url, t.artwork_url) order by t.n)
            filter (where coalesce(t.artwork_small_url, t.artwork_url) is not null))[1] as artwork_url,
          jsonb_agg(jsonb_build_object(
              'id', t.id, 'title', t.title, 'track_number', t.track_number, 'genre', t.genre, 'price', t.price,
              'artwork_url', t.artwork_url, 'artwork_small_url', t.artwork_small_url,
              'release_date', t.release_date, 'upcoming', t.release_date > current_date,
              'duration_seconds', t.duration_seconds)
            order by t.n) filter (where t.n <= private.artist_page_tracks()) as tracks
        -- (read by the release's index, through the same row-level security as artist_tracks)
        from (
          select t.id, t.title, t.track_number, t.genre, t.price, t.artwork_url, t.artwork_small_url, t.release_date,
            t.duration_seconds, row_number() over (order by t.track_number nulls last, t.created_at, t.id) as n
          from public.tracks t
          where t.release_id = r.id
        ) t
      ) k), '[]'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'allow_pay_more', m.allow_pay_more, 'description', m.description,
          'image_url', m.image_url, 'image_small_url', m.image_small_url, 'units_left', private.merch_left(m.id))
        order by m.created_at desc)
      from (select * from public.merch m where m.artist_id = a.id order by m.created_at desc limit 24) m), '[]'),
    -- Its open membership tiers (at most 5), cheapest first, and the caller's own membership of the artist.
    'membership_tiers', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', t.id, 'name', t.name, 'description', t.description, 'monthly_price_cents', t.monthly_price_cents,
          'yearly_price_cents', t.yearly_price_cents, 'currency', t.currency, 'allow_pay_more', t.allow_pay_more,
          'grants_new_releases', t.grants_new_releases, 'grants_back_catalogue', t.grants_back_catalogue)
        order by t.monthly_price_cents, t.created_at)
      from public.membership_tiers t where t.artist_id = a.id and not t.closed), '[]'),
    'membership', private.my_membership_of(a.id)
  )
  from public.artist_profiles a
  where a.id = artist_page.artist_id
$$;

revoke execute on function public.artist_page(uuid, integer, integer) from public;

grant execute on function public.artist_page(uuid, integer, integer) to anon, authenticated, service_role;

comment on function public.artist_page(uuid, integer, integer) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';
