-- Feeds (Atom and RSS 2.0, written by the marketplace): an artist's releases, and the site's new
-- releases with its news, read as a visitor sees them (row-level security: released tracks, artists in
-- good standing, active news). One read a feed.
set check_function_bodies = off;

-- The newest releases first, of one artist or of everyone: each with its date, cover and the tracks a
-- visitor may play (those with a stream ready get an enclosure, with its size). With no artist, the active news too.
-- `max_count` at most 50.
create or replace function public.release_feed(artist_id uuid default null, max_count integer default 30)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with newest as (
    select r.id, r.kind, r.title, r.artist_id, r.created_at
    from public.releases r
    where release_feed.artist_id is null or r.artist_id = release_feed.artist_id
    order by r.created_at desc, r.id
    limit least(greatest(coalesce(release_feed.max_count, 30), 1), 50)
  )
  select jsonb_build_object(
    'artist', (
      select jsonb_build_object('id', a.id, 'artist_name', a.artist_name, 'short_description', a.short_description,
        'profile_image_url', a.profile_image_url)
      from public.artist_profiles a
      where a.id = release_feed.artist_id),
    'releases', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', n.id, 'kind', n.kind, 'title', n.title, 'added_at', n.created_at,
          'artist', jsonb_build_object('id', a.id, 'artist_name', a.artist_name),
          'tracks', (
            select jsonb_agg(jsonb_build_object(
                'id', t.id, 'title', t.title, 'track_number', t.track_number, 'release_date', t.release_date,
                'duration_seconds', t.duration_seconds, 'description', t.description, 'genre', t.genre,
                'artwork_url', t.artwork_url,
                -- Its stream's size once made (an enclosure's length); null while there is none to play.
                'stream_size', (select coalesce(f.size, 0) from private.stream_of(t.id) f where f.state = 'ready'))
              order by t.track_number nulls last, t.created_at, t.id)
            from public.tracks t
            where t.release_id = n.id))
        order by n.created_at desc, n.id)
      from newest n
      join public.artist_profiles a on a.id = n.artist_id
      where exists (select 1 from public.tracks t where t.release_id = n.id)), '[]'),
    'news', case when release_feed.artist_id is null then coalesce((
      select jsonb_agg(jsonb_build_object('id', i.id, 'title', i.title, 'content', i.content, 'created_at', i.created_at)
        order by i.created_at desc)
      from (select * from public.news_items where active order by created_at desc limit 10) i), '[]') end
  )
$$;

revoke execute on function public.release_feed(uuid, integer) from public;

grant execute on function public.release_feed(uuid, integer) to anon, authenticated, service_role;

comment on function public.release_feed(uuid, integer) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';

-- The site-wide feed reads the newest releases of everyone.
create index releases_created_at_idx on public.releases (created_at desc);
