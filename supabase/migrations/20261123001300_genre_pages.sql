-- A genre's page (/genres/{genre}) as the spec reads it: the artists whose profile names the genre, and
-- those who released tracks in it, each with their count of released tracks in it (0 allowed), most
-- first. The address matches whatever its case: the answer names the genre as the catalog spells it,
-- and the page moves there. Replaces the genre_artists view, which knew only artists with tracks.

drop view public.genre_artists;

-- The genre list of the sign-up and profile forms, in one place.
create or replace function private.genre_list()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['Rock', 'Pop', 'Hip Hop', 'Electronic', 'Jazz', 'Classical', 'R&B', 'Folk', 'Metal', 'Country', 'Blues', 'Indie']::text[]
$$;

create or replace function private.is_genre_list(genres text[])
returns boolean
language sql
immutable
set search_path = ''
as $$
  select genres <@ private.genre_list()
$$;

grant execute on function private.genre_list() to anon, authenticated, service_role;

-- Finding a track genre whatever its case.
create index tracks_genre_lower_idx on public.tracks (lower(genre));

-- { genre, artists: [...] }, genre null when nothing is called that. At most `max_artists`, most tracks
-- in the genre first, then most followed. Security invoker: tracks count as the reader may see them.
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
  counted as (
    select t.artist_id, count(*)::integer as track_count
    from public.tracks t, named
    where t.genre = named.genre
    group by t.artist_id
  ),
  listed as (
    select a.id, a.artist_name, a.short_description, a.profile_image_url, a.follower_count,
      coalesce(c.track_count, 0) as track_count
    from named
    join public.artist_profiles a on a.genres @> array[named.genre]
    left join counted c on c.artist_id = a.id
    union
    select a.id, a.artist_name, a.short_description, a.profile_image_url, a.follower_count, c.track_count
    from counted c
    join public.artist_profiles a on a.id = c.artist_id
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
