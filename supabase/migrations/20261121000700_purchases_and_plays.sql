-- Sales and listening events. Neither is written by users directly: purchases come from the payment
-- side (service role; there is no checkout yet) and plays through record_play(), which fills in the
-- artist and the listener itself. Both are private to the buyer or listener and the track's artist.

create table public.purchases (
  id uuid primary key default gen_random_uuid(),
  amount numeric(10, 2) not null check (amount >= 0),
  -- A sold track stays: restrict keeps the sale record from disappearing with it.
  track_id uuid not null references public.tracks (id) on delete restrict,
  -- Filled from the track by a trigger; lets the artist's policy and live feed filter on one column.
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

create index purchases_track_id_idx on public.purchases (track_id);
create index purchases_artist_id_created_at_idx on public.purchases (artist_id, created_at desc);
create index purchases_user_id_created_at_idx on public.purchases (user_id, created_at desc);

create table public.analytics_events (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in ('play', 'download')),
  track_id uuid not null references public.tracks (id) on delete cascade,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  -- null for a visitor's play
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

create index analytics_events_track_id_created_at_idx on public.analytics_events (track_id, created_at desc);
create index analytics_events_artist_id_type_created_at_idx on public.analytics_events (artist_id, type, created_at desc);
create index analytics_events_user_id_type_created_at_idx on public.analytics_events (user_id, type, created_at desc);

-- Definer: the artist a purchase (or a comment) belongs to is set by the database from the track,
-- never by the writer. Shared by every table with track_id and artist_id columns.
create or replace function private.fill_artist_from_track()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select t.artist_id into new.artist_id from public.tracks t where t.id = new.track_id;
  return new;
end
$$;

revoke execute on function private.fill_artist_from_track() from public;

create trigger fill_purchase_artist
  before insert or update of track_id on public.purchases
  for each row execute function private.fill_artist_from_track();

-- Records a play of a track the caller can see (released, or their own), as the caller.
create or replace function private.record_play(track_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  listener uuid := (select auth.uid());
  track_artist uuid;
begin
  select t.artist_id into track_artist
  from public.tracks t
  where t.id = record_play.track_id
    and (t.release_date <= current_date or t.artist_id = listener);

  if track_artist is null then
    raise exception 'track not found' using errcode = 'P0002';
  end if;

  insert into public.analytics_events (type, track_id, artist_id, user_id)
  values ('play', record_play.track_id, track_artist, listener);
end
$$;

revoke execute on function private.record_play(uuid) from public;
grant execute on function private.record_play(uuid) to anon, authenticated, service_role;

create or replace function public.record_play(track_id uuid)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.record_play(record_play.track_id)
$$;

revoke execute on function public.record_play(uuid) from public;
grant execute on function public.record_play(uuid) to anon, authenticated, service_role;

revoke all on public.purchases, public.analytics_events from anon, authenticated;
grant select on public.purchases, public.analytics_events to authenticated;

alter table public.purchases enable row level security;
alter table public.analytics_events enable row level security;

create policy "Buyers and the track's artist read purchases" on public.purchases
  for select to authenticated
  using (user_id = (select auth.uid()) or artist_id = (select auth.uid()));

create policy "Listeners and the track's artist read events" on public.analytics_events
  for select to authenticated
  using (user_id = (select auth.uid()) or artist_id = (select auth.uid()));
