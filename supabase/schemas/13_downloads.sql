-- Downloads: taking home what one owns (download codes, which give a release away, are 15_download_codes.sql).
-- A track's artist downloads it any time; anyone else a track they bought (or got with a code). Nobody
-- else, however they ask: these functions answer who may take which file, and Storage signs a master
-- only for its artist or, when the marketplace asks, for someone who bought its track (the policy below).
-- Every download a buyer takes is the spec's `download` event, so the artist's Downloads figure, trends
-- and analytics count real downloads (the daily roll-ups of 07_analytics.sql count them as they come).
set check_function_bodies = off;

-- Whether the caller may download the track: its artist, or its buyer, with an account in good standing;
-- or, through the marketplace, the holder of a guest order's receipt link (private.guest_order(), 16) that
-- bought it. A buyer keeps what they bought when its artist is banned or the track is withdrawn from sale
-- later; a refund takes the purchase, and the download, away. Nobody but its artist takes a track before
-- its release date, whatever they own of it (a code's release, an album bought before a track's day).
create or replace function private.may_download(track_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.tracks t
    where t.id = may_download.track_id
      and (((select auth.uid()) is not null and (select private.is_active_user())
          and (t.artist_id = (select auth.uid())
            or (t.release_date <= current_date
              and exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = (select auth.uid())))))
        or (t.release_date <= current_date and private.guest_bought(t.id))))
$$;

revoke execute on function private.may_download(uuid) from public;

grant execute on function private.may_download(uuid) to anon, authenticated;

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

-- The master a stored path is, or a download file made of it, for a buyer of its track: what lets Storage
-- sign it when the marketplace asks for them (for a minute, read by the marketplace itself, which hands the
-- bytes on). A buyer asking Storage directly is refused, so no link outlives a removed purchase or a ban.
create or replace function private.bought_master(path text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.tracks t
    join public.purchases p on p.track_id = t.id
    where ((p.user_id = (select auth.uid()) and (select private.is_active_user())) or private.guest_bought(t.id))
      and t.release_date <= current_date
      and (t.file_url = bought_master.path
        or t.id in (select f.track_id from private.made_files f where f.path = bought_master.path)))
$$;

revoke execute on function private.bought_master(text) from public;

grant execute on function private.bought_master(text) to anon, authenticated;

-- Storage's policies run per object: a track by its master's path.
create index tracks_file_url_idx on public.tracks (file_url);

create policy "The marketplace reads buyers' masters for them" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'tracks' and (select private.is_marketplace_request()) and private.bought_master(name));

-- The formats a download is made in, beside the master as uploaded: MP3 at 320 kbps for every master, and
-- FLAC where the master is lossless (a WAV; FLAC of a lossy file would only be bigger). The media Worker's
-- queue makes each the first time someone asks for it (or ahead of it), tagged with the track's title,
-- artist, album, number, year and cover, and stores it beside the stream; made once, kept, and made again
-- only for a new master. They are made files of the track (12_made_files.sql), asked for here.

-- Whether a master is lossless, so a FLAC of it is too: a WAV (the only lossless format uploads take).
create or replace function private.is_lossless_master(path text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(is_lossless_master.path ~* '\.wav$', false)
$$;

grant execute on function private.is_lossless_master(text) to anon, authenticated, service_role;

-- The bitrate of the MP3 a master warrants, in kbps: no higher than the master's own (its size over its
-- length, rounded up to a bitrate MP3 has) for a lossy master, 320 for a lossless one, and within what
-- MP3 allows at the master's sample rate, which the MP3 keeps (MPEG-1 at 32-48 kHz: 32-320; MPEG-2 at
-- 16-24 kHz: 8-160; MPEG-2.5 at 8-12 kHz: 8-64). Null while a lossy master's size or length is unknown
-- (its stream not made yet). A stream's job keeps it on the track (tracks.mp3_kbps): the media Worker
-- encodes at it and pages offer it ("MP3 128 kbps").
create or replace function private.download_mp3_kbps(lossless boolean, master_size bigint, seconds numeric, sample_rate integer)
returns integer
language sql
immutable
set search_path = ''
as $$
  with bounds as (
    select case when download_mp3_kbps.sample_rate is null or download_mp3_kbps.sample_rate >= 32000 then 32 else 8 end as least_kbps,
      case
        when download_mp3_kbps.sample_rate is null or download_mp3_kbps.sample_rate >= 32000 then 320
        when download_mp3_kbps.sample_rate >= 16000 then 160
        else 64
      end as most_kbps
  )
  select case
    when download_mp3_kbps.lossless then b.most_kbps
    when download_mp3_kbps.master_size is null or not download_mp3_kbps.seconds > 0 then null
    else coalesce((
      select min(k) from unnest('{8,16,24,32,40,48,64,80,96,112,128,160,192,224,256,320}'::integer[]) as k
      where k >= b.least_kbps and k <= b.most_kbps and k * 1000 * download_mp3_kbps.seconds >= download_mp3_kbps.master_size * 8), b.most_kbps)
  end
  from bounds b
$$;

grant execute on function private.download_mp3_kbps(boolean, bigint, numeric, integer) to anon, authenticated, service_role;

-- The files to take for `track_ids` (in that order), in `format` ('original': the master as uploaded;
-- 'mp3'; 'flac', which gives the master itself where it is not lossless): those the caller may download and
-- that have audio, each with what names it, its state, and its size and CRC-32 where known (an album's zip
-- names them before each file). Only the marketplace asks (28000 otherwise): it queues what is asked for
-- here and signs the files, so nobody marks a file "preparing" that is not then queued. A made file not
-- made yet is asked for here (`requested`: the marketplace then queues it), again when the master changed,
-- when a request went unanswered for ten minutes, or an hour after it failed; an account that has caused
-- more jobs in the last hour than private.hourly_bound('media jobs') is refused (54000). `take` records a
-- buyer's download once a day per track (a file taken again, or a request retried, is not another
-- download), and only when every file is ready: a page asking whether the files are ready takes nothing.
-- The artist's own are not downloads. The country comes from the marketplace, which reads it off the request.
-- A download file of a track's master asked for, by `requester`: made once per master and format (its
-- row written for the media queue to make), asked again only when the master changed, a request seems lost
-- (10 minutes preparing) or it failed an hour ago. True when the media queue must be told.
create or replace function private.request_made_file(track_id uuid, format text, master_path text, requester uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.made_files as f (track_id, format, master_path, requested_by)
  values (request_made_file.track_id, request_made_file.format, request_made_file.master_path, request_made_file.requester)
  on conflict on constraint made_files_pkey do update
    set master_path = excluded.master_path, path = null, state = 'preparing', failure = null,
      requested_at = now(), requested_by = excluded.requested_by, size = null, crc32 = null
    where f.master_path <> excluded.master_path
      or (f.state = 'preparing' and f.requested_at < now() - interval '10 minutes')
      or (f.state = 'failed' and f.requested_at < now() - interval '1 hour');
  return found;
end
$$;

revoke execute on function private.request_made_file(uuid, text, text, uuid) from public, anon, authenticated;

create or replace function private.take_downloads(track_ids uuid[], country text, format text, take boolean)
returns table (
  track uuid, path text, title text, artist_name text, album_title text, track_number integer,
  state text, requested boolean, size bigint, crc32 bigint
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  wanted record;
  made private.made_files;
  all_ready boolean := true;
  any_requested boolean := false;
  bought uuid[] := '{}';
begin
  perform private.require_marketplace_request();
  if take_downloads.format is null or take_downloads.format not in ('original', 'mp3', 'flac') then
    raise exception 'a download is original, mp3 or flac' using errcode = '22023';
  end if;
  for wanted in
    select t.id, t.artist_id, t.file_url, t.title, a.artist_name,
      case when r.kind = 'album' then r.title end as album_title, t.track_number
    from unnest(take_downloads.track_ids) with ordinality as asked (id, n)
    join public.tracks t on t.id = asked.id
    join public.releases r on r.id = t.release_id
    join public.artist_profiles a on a.id = t.artist_id
    where nullif(t.file_url, '') is not null and private.may_download(t.id)
    order by asked.n
  loop
    track := wanted.id;
    title := wanted.title;
    artist_name := wanted.artist_name;
    album_title := wanted.album_title;
    track_number := wanted.track_number;
    requested := false;
    if take_downloads.format = 'original'
      or (take_downloads.format = 'flac' and not private.is_lossless_master(wanted.file_url)) then
      path := wanted.file_url;
      state := 'ready';
      -- The master's size and checksum, as the jobs that read it found them (none, null: select into
      -- sets its targets to null when no row is found).
      select f.master_size, f.master_crc32 into size, crc32
      from private.made_files f
      where f.track_id = wanted.id and f.master_path = wanted.file_url and f.master_crc32 is not null
      limit 1;
    else
      requested := private.request_made_file(wanted.id, take_downloads.format, wanted.file_url, me);
      -- Only a file asked to be made counts toward the hour's jobs: one made already is served past the bound.
      any_requested := any_requested or requested;
      select * into made from private.made_files f where f.track_id = wanted.id and f.format = take_downloads.format;
      path := made.path;
      state := made.state;
      size := made.size;
      crc32 := made.crc32;
    end if;
    all_ready := all_ready and state = 'ready';
    if wanted.artist_id <> me then
      bought := bought || wanted.id;
    end if;
    return next;
  end loop;
  if any_requested then
    perform private.limit_media_jobs();
  end if;
  if take_downloads.take and all_ready then
    for wanted in select b.id, t.artist_id from unnest(bought) as b (id) join public.tracks t on t.id = b.id loop
      perform pg_advisory_xact_lock(hashtext('download:' || me::text || ':' || wanted.id::text));
      if not exists (
        select 1 from public.analytics_events e
        where e.user_id = me and e.type = 'download' and e.track_id = wanted.id and e.created_at > now() - interval '1 day'
      ) then
        insert into public.analytics_events (type, track_id, artist_id, user_id, country)
        values ('download', wanted.id, wanted.artist_id, me, take_downloads.country);
      end if;
    end loop;
  end if;
end
$$;

revoke execute on function private.take_downloads(uuid[], text, text, boolean) from public;

grant execute on function private.take_downloads(uuid[], text, text, boolean) to anon, authenticated;

-- One track's file to take in `format`, or 42501 when it is not the caller's to download (P0002: it has no
-- audio). `take` false asks only whether it is ready (and has it made).
create or replace function public.download_track(track_id uuid, country text default null, format text default 'original', take boolean default true)
returns table (
  track uuid, path text, title text, artist_name text, album_title text, track_number integer,
  state text, requested boolean, size bigint, crc32 bigint
)
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if not private.may_download(download_track.track_id) then
    raise exception 'only its artist and those who bought it download a track' using errcode = '42501';
  end if;
  return query select * from private.take_downloads(
    array[download_track.track_id], download_track.country, download_track.format, download_track.take);
  if not found then
    raise exception 'this track has no audio file' using errcode = 'P0002';
  end if;
end
$$;

revoke execute on function public.download_track(uuid, text, text, boolean) from public;

grant execute on function public.download_track(uuid, text, text, boolean) to anon, authenticated, service_role;

comment on function public.download_track(uuid, text, text, boolean) is
  'Runs as its caller: it takes what the caller may download (private.may_download decides) under row-level security.';

-- The album zips an account (or a guest order's receipt link) took, for their hourly bound: a zip passes the album's bytes through the
-- marketplace, so an account takes at most private.hourly_bound('album zips') of them an hour. Kept a day.
create table private.album_zips (
  user_id uuid not null,
  taken_at timestamptz not null default now()
);

create index album_zips_user_id_taken_at_idx on private.album_zips (user_id, taken_at);

revoke all on table private.album_zips from public, anon, authenticated;

-- An album zip taken by the caller, or 54000 past the hour's bound.
create or replace function private.take_album_zip()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  -- A guest's receipt link counts by its order.
  me := coalesce(me, private.guest_order());
  perform pg_advisory_xact_lock(hashtext('album-zips:' || me::text));
  delete from private.album_zips z where z.user_id = me and z.taken_at < now() - interval '1 day';
  if (select count(*) from private.album_zips z where z.user_id = me and z.taken_at > now() - interval '1 hour')
      >= private.hourly_bound('album zips') then
    raise exception 'too many album downloads in an hour' using errcode = '54000';
  end if;
  insert into private.album_zips (user_id) values (me);
end
$$;

revoke execute on function private.take_album_zip() from public;

grant execute on function private.take_album_zip() to anon, authenticated;

-- A release's files to take in `format`, in its order: those of its tracks the caller may download (an
-- album bought track by track gives what was bought). 42501 when there are none. Taking them (`take`, the
-- zip) counts toward the account's hourly bound of album zips.
create or replace function public.download_release(release_id uuid, country text default null, format text default 'original', take boolean default true)
returns table (
  track uuid, path text, title text, artist_name text, album_title text, track_number integer,
  state text, requested boolean, size bigint, crc32 bigint
)
language plpgsql
security invoker
set search_path = ''
as $$
declare
  ready boolean := true;
  any_file boolean := false;
  file record;
begin
  for file in select * from private.take_downloads(
    array(
      select t.id from public.tracks t
      where t.release_id = download_release.release_id
      order by t.track_number nulls last, t.created_at, t.id),
    download_release.country, download_release.format, download_release.take)
  loop
    any_file := true;
    ready := ready and file.state = 'ready';
    track := file.track;
    path := file.path;
    title := file.title;
    artist_name := file.artist_name;
    album_title := file.album_title;
    track_number := file.track_number;
    state := file.state;
    requested := file.requested;
    size := file.size;
    crc32 := file.crc32;
    return next;
  end loop;
  if not any_file then
    raise exception 'nothing of this release is the caller''s to download' using errcode = '42501';
  end if;
  if download_release.take and ready then
    perform private.take_album_zip();
  end if;
end
$$;

revoke execute on function public.download_release(uuid, text, text, boolean) from public;

grant execute on function public.download_release(uuid, text, text, boolean) to anon, authenticated, service_role;

comment on function public.download_release(uuid, text, text, boolean) is
  'Runs as its caller: it takes what the caller may download (private.may_download decides) under row-level security.';

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
    select p.id as purchase_id, p.amount, p.download_code_id, p.created_at as bought_at, t.*
    from public.purchases p
    join public.tracks t on t.id = p.track_id
    where p.user_id = (select auth.uid())
  ),
  releases as (
    select b.release_id, max(b.bought_at) as last_bought, sum(b.amount) as amount,
      bool_and(b.download_code_id is not null) as from_code,
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
          'currency', private.artist_currency(a.id),
          'from_code', o.from_code,
          -- Kept off the fan's page, its "supported by" and "also bought" (21_collections.sql).
          'hidden', exists (select 1 from public.hidden_purchases h where h.fan_id = (select auth.uid()) and h.release_id = r.id),
          'artist', jsonb_build_object('id', a.id, 'artist_name', a.artist_name),
          'tracks', (
            select jsonb_agg(jsonb_build_object(
                'id', b.id, 'title', b.title, 'track_number', b.track_number, 'duration_seconds', b.duration_seconds,
                'artwork_url', b.artwork_url, 'artwork_small_url', b.artwork_small_url,
                'has_audio', b.master_format is not null, 'master_format', b.master_format, 'mp3_kbps', b.mp3_kbps)
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

comment on function public.owned_releases(integer, integer) is
  'Runs as its caller: it reads the caller''s own purchases, as row-level security lets them.';

-- An album's tracks whose day has come since it was bought, given to its buyers (the album was priced by
-- its tracks out then, and fulfil_order gave those alone): once per line and track, as part of the hourly
-- announcement job. Only tracks out in the last 7 days are looked at (the job runs hourly; a week covers
-- any outage), so each run reads the albums of the week's release days, not every album ever sold.
-- Answers how many purchases it made.
create or replace function private.give_released_album_tracks()
returns integer
language sql
security definer
set search_path = ''
as $$
  with given as (
    insert into public.purchases (amount, track_id, user_id, order_line_id, country)
    select 0, t.id, coalesce(g.claimed_by, o.buyer_id), l.id, o.country
    from public.tracks t
    join public.order_lines l on l.item_id = t.release_id and l.kind = 'album'
    join public.orders o on o.id = l.order_id
    -- A gift's tracks go to its claimant; an unclaimed gift's come with the claim (claim_gift, 17).
    left join public.gifts g on g.order_line_id = l.id
    where t.release_date > current_date - 7 and t.release_date <= current_date
      and o.state = 'paid' and l.refunded_at is null and (g.id is null or g.claimed_by is not null)
      and not exists (select 1 from public.purchases p where p.order_line_id = l.id and p.track_id = t.id)
      and (coalesce(g.claimed_by, o.buyer_id) is null or not exists (
        select 1 from public.purchases p where p.track_id = t.id and p.user_id = coalesce(g.claimed_by, o.buyer_id)))
    returning 1)
  select count(*)::integer from given
$$;

revoke execute on function private.give_released_album_tracks() from public, anon, authenticated;
