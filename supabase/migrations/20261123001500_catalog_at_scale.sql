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

-- A genre's newest releases (the home page's rows) and its tracks' count.
create index tracks_genre_release_date_idx on public.tracks (genre, release_date desc, created_at desc);
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
