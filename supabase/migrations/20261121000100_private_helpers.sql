-- Helpers the policies and constraints of later migrations share.
--
-- `private` is never exposed through the API (PostgREST serves `public` only), so security definer
-- functions live here. The API roles need usage on it because policies call these helpers as the
-- requesting role.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

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

-- Admin comes from app_metadata, which only the service role can change; user_metadata is editable by
-- its user and never grants anything.
create or replace function public.is_admin()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce((select auth.jwt()) -> 'app_metadata' ->> 'role' = 'admin', false)
$$;

revoke execute on function public.is_admin() from public;
grant execute on function public.is_admin() to anon, authenticated, service_role;

-- Validation used by check constraints (immutable, so usable there). They stay executable by
-- everyone because a constraint runs its functions as the writing role.

-- The genre list the sign-up and fan profile forms offer.
create or replace function private.is_genre_list(genres text[])
returns boolean
language sql
immutable
set search_path = ''
as $$
  select genres <@ array[
    'Rock', 'Pop', 'Hip Hop', 'Electronic', 'Jazz', 'Classical',
    'R&B', 'Folk', 'Metal', 'Country', 'Blues', 'Indie'
  ]::text[]
$$;

create or replace function private.is_currency(code text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select code in ('USD', 'EUR', 'GBP')
$$;

-- Deliberately loose (one @, a dot in the domain): the forms use an email input and nothing more.
create or replace function private.is_email(address text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select address ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
$$;

create or replace function private.is_url(address text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select address ~* '^https?://[^\s/$.?#][^\s]*$'
$$;

-- A JSON number inside [low, high] (whole when asked); anything else, a missing key included, is false.
create or replace function private.is_json_number(value jsonb, low numeric, high numeric, whole boolean default false)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(value) = 'number'
      then value::numeric between low and high and (not whole or value::numeric = trunc(value::numeric))
    else false
  end
$$;
