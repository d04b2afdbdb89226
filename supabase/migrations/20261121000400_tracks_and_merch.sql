-- Tracks and merchandise an artist publishes. A track is public once released (release_date has
-- come); its artist sees it from the moment it is created.

-- Waveform peaks for the player: an array of numbers in [0, 1].
create or replace function private.is_peaks(peaks jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(peaks) = 'array' then (
      select coalesce(bool_and(private.is_json_number(peak, 0, 1)), true)
      from jsonb_array_elements(peaks) as peak)
    else false
  end
$$;

create table public.tracks (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  type text not null default 'single' check (type in ('album', 'single', 'other')),
  album_title text check (album_title is null or type = 'album'),
  track_number integer check (track_number > 0),
  genre text not null check (btrim(genre) <> ''),
  subgenre text,
  price numeric(10, 2) not null check (price >= 0.99),
  allow_pay_more boolean not null default false,
  description text not null check (btrim(description) <> ''),
  label text,
  release_date date not null default current_date,
  -- Path of the audio object in the private tracks bucket ({artist id}/{file}).
  file_url text,
  artwork_url text,
  peaks jsonb check (peaks is null or private.is_peaks(peaks)),
  duration_seconds numeric check (duration_seconds >= 0),
  created_at timestamptz not null default now()
);

create index tracks_artist_id_release_date_idx on public.tracks (artist_id, release_date desc);
create index tracks_release_date_idx on public.tracks (release_date);
create index tracks_created_at_idx on public.tracks (created_at desc);
create index tracks_genre_idx on public.tracks (genre);

create table public.merch (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  price numeric(10, 2) not null check (price >= 0.99),
  allow_pay_more boolean not null default false,
  description text not null check (btrim(description) <> ''),
  image_url text,
  created_at timestamptz not null default now()
);

create index merch_artist_id_created_at_idx on public.merch (artist_id, created_at desc);

revoke all on public.tracks, public.merch from anon, authenticated;
grant select on public.tracks, public.merch to anon, authenticated;
grant insert, update, delete on public.tracks, public.merch to authenticated;

alter table public.tracks enable row level security;
alter table public.merch enable row level security;

create policy "Visitors read released tracks" on public.tracks
  for select to anon using (release_date <= current_date);
create policy "Users read released tracks and their own" on public.tracks
  for select to authenticated
  using (release_date <= current_date or artist_id = (select auth.uid()));
-- The artist_id foreign key to artist_profiles is what keeps fans from publishing.
create policy "Artists add their own tracks" on public.tracks
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));
create policy "Artists update their own tracks" on public.tracks
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));
create policy "Artists delete their own tracks" on public.tracks
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Visitors read merch" on public.merch
  for select to anon using (true);
create policy "Users read merch" on public.merch
  for select to authenticated using (true);
create policy "Artists add their own merch" on public.merch
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));
create policy "Artists update their own merch" on public.merch
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));
create policy "Artists delete their own merch" on public.merch
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));
