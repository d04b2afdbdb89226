-- Listening: play and download events, and the honest play count (record_play).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Plays and downloads. Not written by users directly: plays come through record_play(), which fills in
-- the artist and the listener itself. Private to the listener and the track's artist.
create table public.analytics_events (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in ('play', 'download')),
  track_id uuid not null references public.tracks (id) on delete cascade,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  -- null for a visitor's play
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The listener's country (ISO 3166-1 alpha-2, as Cloudflare reports it on the request); null
  -- when unknown (locally, or when Cloudflare cannot tell).
  country text check (country ~ '^[A-Z]{2}$'),
  -- For a play in an embedded player on another site: that site's origin (`https://blog.example`), as
  -- the embed's script tells it; null for a play on Crate itself.
  embedded_on text,
  constraint analytics_events_embedded_on_origin
    check (embedded_on ~ '^https?://[a-z0-9.-]+(:[0-9]{1,5})?$' and char_length(embedded_on) <= 255)
);

alter table public.analytics_events enable row level security;

create index analytics_events_track_id_created_at_idx on public.analytics_events (track_id, created_at desc);

create index analytics_events_artist_id_type_created_at_idx on public.analytics_events (artist_id, type, created_at desc);

create index analytics_events_user_id_type_created_at_idx on public.analytics_events (user_id, type, created_at desc);

revoke all on public.analytics_events from anon, authenticated;

grant select on public.analytics_events to authenticated;

create policy "Listeners and the track's artist read events" on public.analytics_events
  for select to authenticated
  using (user_id = (select auth.uid()) or artist_id = (select auth.uid()));

-- Honest play counts. A play counts once per listener per track per 10 minutes: the signed-in user, or a
-- visitor by the anonymous id the Worker keeps in a cookie together with their address. An account, and
-- the visitors of an address, get at most 30 counted plays per 10 minutes (a burst beyond that is
-- refused: no person listens that fast), and a banned user's plays are refused. The Worker reports a play
-- only with the ticket the track's URL came with, 5 seconds of playback after it (or a shorter track's
-- length), so skipping through a catalogue counts nothing.
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

-- Callers other than the marketplace's server are refused first, with 28000, so the Worker can tell its
-- own misconfiguration from a refused listener.
create or replace function private.record_play(track_id uuid, country text, listener text, address text, embedded_on text)
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
  if not private.is_marketplace_request() then
    raise exception 'plays are recorded through the marketplace' using errcode = '28000';
  end if;
  if me is not null and not (select private.is_active_user()) then
    raise exception 'this account is suspended' using errcode = '42501';
  end if;

  select t.artist_id into track_artist
  from public.tracks t
  where t.id = record_play.track_id
    -- (a pre-order's instant tracks play before their day: 19_preorders.sql)
    and (private.out_for_buyers(t.id) or t.artist_id = me);
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
  -- A signed-in listener is held to their account's own pace, a visitor to their address's: no crowd of
  -- visitors behind one address (locally, every client of the machine) can lock a fan out.
  if me is not null then
    if (select count(*) from private.recent_plays r where r.listener = who) >= 30 then
      raise exception 'too many plays from one account' using errcode = '54000';
    end if;
  elsif (select count(*) from private.recent_plays r where r.address = from_address) >= 30 then
    raise exception 'too many plays from one address' using errcode = '54000';
  end if;

  insert into private.recent_plays (listener, address, track_id) values (who, from_address, record_play.track_id);
  insert into public.analytics_events (type, track_id, artist_id, user_id, country, embedded_on)
  values ('play', record_play.track_id, track_artist, me, record_play.country, record_play.embedded_on);
  return true;
end
$$;

revoke execute on function private.record_play(uuid, text, text, text, text) from public;

grant execute on function private.record_play(uuid, text, text, text, text) to anon, authenticated, service_role;

create or replace function public.record_play(
  track_id uuid,
  country text default null,
  listener text default null,
  address text default null,
  embedded_on text default null
)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.record_play(record_play.track_id, record_play.country, record_play.listener, record_play.address, record_play.embedded_on)
$$;

revoke execute on function public.record_play(uuid, text, text, text, text) from public;

grant execute on function public.record_play(uuid, text, text, text, text) to anon, authenticated, service_role;
