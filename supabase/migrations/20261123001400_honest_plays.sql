-- Honest play counts. A play counts once per listener per track per 10 minutes: the signed-in user, or a
-- visitor by the anonymous id the Worker keeps in a cookie together with their address. An address
-- gets at most 30 counted plays per 10 minutes (a burst beyond that is refused: no person listens that
-- fast), and a banned user's plays are refused. The player reports a play only after 5 seconds of real
-- playback (or at the end of a shorter track), so skipping through a catalogue counts nothing.
--
-- Who played what in the last 10 minutes is kept apart from the analytics events, and only that long:
-- the addresses it needs never reach the analytics an artist reads.
create table private.recent_plays (
  listener text not null,
  address text not null,
  track_id uuid not null references public.tracks (id) on delete cascade,
  played_at timestamptz not null default now()
);

create index recent_plays_listener_idx on private.recent_plays (listener, track_id, played_at desc);
create index recent_plays_address_idx on private.recent_plays (address, played_at desc);
create index recent_plays_played_at_idx on private.recent_plays (played_at);
create index recent_plays_track_id_idx on private.recent_plays (track_id);

revoke all on private.recent_plays from anon, authenticated;

drop function public.record_play(uuid, text);
drop function private.record_play(uuid, text);

-- True when the play counted, false when this listener's play of the track already counted in the last
-- 10 minutes. Raises P0002 for a track the listener may not play, 42501 for a banned user and 54000 for
-- a burst from one address.
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

revoke execute on function private.record_play(uuid, text, text, text) from public;
grant execute on function private.record_play(uuid, text, text, text) to anon, authenticated, service_role;

create or replace function public.record_play(track_id uuid, country text default null, listener text default null, address text default null)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.record_play(record_play.track_id, record_play.country, record_play.listener, record_play.address)
$$;

revoke execute on function public.record_play(uuid, text, text, text) from public;
grant execute on function public.record_play(uuid, text, text, text) to anon, authenticated, service_role;
