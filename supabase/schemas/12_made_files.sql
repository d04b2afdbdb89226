set check_function_bodies = off;

-- Files made from a track's master, off the request path, by the media Worker's queue (Cloudflare Queues):
-- its stream (what listeners hear, so the master, the file the store sells, is never what a visitor gets)
-- and its download formats (13_downloads.sql). One row per track and format, in one table with one family
-- of functions: a job's files (made_file_job), finished (finish_made_file), failed (fail_made_file), asked
-- for again (retry_made_file). The formats are the media code's registry
-- (supabase/functions/_shared/made-formats.ts; a test compares the two). The Worker holds no service-role
-- key, so the queue's reads and writes go through these functions, which answer only a request carrying
-- the marketplace's registered secret (28000 otherwise). Listeners are handed the stream's path, never the master's (track_stream).
create table private.made_files (
  track_id uuid not null references public.tracks (id) on delete cascade,
  format text not null check (format in ('stream', 'mp3', 'flac')),
  -- The master it is (being) made from: a track given a new master has its files made again.
  master_path text not null,
  -- The made file, once ready (a file made earlier keeps serving while it is made again).
  path text,
  state text not null default 'preparing' check (state in ('preparing', 'ready', 'failed')),
  -- Why the last attempt failed: its artist's to read ("Failed: <reason>"), nobody else's.
  failure text check (char_length(failure) <= 300),
  requested_at timestamptz not null default now(),
  -- Who caused the last request (a download asked for, an artist's Retry, a publish): each account causes
  -- at most `private.hourly_bound('media jobs')` jobs an hour (made_file_requested).
  requested_by uuid,
  -- The made file's size and CRC-32, computed once as it is stored, so an album's zip names them before
  -- each file's bytes (a zip costs no checksum, and every unzip tool reads it).
  size bigint check (size between 0 and 4294967295),
  crc32 bigint check (crc32 between 0 and 4294967295),
  -- What the job learned of the master, read whole to make the file: its size and CRC-32, which the zip
  -- of masters as uploaded names.
  master_size bigint check (master_size between 0 and 4294967295),
  master_crc32 bigint check (master_crc32 between 0 and 4294967295),
  primary key (track_id, format),
  constraint made_files_ready check (state <> 'ready' or path is not null)
);

-- Storage's policy for buyers and the sweep of unnamed files look a made file up by its path.
create index made_files_path_idx on private.made_files (path);

-- An account's jobs of the last hour, counted for its cap.
create index made_files_requested_by_idx on private.made_files (requested_by, requested_at) where requested_by is not null;

revoke all on table private.made_files from public, anon, authenticated;

grant select on table private.made_files to service_role;

-- A track's stream follows its master: a track given audio (or new audio) has its stream made afresh, so a
-- stream made from the old file is never served for the new one; its download files are made again when
-- next asked for. The files no track names any more are the sweep's (unpublished_uploads).
create or replace function private.made_files_follow_the_master()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.file_url is not distinct from old.file_url then
    return null;
  end if;
  delete from private.made_files f where f.track_id = new.id and f.master_path is distinct from new.file_url;
  if nullif(new.file_url, '') is not null then
    insert into private.made_files (track_id, format, master_path, requested_by)
    values (new.id, 'stream', new.file_url, (select auth.uid()))
    on conflict on constraint made_files_pkey do nothing;
  end if;
  return null;
end
$$;

revoke execute on function private.made_files_follow_the_master() from public, anon, authenticated;

create trigger tracks_made_files_follow_the_master
  after insert or update of file_url on public.tracks
  for each row execute function private.made_files_follow_the_master();

-- What a job needs: the track's master and artist, the file it has now (and whether its size and checksum
-- and the master's are known), what a download's tags say (its release's title for a single's too, its
-- number of the release's tracks, its genre), and an MP3's bitrate (download_mp3_kbps). No row for a
-- track that is gone or has no audio, or a format nobody asked for (the job has nothing to do).
create or replace function private.made_file_job(track_id uuid, format text)
returns table (
  artist_id uuid, master_path text, path text, state text, measured boolean, kbps integer, title text,
  artist_name text, album_title text, track_number integer, track_count integer, genre text, year integer,
  artwork_url text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  return query
    select t.artist_id, t.file_url, f.path, f.state, f.crc32 is not null and f.master_crc32 is not null,
      case when made_file_job.format = 'mp3' then t.mp3_kbps end,
      t.title, a.artist_name, r.title,
      case when r.kind = 'album' then t.track_number else 1 end,
      (select count(*)::integer from public.tracks s where s.release_id = r.id),
      t.genre, extract(year from t.release_date)::integer, t.artwork_url
    from private.made_files f
    join public.tracks t on t.id = f.track_id
    join public.releases r on r.id = t.release_id
    join public.artist_profiles a on a.id = t.artist_id
    where f.track_id = made_file_job.track_id and f.format = made_file_job.format
      and nullif(t.file_url, '') is not null;
end
$$;

revoke execute on function private.made_file_job(uuid, text) from public;

grant execute on function private.made_file_job(uuid, text) to anon, authenticated;

create or replace function public.made_file_job(track_id uuid, format text)
returns table (
  artist_id uuid, master_path text, path text, state text, measured boolean, kbps integer, title text,
  artist_name text, album_title text, track_number integer, track_count integer, genre text, year integer,
  artwork_url text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.made_file_job(made_file_job.track_id, made_file_job.format)
$$;

revoke execute on function public.made_file_job(uuid, text) from public;

grant execute on function public.made_file_job(uuid, text) to anon, authenticated;

-- A made file, stored: ready, if the track still has the master it was made from (a master replaced
-- meanwhile has its own job) and the file is in the artist's own folder, with its size and CRC-32 and what
-- the job learned of the master: its size and CRC-32; for a stream, its length, which becomes the track's
-- (what the bytes hold, not what an upload claimed), and with its sample rate the MP3 it warrants
-- (download_mp3_kbps). False when not.
create or replace function private.finish_made_file(
  track_id uuid, format text, master_path text, path text, size bigint, crc32 bigint,
  master_size bigint, master_crc32 bigint, master_sample_rate integer, seconds numeric
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update private.made_files f
  set path = finish_made_file.path, state = 'ready', failure = null, size = finish_made_file.size,
    crc32 = finish_made_file.crc32, master_size = finish_made_file.master_size,
    master_crc32 = finish_made_file.master_crc32
  from public.tracks t
  where f.track_id = finish_made_file.track_id and f.format = finish_made_file.format
    and t.id = f.track_id and t.file_url = finish_made_file.master_path and f.master_path = finish_made_file.master_path
    and private.is_owned_object_path(finish_made_file.path, t.artist_id);
  if not found then
    return false;
  end if;
  if finish_made_file.format = 'stream' and finish_made_file.seconds >= 0 then
    update public.tracks t
    set duration_seconds = round(finish_made_file.seconds, 2),
      mp3_kbps = private.download_mp3_kbps(private.is_lossless_master(t.file_url), finish_made_file.master_size,
        finish_made_file.seconds, finish_made_file.master_sample_rate)
    where t.id = finish_made_file.track_id;
  end if;
  return true;
end
$$;

revoke execute on function private.finish_made_file(uuid, text, text, text, bigint, bigint, bigint, bigint, integer, numeric) from public;

grant execute on function private.finish_made_file(uuid, text, text, text, bigint, bigint, bigint, bigint, integer, numeric) to anon, authenticated;

create or replace function public.finish_made_file(
  track_id uuid, format text, master_path text, path text, size bigint, crc32 bigint,
  master_size bigint, master_crc32 bigint, master_sample_rate integer, seconds numeric default null
)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.finish_made_file(finish_made_file.track_id, finish_made_file.format, finish_made_file.master_path,
    finish_made_file.path, finish_made_file.size, finish_made_file.crc32, finish_made_file.master_size,
    finish_made_file.master_crc32, finish_made_file.master_sample_rate, finish_made_file.seconds)
$$;

revoke execute on function public.finish_made_file(uuid, text, text, text, bigint, bigint, bigint, bigint, integer, numeric) from public;

grant execute on function public.finish_made_file(uuid, text, text, text, bigint, bigint, bigint, bigint, integer, numeric) to anon, authenticated;

-- 54000 when the caller has caused more jobs in the last hour than the cap: called after a request marked
-- its files, so the transaction (and the marking) is undone.
create or replace function private.limit_media_jobs()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select count(*) from private.made_files f
      where f.requested_by = (select auth.uid()) and f.requested_at > now() - interval '1 hour') > private.hourly_bound('media jobs') then
    raise exception 'too many files asked to be made in an hour' using errcode = '54000';
  end if;
end
$$;

revoke execute on function private.limit_media_jobs() from public, anon, authenticated;

-- Why an attempt failed, kept for the artist; `final` when the queue has given up on the job (its
-- dead-letter queue, which knows the track and format alone: no master named means the current one, and no
-- reason keeps the last attempt's). A file being prepared then shows "Failed" (the stream with Retry; a
-- fan's download says it could not be made, and a request an hour later asks again); a file made earlier
-- keeps serving meanwhile.
create or replace function private.fail_made_file(track_id uuid, format text, master_path text, reason text, final boolean)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update private.made_files f
  set failure = coalesce(left(nullif(btrim(fail_made_file.reason), ''), 300), f.failure, 'the file could not be made'),
    state = case when fail_made_file.final and f.state = 'preparing' then 'failed' else f.state end
  where f.track_id = fail_made_file.track_id and f.format = fail_made_file.format
    and (fail_made_file.master_path is null or f.master_path = fail_made_file.master_path);
  return found;
end
$$;

revoke execute on function private.fail_made_file(uuid, text, text, text, boolean) from public;

grant execute on function private.fail_made_file(uuid, text, text, text, boolean) to anon, authenticated;

create or replace function public.fail_made_file(
  track_id uuid, format text, master_path text default null, reason text default null, final boolean default false
)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.fail_made_file(fail_made_file.track_id, fail_made_file.format, fail_made_file.master_path,
    fail_made_file.reason, fail_made_file.final)
$$;

revoke execute on function public.fail_made_file(uuid, text, text, text, boolean) from public;

grant execute on function public.fail_made_file(uuid, text, text, text, boolean) to anon, authenticated;

-- The artist's Retry on a failed file of their track: back to "preparing" (the marketplace then queues the
-- job). False for someone else's track, or a file that has not failed.
create or replace function private.retry_made_file(track_id uuid, format text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  if not (select private.is_active_user()) then
    raise exception 'this account is suspended' using errcode = '42501';
  end if;
  update private.made_files f
  set state = 'preparing', failure = null, requested_at = now(), requested_by = (select auth.uid())
  from public.tracks t
  where f.track_id = retry_made_file.track_id and f.format = retry_made_file.format and f.state = 'failed'
    and t.id = f.track_id and t.artist_id = (select auth.uid());
  if not found then
    return false;
  end if;
  perform private.limit_media_jobs();
  return true;
end
$$;

revoke execute on function private.retry_made_file(uuid, text) from public;

grant execute on function private.retry_made_file(uuid, text) to authenticated;

create or replace function public.retry_made_file(track_id uuid, format text default 'stream')
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.retry_made_file(retry_made_file.track_id, retry_made_file.format)
$$;

revoke execute on function public.retry_made_file(uuid, text) from public;

grant execute on function public.retry_made_file(uuid, text) to authenticated;

-- Tracks with audio whose stream is missing, of another encoding than `ending` (the stream file's
-- ending, such as '.128k.mp3') or made before its master's size and checksum were kept, in id order
-- from after `after_id`, at most `max_count` (up to 500): the one-off command pages through them
-- (`npm run renditions -- --all`).
create or replace function private.stream_backlog(ending text, after_id uuid, max_count integer)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  return query
    select t.id
    from public.tracks t
    left join private.made_files f on f.track_id = t.id and f.format = 'stream'
    where nullif(t.file_url, '') is not null
      and (f.path is null or right(f.path, char_length(stream_backlog.ending)) <> stream_backlog.ending
        or f.master_crc32 is null)
      and (stream_backlog.after_id is null or t.id > stream_backlog.after_id)
    order by t.id
    limit least(greatest(stream_backlog.max_count, 1), 500);
end
$$;

revoke execute on function private.stream_backlog(text, uuid, integer) from public;

grant execute on function private.stream_backlog(text, uuid, integer) to anon, authenticated;

create or replace function public.stream_backlog(ending text, after_id uuid default null, max_count integer default 100)
returns setof uuid
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.stream_backlog(stream_backlog.ending, stream_backlog.after_id, stream_backlog.max_count)
$$;

revoke execute on function public.stream_backlog(text, uuid, integer) from public;

grant execute on function public.stream_backlog(text, uuid, integer) to anon, authenticated;

-- A track's stream as the pages that list it need it: its state, its file and its size, and (to its
-- artist alone) why it failed and the master itself. No row for a track without audio. The callers decide
-- who sees the track.
create or replace function private.stream_of(track_id uuid)
returns table (state text, path text, size bigint, failure text, own_master text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.state, f.path, f.size,
    case when t.artist_id = (select auth.uid()) then f.failure end,
    case when t.artist_id = (select auth.uid()) then t.file_url end
  from private.made_files f
  join public.tracks t on t.id = f.track_id
  where f.track_id = stream_of.track_id and f.format = 'stream'
$$;

revoke execute on function private.stream_of(uuid) from public;

grant execute on function private.stream_of(uuid) to anon, authenticated, service_role;

-- The file a listener may stream, as the reader (the tracks policies decide whether they see the track):
-- its stream once made; its master only to its own artist, who hears it while the stream is prepared.
-- `path` is null for anyone else until then: `preparing` says whether it is on its way ("Preparing the
-- audio") or failed (its artist has been told, and may retry). `state` and `failure` are the studio's
-- (failure to the artist alone). The track-audio-url function signs this path and no other.
create or replace function public.track_stream(track_id uuid)
returns table (artist_id uuid, has_audio boolean, path text, preparing boolean, state text, failure text)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.artist_id, t.master_format is not null,
    case when t.master_format is not null then coalesce(s.path, s.own_master) end,
    coalesce(s.state = 'preparing', false),
    s.state,
    s.failure
  from public.tracks t
  left join lateral private.stream_of(t.id) s on true
  where t.id = track_stream.track_id
    -- A pre-order's tracks are listed before their day, but only its instant ones play (its artist hears all).
    and (t.release_date <= current_date or t.instant or t.artist_id = (select auth.uid()))
$$;

revoke execute on function public.track_stream(uuid) from public;

grant execute on function public.track_stream(uuid) to anon, authenticated;

comment on function public.track_stream(uuid) is
  'Runs as its caller: it reads the track as its caller (the tracks'' policies decide whether they see it).';
