-- Downloads: taking home what one owns. A track's artist downloads it any time; anyone else a track they
-- bought. Nobody else, however they ask: these functions answer who may take which file, and Storage signs
-- a master (for a minute) only for its artist or for someone who bought its track (the policy below).
-- Every download a buyer takes is the spec's `download` event, so the artist's Downloads figure, trends
-- and analytics count real downloads (the daily roll-ups of 07_analytics.sql count them as they come).
set check_function_bodies = off;

-- Whether the caller may download the track: its artist, or its buyer, with an account in good standing.
-- A buyer keeps what they bought when its artist is banned or the track is withdrawn from sale later.
create or replace function private.may_download(track_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and (select private.is_active_user()) and exists (
    select 1 from public.tracks t
    where t.id = may_download.track_id
      and (t.artist_id = (select auth.uid())
        or exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = (select auth.uid()))))
$$;

revoke execute on function private.may_download(uuid) from public;

grant execute on function private.may_download(uuid) to authenticated;

-- Whether the caller bought every one of these tracks (an album's page: "You own this"). Visitors may ask
-- (the answer is no), without reading anyone's purchases.
create or replace function private.bought_all(track_ids uuid[])
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and cardinality(bought_all.track_ids) > 0 and not exists (
    select 1 from unnest(bought_all.track_ids) as wanted (id)
    where not exists (select 1 from public.purchases p where p.track_id = wanted.id and p.user_id = (select auth.uid())))
$$;

revoke execute on function private.bought_all(uuid[]) from public;

grant execute on function private.bought_all(uuid[]) to anon, authenticated;

-- The master a stored path is, for a buyer of its track: what lets Storage sign it for them.
create or replace function private.bought_master(path text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select private.is_active_user()) and exists (
    select 1 from public.tracks t
    join public.purchases p on p.track_id = t.id
    where t.file_url = bought_master.path and p.user_id = (select auth.uid()))
$$;

revoke execute on function private.bought_master(text) from public;

grant execute on function private.bought_master(text) to authenticated;

-- Storage's policies run per object: a track by its master's path.
create index tracks_file_url_idx on public.tracks (file_url);

create policy "Buyers read the masters of the tracks they bought" on storage.objects
  for select to authenticated
  using (bucket_id = 'tracks' and private.bought_master(name));

-- The files to take for `track_ids` (in that order): those the caller may download and that have audio,
-- each with what names it (its title, artist, album and number). A buyer's download is recorded once a
-- day per track (a file taken again, or a request retried, is not another download); the artist's own
-- are not downloads. The country comes only from the marketplace, which reads it off the request.
create or replace function private.take_downloads(track_ids uuid[], country text)
returns table (track uuid, path text, title text, artist_name text, album_title text, track_number integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  taken record;
begin
  for taken in
    select t.id, t.artist_id, t.file_url, t.title, a.artist_name, t.album_title, t.track_number
    from unnest(take_downloads.track_ids) with ordinality as wanted (id, n)
    join public.tracks t on t.id = wanted.id
    join public.artist_profiles a on a.id = t.artist_id
    where nullif(t.file_url, '') is not null and private.may_download(t.id)
    order by wanted.n
  loop
    if taken.artist_id <> me then
      perform pg_advisory_xact_lock(hashtext('download:' || me::text || ':' || taken.id::text));
      if not exists (
        select 1 from public.analytics_events e
        where e.user_id = me and e.type = 'download' and e.track_id = taken.id and e.created_at > now() - interval '1 day'
      ) then
        insert into public.analytics_events (type, track_id, artist_id, user_id, country)
        values ('download', taken.id, taken.artist_id, me,
          case when private.is_marketplace_request() then take_downloads.country end);
      end if;
    end if;
    track := taken.id;
    path := taken.file_url;
    title := taken.title;
    artist_name := taken.artist_name;
    album_title := taken.album_title;
    track_number := taken.track_number;
    return next;
  end loop;
end
$$;

revoke execute on function private.take_downloads(uuid[], text) from public;

grant execute on function private.take_downloads(uuid[], text) to authenticated;

-- One track's file to take, or 42501 when it is not the caller's to download (P0002: it has no audio).
create or replace function public.download_track(track_id uuid, country text default null)
returns table (track uuid, path text, title text, artist_name text, album_title text, track_number integer)
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if not private.may_download(download_track.track_id) then
    raise exception 'only its artist and those who bought it download a track' using errcode = '42501';
  end if;
  return query select * from private.take_downloads(array[download_track.track_id], download_track.country);
  if not found then
    raise exception 'this track has no audio file' using errcode = 'P0002';
  end if;
end
$$;

revoke execute on function public.download_track(uuid, text) from public;

grant execute on function public.download_track(uuid, text) to authenticated, service_role;

-- A release's files to take, in its order: those of its tracks the caller may download (an album bought
-- track by track gives what was bought). 42501 when there are none.
create or replace function public.download_release(release_id uuid, country text default null)
returns table (track uuid, path text, title text, artist_name text, album_title text, track_number integer)
language plpgsql
security invoker
set search_path = ''
as $$
begin
  return query select * from private.take_downloads(
    array(
      select t.id from public.tracks t
      where t.release_id = download_release.release_id
      order by t.track_number nulls last, t.created_at, t.id),
    download_release.country);
  if not found then
    raise exception 'nothing of this release is the caller''s to download' using errcode = '42501';
  end if;
end
$$;

revoke execute on function public.download_release(uuid, text) from public;

grant execute on function public.download_release(uuid, text) to authenticated, service_role;

-- What the caller owns, by release, for Purchased: a page of releases (newest purchase first), each with
-- the tracks of it they bought, in its order, and when and for how much. Row-level security: one's own
-- purchases, and the tracks they may see.
create or replace function public.owned_releases(page integer default 1, page_size integer default 20)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with bought as (
    select p.id as purchase_id, p.amount, p.created_at as bought_at, t.*
    from public.purchases p
    join public.tracks t on t.id = p.track_id
    where p.user_id = (select auth.uid())
  ),
  releases as (
    select b.release_id, max(b.bought_at) as last_bought, sum(b.amount) as amount,
      row_number() over (order by max(b.bought_at) desc, b.release_id) as n
    from bought b
    group by b.release_id
  ),
  paging as (
    select least(greatest(coalesce(owned_releases.page_size, 20), 1), 100) as size,
      least(greatest(coalesce(owned_releases.page, 1), 1), 10000) as page
  )
  select jsonb_build_object(
    'release_count', (select count(*) from releases),
    'releases', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', r.id, 'kind', r.kind, 'title', r.title, 'bought_at', o.last_bought, 'amount', o.amount,
          'artist', jsonb_build_object('id', a.id, 'artist_name', a.artist_name),
          'tracks', (
            select jsonb_agg(jsonb_build_object(
                'id', b.id, 'title', b.title, 'track_number', b.track_number, 'duration_seconds', b.duration_seconds,
                'artwork_url', b.artwork_url, 'artwork_small_url', b.artwork_small_url,
                'has_audio', nullif(b.file_url, '') is not null)
              order by b.track_number nulls last, b.created_at, b.id)
            from (select distinct on (b.id) * from bought b where b.release_id = r.id) b))
        order by o.n)
      from releases o
      cross join paging g
      join public.releases r on r.id = o.release_id
      join public.artist_profiles a on a.id = r.artist_id
      where o.n > (g.page - 1) * g.size and o.n <= g.page * g.size), '[]')
  )
$$;

revoke execute on function public.owned_releases(integer, integer) from public;

grant execute on function public.owned_releases(integer, integer) to authenticated, service_role;
