-- The public pages at 100× the demo data (`npm run bench:backend -- --catalog`): indexes for what they
-- search and sort by, so none reads a large table whole.

-- Header and directory search: a case-insensitive partial match on names and short descriptions, served
-- by trigram indexes (ILIKE '%…%' cannot use a b-tree).
create extension if not exists pg_trgm with schema extensions;
create index artist_profiles_artist_name_trgm_idx on public.artist_profiles using gin (artist_name extensions.gin_trgm_ops);
create index artist_profiles_short_description_trgm_idx on public.artist_profiles
  using gin (short_description extensions.gin_trgm_ops);

-- "Most followed first, then by name": the directory's, the header search's and the home page's order.
drop index public.artist_profiles_follower_count_idx;
create index artist_profiles_follower_count_idx on public.artist_profiles (follower_count desc, artist_name);

-- A genre's newest releases (the home page's rows), its released tracks counted, and per artist (genre
-- pages), all from the index.
create index tracks_genre_release_date_idx on public.tracks (genre, release_date desc, created_at desc) include (artist_id);
drop index public.tracks_genre_idx;

-- The directory (/artists, /discover) a page at a time, with the total: the whole roster sorted in the
-- database and cut there, instead of every matching artist sent for the page to sort. Replaces
-- search_artists, whose rows the caller sorted and cut. Planned for each call (EXECUTE), so each search
-- uses the indexes that fit it: trigram for text, GIN for genres, b-tree for the order.
-- { total, artists: [card + track_count + created_at] }.
drop function public.search_artists(text, boolean);

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

-- Home, restated so no part of it reads every released track with its artist: the shared `released`
-- CTE it had was materialised whole (100,000 tracks joined to their artists at 100×). Now the featured
-- release is the newest by the release-date index, each genre's count comes from the genre index, and
-- its 5 newest tracks from the same index, joined to their artists only then.
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
    select t.genre, count(*)::integer as track_count
    from public.tracks t
    where t.release_date <= current_date
    group by t.genre
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
