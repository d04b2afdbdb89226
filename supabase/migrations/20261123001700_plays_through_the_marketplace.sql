-- Plays are recorded only through the marketplace. record_play counts a visitor by the listener id and
-- the address the Worker vouches for (its cookie, and the address Cloudflare saw); called straight
-- through the API, a script could name a new listener and address on every call and have each one
-- count. So a play now counts only when the caller proves it is the marketplace's server: the secret it
-- sends in an X-Play-Reporter header (PostgREST hands the request's headers to the database), whose hash
-- the operator registers here (see the README). The anon key alone, or a user's own token, records
-- nothing.
create table private.play_reporters (
  secret_hash bytea primary key check (length(secret_hash) = 32),
  created_at timestamptz not null default now()
);

revoke all on private.play_reporters from anon, authenticated;

-- For the operator (SQL editor, or the local scripts): trusts a Worker's secret. Long and random only.
create or replace function private.trust_play_reporter(secret text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if length(coalesce(secret, '')) < 32 then
    raise exception 'a play reporter secret has at least 32 characters' using errcode = '22023';
  end if;
  insert into private.play_reporters (secret_hash) values (sha256(convert_to(secret, 'UTF8'))) on conflict do nothing;
end
$$;

revoke execute on function private.trust_play_reporter(text) from public, anon, authenticated;

-- Whether this request carries a registered reporter secret.
create or replace function private.is_play_reporter()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.play_reporters r
    where r.secret_hash = sha256(convert_to(
      coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-play-reporter', ''), 'UTF8'))
  )
$$;

revoke execute on function private.is_play_reporter() from public, anon, authenticated;

-- As before (20261123001400_honest_plays.sql), refusing any caller but the marketplace's server first:
-- 28000, so the Worker can tell its own misconfiguration from a refused listener.
create or replace function private.record_play(track_id uuid, country text, listener text, address text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  track_artist uuid;
  who text;
  from_address text := coalesce(nullif(btrim(record_play.address), ''), 'unknown');
begin
  if not private.is_play_reporter() then
    raise exception 'plays are recorded through the marketplace' using errcode = '28000';
  end if;
  if me is not null and not (select private.is_active_user()) then
    raise exception 'this account is suspended' using errcode = '42501';
  end if;

  select t.artist_id into track_artist
  from public.tracks t
  where t.id = record_play.track_id
    and (t.release_date <= current_date or t.artist_id = me);
  if track_artist is null then
    raise exception 'track not found' using errcode = 'P0002';
  end if;

  who := case
    when me is not null then 'user:' || me
    else 'visitor:' || coalesce(nullif(btrim(record_play.listener), ''), 'unknown') || '@' || from_address
  end;
  -- One listener at a time, so two reports of the same play cannot both count.
  perform pg_advisory_xact_lock(hashtext(who));

  delete from private.recent_plays where played_at < now() - interval '10 minutes';
  if exists (
    select 1 from private.recent_plays r
    where r.listener = who and r.track_id = record_play.track_id
  ) then
    return false;
  end if;
  if (select count(*) from private.recent_plays r where r.address = from_address) >= 30 then
    raise exception 'too many plays from one address' using errcode = '54000';
  end if;

  insert into private.recent_plays (listener, address, track_id) values (who, from_address, record_play.track_id);
  insert into public.analytics_events (type, track_id, artist_id, user_id, country)
  values ('play', record_play.track_id, track_artist, me, record_play.country);
  return true;
end
$$;
