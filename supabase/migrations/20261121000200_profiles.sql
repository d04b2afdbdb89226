-- Artist and fan profiles (public) and their payout settings (owner only).
--
-- Row-level security filters rows, not columns, and visitors read profiles with select=*; so the
-- private payout fields live in their own owner-only tables, one row per profile, instead of being
-- columns of the public rows.

create or replace function private.is_social_links(links jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(links) = 'object' then
      coalesce(jsonb_typeof(links -> 'twitter') in ('string', 'null'), true)
      and coalesce(jsonb_typeof(links -> 'instagram') in ('string', 'null'), true)
    else false
  end
$$;

-- Upcoming shows: [{ date, venue, city }].
create or replace function private.is_tour_dates(dates jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(dates) = 'array' then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(show -> 'date') = 'string'
        and jsonb_typeof(show -> 'venue') = 'string'
        and jsonb_typeof(show -> 'city') = 'string', false)), true)
      from jsonb_array_elements(dates) as show)
    else false
  end
$$;

-- { minimum_price ≥ 0, default_currency, auto_withdraw, withdraw_threshold whole ≥ 50 }
create or replace function private.is_artist_payment_settings(settings jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(settings) = 'object' then coalesce(
      private.is_json_number(settings -> 'minimum_price', 0, 1000000)
      and private.is_currency(settings ->> 'default_currency')
      and jsonb_typeof(settings -> 'auto_withdraw') = 'boolean'
      and private.is_json_number(settings -> 'withdraw_threshold', 50, 1000000000, true), false)
    else false
  end
$$;

-- { paypal_email (or null), default_currency }
create or replace function private.is_fan_payment_settings(settings jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(settings) = 'object' then coalesce(
      (jsonb_typeof(settings -> 'paypal_email') = 'null'
        or settings -> 'paypal_email' is null
        or private.is_email(settings ->> 'paypal_email'))
      and private.is_currency(settings ->> 'default_currency'), false)
    else false
  end
$$;

create table public.artist_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  artist_name text not null check (btrim(artist_name) <> ''),
  short_description text,
  bio text,
  profile_image_url text,
  genres text[] not null default '{}' check (private.is_genre_list(genres)),
  website text check (private.is_url(website)),
  social_links jsonb not null default '{}' check (private.is_social_links(social_links)),
  tour_dates jsonb not null default '[]' check (private.is_tour_dates(tour_dates)),
  -- Kept by the followers triggers; lists sort by it.
  follower_count integer not null default 0 check (follower_count >= 0),
  created_at timestamptz not null default now()
);

create index artist_profiles_created_at_idx on public.artist_profiles (created_at desc);
create index artist_profiles_follower_count_idx on public.artist_profiles (follower_count desc);
create index artist_profiles_genres_idx on public.artist_profiles using gin (genres);

create table public.fan_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null check (btrim(username) <> ''),
  bio text,
  profile_image_url text,
  favorite_genres text[] not null default '{}' check (private.is_genre_list(favorite_genres)),
  created_at timestamptz not null default now()
);

create index fan_profiles_created_at_idx on public.fan_profiles (created_at desc);

create table public.artist_payout_settings (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  paypal_email text not null check (private.is_email(paypal_email)),
  payment_settings jsonb not null
    default '{"minimum_price": 1, "default_currency": "USD", "auto_withdraw": false, "withdraw_threshold": 50}'
    check (private.is_artist_payment_settings(payment_settings)),
  created_at timestamptz not null default now()
);

create table public.fan_payout_settings (
  fan_id uuid primary key references public.fan_profiles (id) on delete cascade,
  payment_settings jsonb not null
    default '{"paypal_email": null, "default_currency": "USD"}'
    check (private.is_fan_payment_settings(payment_settings)),
  created_at timestamptz not null default now()
);

-- Profiles and payout rows are created with the user (next migration), never by the API; a user
-- edits their own. Column grants keep follower_count and ids out of reach.
revoke all on public.artist_profiles, public.fan_profiles,
  public.artist_payout_settings, public.fan_payout_settings from anon, authenticated;

grant select on public.artist_profiles, public.fan_profiles to anon, authenticated;
grant update (artist_name, short_description, bio, profile_image_url, genres, website, social_links, tour_dates)
  on public.artist_profiles to authenticated;
grant update (username, bio, profile_image_url, favorite_genres) on public.fan_profiles to authenticated;
grant select, update (paypal_email, payment_settings) on public.artist_payout_settings to authenticated;
grant select, update (payment_settings) on public.fan_payout_settings to authenticated;

alter table public.artist_profiles enable row level security;
alter table public.fan_profiles enable row level security;
alter table public.artist_payout_settings enable row level security;
alter table public.fan_payout_settings enable row level security;

create policy "Visitors read artist profiles" on public.artist_profiles
  for select to anon using (true);
create policy "Users read artist profiles" on public.artist_profiles
  for select to authenticated using (true);
create policy "Artists update their own profile" on public.artist_profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()) and (select private.is_active_user()));

create policy "Visitors read fan profiles" on public.fan_profiles
  for select to anon using (true);
create policy "Users read fan profiles" on public.fan_profiles
  for select to authenticated using (true);
create policy "Fans update their own profile" on public.fan_profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists read their own payout settings" on public.artist_payout_settings
  for select to authenticated using (artist_id = (select auth.uid()));
create policy "Artists update their own payout settings" on public.artist_payout_settings
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Fans read their own payout settings" on public.fan_payout_settings
  for select to authenticated using (fan_id = (select auth.uid()));
create policy "Fans update their own payout settings" on public.fan_payout_settings
  for update to authenticated
  using (fan_id = (select auth.uid()))
  with check (fan_id = (select auth.uid()) and (select private.is_active_user()));
