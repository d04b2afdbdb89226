-- Accounts: roles, artist and fan profiles, the profile made at sign-up, and bans as the sign-in form asks
-- about them. Where payouts go is in 02_payout_settings.sql.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- A signed-in user whose account is not banned. Access tokens stay valid until they expire, so a ban
-- must also be checked here, where every write policy can see it.
create or replace function private.is_active_user()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from auth.users u
    where u.id = (select auth.uid())
      and u.deleted_at is null
      and (u.banned_until is null or u.banned_until <= now())
  )
$$;

revoke execute on function private.is_active_user() from public;

grant execute on function private.is_active_user() to anon, authenticated, service_role;

-- Accounts banned now, kept beside Auth's own record (auth.users.banned_until, which has no index) so a
-- public read can leave a banned account's things out in one indexed look-up per query. Auth writes the
-- ban; the trigger below copies it here, whoever made it (the admin dashboard, Supabase's own tools).
create table private.account_bans (
  user_id uuid primary key references auth.users (id) on delete cascade,
  banned_until timestamptz not null
);

revoke all on private.account_bans from public, anon, authenticated;

create or replace function private.copy_account_ban()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.banned_until is not null and new.banned_until > now() then
    insert into private.account_bans (user_id, banned_until)
    values (new.id, new.banned_until)
    on conflict (user_id) do update set banned_until = excluded.banned_until;
  else
    delete from private.account_bans b where b.user_id = new.id;
  end if;
  return null;
end
$$;

revoke execute on function private.copy_account_ban() from public;

create trigger on_auth_user_ban_changed
  after update of banned_until on auth.users
  for each row when (old.banned_until is distinct from new.banned_until)
  execute function private.copy_account_ban();

-- Who is banned now, for the public read policies: a banned account's pages, tracks, merchandise,
-- playlists, comments and follows leave every public list and page until the ban ends (its owner and
-- administrators still see them). Written `<> all ((select private.banned_accounts())::uuid[])`, it runs
-- once per query (the cast keeps Postgres from reading the parentheses as a subquery of arrays).
create or replace function private.banned_accounts()
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(b.user_id), '{}') from private.account_bans b where b.banned_until > now()
$$;

revoke execute on function private.banned_accounts() from public;

grant execute on function private.banned_accounts() to anon, authenticated, service_role;

-- A banned administrator's access token still says admin until it expires: is_admin() answers for the
-- account as it is now. (The case keeps visitors from looking up a user at all.)
create or replace function public.is_admin()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select case
    when (select auth.jwt()) -> 'app_metadata' ->> 'role' = 'admin' then (select private.is_active_user())
    else false
  end
$$;

revoke execute on function public.is_admin() from public;

grant execute on function public.is_admin() to anon, authenticated, service_role;

comment on function public.is_admin() is
  'Runs as its caller: it reads the caller''s own token (auth.jwt()) alone.';

create or replace function private.is_social_links(links jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(links) = 'object' then
      (select bool_and(
          key in ('twitter', 'instagram')
          and (jsonb_typeof(value) = 'null'
            or (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') <= 200
              and private.is_social_link(key, value #>> '{}'))))
        from jsonb_each(links)) is not false
    else false
  end
$$;

-- Upcoming shows: at most 50, each a real date with a venue and a city.
create or replace function private.is_tour_dates(dates jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(dates) = 'array' and jsonb_array_length(dates) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(show -> 'date') = 'string' and private.is_iso_date(show ->> 'date')
        and jsonb_typeof(show -> 'venue') = 'string' and char_length(show ->> 'venue') between 1 and 120
        and jsonb_typeof(show -> 'city') = 'string' and char_length(show ->> 'city') between 1 and 120, false)), true)
      from jsonb_array_elements(dates) as show)
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
  created_at timestamptz not null default now(),
  constraint artist_profiles_profile_image_url_owned check (private.is_owned_public_url(profile_image_url, 'artwork', id)),
  -- The picture's size in pixels, read by the Worker from the file's header when it was saved (link
  -- previews name it); null when unknown.
  profile_image_width integer,
  profile_image_height integer,
  -- When the artist's page last changed (their profile, a track of theirs; not a new follower): the
  -- sitemap's lastmod (the trigger is in 03_catalog.sql, beside the tracks that touch it too).
  updated_at timestamptz not null default now(),
  constraint artist_profiles_profile_image_size
    check (private.is_picture_size(profile_image_url, profile_image_width, profile_image_height)),
  constraint artist_profiles_artist_name_length check (char_length(artist_name) <= 100),
  constraint artist_profiles_short_description_length check (char_length(short_description) <= 200),
  constraint artist_profiles_bio_length check (char_length(bio) <= 5000),
  constraint artist_profiles_website_length check (char_length(website) <= 2000)
);

alter table public.artist_profiles enable row level security;

create index artist_profiles_created_at_idx on public.artist_profiles (created_at desc);

create index artist_profiles_genres_idx on public.artist_profiles using gin (genres);

create index artist_profiles_artist_name_trgm_idx on public.artist_profiles using gin (artist_name extensions.gin_trgm_ops);

create index artist_profiles_short_description_trgm_idx on public.artist_profiles
  using gin (short_description extensions.gin_trgm_ops);

create index artist_profiles_follower_count_idx on public.artist_profiles (follower_count desc, artist_name);

create trigger artist_profiles_files_named_by_the_marketplace
  before insert or update of profile_image_url, profile_image_width, profile_image_height on public.artist_profiles
  for each row execute function private.files_named_by_the_marketplace('profile_image_url', 'profile_image_width', 'profile_image_height');

-- Profiles and payout rows are created with the user (create_profile_for_new_user), never by the API; a user
-- edits their own. Column grants keep follower_count and ids out of reach.
revoke all on public.artist_profiles from anon, authenticated;

grant select on public.artist_profiles to anon, authenticated;

grant update (artist_name, short_description, bio, profile_image_url, profile_image_width, profile_image_height, genres,
  website, social_links, tour_dates) on public.artist_profiles to authenticated;

create policy "Visitors read artist profiles" on public.artist_profiles
  for select to anon using (id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read artist profiles" on public.artist_profiles
  for select to authenticated
  using (id <> all ((select private.banned_accounts())::uuid[]) or id = (select auth.uid()) or (select public.is_admin()));

create policy "Artists update their own profile" on public.artist_profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()) and (select private.is_active_user()));

create table public.fan_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null check (btrim(username) <> ''),
  bio text,
  profile_image_url text,
  favorite_genres text[] not null default '{}' check (private.is_genre_list(favorite_genres)),
  created_at timestamptz not null default now(),
  constraint fan_profiles_profile_image_url_owned check (private.is_owned_public_url(profile_image_url, 'artwork', id)),
  -- The picture's size in pixels, read by the Worker from the file's header when it was saved (link
  -- previews name it); null when unknown.
  profile_image_width integer,
  profile_image_height integer,
  constraint fan_profiles_profile_image_size
    check (private.is_picture_size(profile_image_url, profile_image_width, profile_image_height)),
  constraint fan_profiles_username_length check (char_length(username) <= 50),
  constraint fan_profiles_bio_length check (char_length(bio) <= 2000),
  -- Whether others see the fan's collection (and the fan among a release's supporters) and their wishlist
  -- on their page (21_collections.sql); the fan always sees both.
  show_collection boolean not null default true,
  show_wishlist boolean not null default true
);

alter table public.fan_profiles enable row level security;

create index fan_profiles_created_at_idx on public.fan_profiles (created_at desc);

create trigger fan_profiles_files_named_by_the_marketplace
  before insert or update of profile_image_url, profile_image_width, profile_image_height on public.fan_profiles
  for each row execute function private.files_named_by_the_marketplace('profile_image_url', 'profile_image_width', 'profile_image_height');

revoke all on public.fan_profiles from anon, authenticated;

grant select on public.fan_profiles to anon, authenticated;

grant update (username, bio, profile_image_url, profile_image_width, profile_image_height, favorite_genres,
  show_collection, show_wishlist)
  on public.fan_profiles to authenticated;

create policy "Visitors read fan profiles" on public.fan_profiles
  for select to anon using (id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read fan profiles" on public.fan_profiles
  for select to authenticated
  using (id <> all ((select private.banned_accounts())::uuid[]) or id = (select auth.uid()) or (select public.is_admin()));

create policy "Fans update their own profile" on public.fan_profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()) and (select private.is_active_user()));

-- Every artist or fan gets their profile in the same transaction as their auth user, from the metadata the
-- sign-up form sends, so a sign-up can never leave a user without a profile. Invalid metadata raises,
-- which rolls the whole sign-up back. Users without a role in their metadata (administrators created by
-- an operator) get no profile.
create or replace function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  metadata jsonb := coalesce(new.raw_user_meta_data, '{}');
  genres text[];
begin
  case metadata ->> 'role'
    when 'artist' then
      if nullif(btrim(metadata ->> 'artist_name'), '') is null then
        raise exception 'artist_name is required' using errcode = '23514';
      end if;
      if not coalesce(private.is_email(metadata ->> 'paypal_email'), false) then
        raise exception 'paypal_email is required and must be an email address' using errcode = '23514';
      end if;
      genres := private.text_array(metadata -> 'genres', 'genres');
      if not private.is_genre_list(genres) then
        raise exception 'genres must come from the genre list' using errcode = '23514';
      end if;

      insert into public.artist_profiles (id, artist_name, bio, genres)
      values (new.id, btrim(metadata ->> 'artist_name'), nullif(metadata ->> 'bio', ''), genres);
      insert into public.artist_payout_settings (artist_id, paypal_email)
      values (new.id, btrim(metadata ->> 'paypal_email'));

    when 'fan' then
      if nullif(btrim(metadata ->> 'username'), '') is null then
        raise exception 'username is required' using errcode = '23514';
      end if;
      genres := private.text_array(metadata -> 'favorite_genres', 'favorite_genres');
      if not private.is_genre_list(genres) then
        raise exception 'favorite_genres must come from the genre list' using errcode = '23514';
      end if;

      insert into public.fan_profiles (id, username, favorite_genres)
      values (new.id, btrim(metadata ->> 'username'), genres);
      insert into public.fan_payout_settings (fan_id) values (new.id);

    else
      null;
  end case;
  return new;
end
$$;

revoke execute on function private.create_profile_for_new_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();

-- Whether the signed-in user is an artist. Only artists write to the tracks bucket: a fan (or any account
-- without an artist profile) could otherwise store files there, in their own folder, that no track would
-- ever name.
create or replace function private.is_artist()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  -- Artist profiles are readable by every role; the profile's id is the user's.
  select exists (select 1 from public.artist_profiles p where p.id = (select auth.uid()))
$$;

revoke execute on function private.is_artist() from public;

grant execute on function private.is_artist() to anon, authenticated, service_role;

-- Who the signed-in user is, from their profile rows: artist or fan (`role`), and the name the site shows
-- them by as it is now (`name`: the artist name or the username; sign-up metadata keeps the name they
-- signed up with). Sign-up metadata says what they chose, but it is theirs to edit (a fan can set
-- user_metadata.role = 'artist' on themselves), so the app's role guards decide by this instead; metadata
-- only picks UI. An artist_profiles row makes an artist, exactly what every artist policy checks. Null
-- for an account without a profile (an administrator). Asked beside the user on every signed-in request.
create or replace function public.account()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(
    (select jsonb_build_object('role', 'artist', 'name', p.artist_name) from public.artist_profiles p where p.id = (select auth.uid())),
    (select jsonb_build_object('role', 'fan', 'name', p.username) from public.fan_profiles p where p.id = (select auth.uid())))
$$;

revoke execute on function public.account() from public, anon;

grant execute on function public.account() to authenticated, service_role;

comment on function public.account() is
  'Runs as its caller: it reads the caller''s own profile and role, as row-level security lets them.';

-- A handle ('name', '@name') or a profile address on the network's own site; the app's socialProfile()
-- reads links with the same patterns.
create or replace function private.is_social_link(network text, value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select value ~ '^@?[A-Za-z0-9_.]{1,30}$'
    or value ~* (
      '^https?://(www\.)?('
      || case network when 'twitter' then 'twitter\.com|x\.com' when 'instagram' then 'instagram\.com' end
      || ')/@?[A-Za-z0-9_.]{1,30}([/?#]\S*)?$')
$$;

-- When a banned account's ban ends, for the sign-in form's message: Auth answers a banned user's sign-in
-- with user_banned and no date. Only the Worker may ask (28000 for anyone else), and only with the
-- password Auth has just accepted: for a wrong one the answer is null, as for an account that is not
-- banned, so nobody can list who is banned and until when.
create or replace function private.suspended_until(email text, password text)
returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_marketplace_request() then
    raise exception 'a ban''s end is told through the marketplace' using errcode = '28000';
  end if;
  return (
    select u.banned_until
    from auth.users u
    where u.email = lower(btrim(suspended_until.email))
      and u.deleted_at is null
      and u.banned_until > now()
      and u.encrypted_password like '$2%'
      and u.encrypted_password = extensions.crypt(suspended_until.password, u.encrypted_password)
  );
end
$$;

revoke execute on function private.suspended_until(text, text) from public;

grant execute on function private.suspended_until(text, text) to anon, authenticated, service_role;

create or replace function public.suspended_until(email text, password text)
returns timestamptz
language sql
stable
security invoker
set search_path = ''
as $$
  select private.suspended_until(email, password)
$$;

revoke execute on function public.suspended_until(text, text) from public;

grant execute on function public.suspended_until(text, text) to anon, authenticated, service_role;
