set check_function_bodies = off;

-- Streaming renditions: every track plays as a compressed rendition of its master, made off the request
-- path by the Worker's rendition queue (Cloudflare Queues). The Worker holds no service-role key, so the
-- queue's reads and writes go through the functions here, which answer only a request carrying the
-- marketplace's registered secret (28000 otherwise). A track's artist asks for a failed one again
-- (retry_rendition), through the marketplace too, which queues the job once the state is back to
-- "preparing". Listeners are handed the rendition's path, never the master's (track_stream).

-- Only the marketplace writes a track's rendition columns; a new master starts them afresh, so a stream
-- made from the old file is never served for the new one (the sweep removes the file no track names).
create or replace function private.rendition_follows_the_master()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and (
    (tg_op = 'INSERT' and (new.rendition_path is not null or new.rendition_state <> 'preparing' or new.rendition_failure is not null))
    or (tg_op = 'UPDATE' and (new.rendition_path, new.rendition_state, new.rendition_failure)
      is distinct from (old.rendition_path, old.rendition_state, old.rendition_failure))
  ) then
    raise exception 'a track''s stream is made by the marketplace' using errcode = '42501';
  end if;
  if tg_op = 'UPDATE' and new.file_url is distinct from old.file_url then
    new.rendition_path := null;
    new.rendition_state := 'preparing';
    new.rendition_failure := null;
  end if;
  return new;
end
$$;

create trigger tracks_rendition_follows_the_master
  before insert or update on public.tracks
  for each row execute function private.rendition_follows_the_master();

create or replace function private.require_marketplace_request()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not private.is_marketplace_request() then
    raise exception 'streaming renditions are made by the marketplace' using errcode = '28000';
  end if;
end
$$;

-- Asked only inside the functions below, as their owner.
revoke execute on function private.require_marketplace_request() from public, anon, authenticated;

-- What a job needs: the track's master and artist, and the rendition it has now. No row for a track that
-- is gone or has no audio (the job then has nothing to do).
create or replace function private.rendition_job(track_id uuid)
returns table (artist_id uuid, master_path text, rendition_path text, rendition_state text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  return query
    select t.artist_id, t.file_url, t.rendition_path, t.rendition_state
    from public.tracks t
    where t.id = rendition_job.track_id and nullif(t.file_url, '') is not null;
end
$$;

revoke execute on function private.rendition_job(uuid) from public;

grant execute on function private.rendition_job(uuid) to anon, authenticated;

create or replace function public.rendition_job(track_id uuid)
returns table (artist_id uuid, master_path text, rendition_path text, rendition_state text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.rendition_job(rendition_job.track_id)
$$;

revoke execute on function public.rendition_job(uuid) from public;

grant execute on function public.rendition_job(uuid) to anon, authenticated;

-- A finished job names its rendition, if the track still has the master it was made from (a master
-- replaced meanwhile is rendered by its own job). False when it does not.
create or replace function private.finish_rendition(track_id uuid, master_path text, rendition_path text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.tracks t
  set rendition_path = finish_rendition.rendition_path, rendition_state = 'ready', rendition_failure = null
  where t.id = finish_rendition.track_id and t.file_url = finish_rendition.master_path;
  return found;
end
$$;

revoke execute on function private.finish_rendition(uuid, text, text) from public;

grant execute on function private.finish_rendition(uuid, text, text) to anon, authenticated;

create or replace function public.finish_rendition(track_id uuid, master_path text, rendition_path text)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.finish_rendition(finish_rendition.track_id, finish_rendition.master_path, finish_rendition.rendition_path)
$$;

revoke execute on function public.finish_rendition(uuid, text, text) from public;

grant execute on function public.finish_rendition(uuid, text, text) to anon, authenticated;

-- Why an attempt failed, kept for the artist; `final` when the queue has given up on the job (its
-- dead-letter queue, which knows the track alone: no master named means the track's current one, and no
-- reason keeps the last attempt's). That shows "Failed" with Retry; a rendition made earlier keeps
-- streaming meanwhile.
create or replace function private.fail_rendition(track_id uuid, master_path text, reason text, final boolean)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.tracks t
  set rendition_failure = coalesce(left(nullif(btrim(fail_rendition.reason), ''), 300), t.rendition_failure, 'the stream could not be made'),
    rendition_state = case when fail_rendition.final then 'failed' else t.rendition_state end
  where t.id = fail_rendition.track_id and nullif(t.file_url, '') is not null
    and (fail_rendition.master_path is null or t.file_url = fail_rendition.master_path);
  return found;
end
$$;

revoke execute on function private.fail_rendition(uuid, text, text, boolean) from public;

grant execute on function private.fail_rendition(uuid, text, text, boolean) to anon, authenticated;

create or replace function public.fail_rendition(track_id uuid, master_path text default null, reason text default null, final boolean default false)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.fail_rendition(fail_rendition.track_id, fail_rendition.master_path, fail_rendition.reason, fail_rendition.final)
$$;

revoke execute on function public.fail_rendition(uuid, text, text, boolean) from public;

grant execute on function public.fail_rendition(uuid, text, text, boolean) to anon, authenticated;

-- The artist's Retry on a failed rendition: back to "preparing" (the marketplace then queues the job).
-- False for someone else's track, or one that has not failed.
create or replace function private.retry_rendition(track_id uuid)
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
  update public.tracks t
  set rendition_state = 'preparing', rendition_failure = null
  where t.id = retry_rendition.track_id and t.artist_id = (select auth.uid()) and t.rendition_state = 'failed';
  return found;
end
$$;

revoke execute on function private.retry_rendition(uuid) from public;

grant execute on function private.retry_rendition(uuid) to authenticated;

create or replace function public.retry_rendition(track_id uuid)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.retry_rendition(retry_rendition.track_id)
$$;

revoke execute on function public.retry_rendition(uuid) from public;

grant execute on function public.retry_rendition(uuid) to authenticated;

-- Tracks with audio whose rendition is missing or of another format than `format` (the rendition file's
-- ending, such as '.128k.mp3'), in id order from after `after_id`, at most `max_count` (up to 500): the
-- one-off command pages through them (`npm run renditions -- --all`).
create or replace function private.rendition_backlog(format text, after_id uuid, max_count integer)
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
    where nullif(t.file_url, '') is not null
      and (t.rendition_path is null or right(t.rendition_path, char_length(rendition_backlog.format)) <> rendition_backlog.format)
      and (rendition_backlog.after_id is null or t.id > rendition_backlog.after_id)
    order by t.id
    limit least(greatest(rendition_backlog.max_count, 1), 500);
end
$$;

revoke execute on function private.rendition_backlog(text, uuid, integer) from public;

grant execute on function private.rendition_backlog(text, uuid, integer) to anon, authenticated;

create or replace function public.rendition_backlog(format text, after_id uuid default null, max_count integer default 100)
returns setof uuid
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.rendition_backlog(rendition_backlog.format, rendition_backlog.after_id, rendition_backlog.max_count)
$$;

revoke execute on function public.rendition_backlog(text, uuid, integer) from public;

grant execute on function public.rendition_backlog(text, uuid, integer) to anon, authenticated;

-- The file a listener may stream, as the reader (the tracks policies decide whether they see the track):
-- its rendition once made; its master only to its own artist, who hears it while the stream is prepared.
-- `path` is null for anyone else until then: `preparing` says whether it is on its way ("Preparing the
-- audio") or failed (its artist has been told, and may retry). The track-audio-url function signs this
-- path and no other.
create or replace function public.track_stream(track_id uuid)
returns table (artist_id uuid, has_audio boolean, path text, preparing boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select t.artist_id, nullif(t.file_url, '') is not null,
    case
      when nullif(t.file_url, '') is null then null
      when t.rendition_path is not null then t.rendition_path
      when t.artist_id = (select auth.uid()) then t.file_url
    end,
    t.rendition_state = 'preparing'
  from public.tracks t
  where t.id = track_stream.track_id
$$;

revoke execute on function public.track_stream(uuid) from public;

grant execute on function public.track_stream(uuid) to anon, authenticated;
