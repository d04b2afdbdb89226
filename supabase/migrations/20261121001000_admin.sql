-- Administration: the user list and bans. Both need to read or change auth.users, so the work is done
-- by security definer functions in private that first check the caller is an administrator; the
-- public functions the API exposes are thin invoker wrappers.

-- Why and by whom each user was banned (auth.users keeps only banned_until).
create table private.user_bans (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  reason text,
  banned_until timestamptz not null,
  banned_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

create index user_bans_user_id_created_at_idx on private.user_bans (user_id, created_at desc);
create index user_bans_banned_by_idx on private.user_bans (banned_by);

revoke all on private.user_bans from anon, authenticated;

create or replace function private.require_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  -- The service role acts for an Edge Function that has already checked its caller.
  if (select auth.role()) = 'service_role' then
    return;
  end if;
  if not coalesce((select public.is_admin()), false) or not (select private.is_active_user()) then
    raise exception 'only administrators may do this' using errcode = '42501';
  end if;
end
$$;

create or replace function private.get_all_users()
returns table (
  id uuid,
  email text,
  created_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  banned_until timestamptz,
  ban_reason text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select u.id, u.email::text, u.created_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data,
      u.banned_until, latest_ban.reason
    from auth.users u
    left join lateral (
      select b.reason from private.user_bans b where b.user_id = u.id order by b.created_at desc limit 1
    ) latest_ban on true
    where u.deleted_at is null
    order by u.created_at desc;
end
$$;

-- Bans for `duration` (an interval such as '30 days', at least one day) and ends every session of the
-- user, so no refresh token works any more; access tokens already issued are refused by the write
-- policies through private.is_active_user().
create or replace function private.ban_user(user_id uuid, reason text, duration text)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  ban_length interval;
  until timestamptz;
begin
  perform private.require_admin();

  begin
    ban_length := duration::interval;
  exception when others then
    raise exception 'duration must be an interval such as ''30 days''' using errcode = '22023';
  end;
  if ban_length < interval '1 day' then
    raise exception 'a ban lasts at least 1 day' using errcode = '22023';
  end if;
  if ban_user.user_id = (select auth.uid()) then
    raise exception 'administrators cannot ban themselves' using errcode = '22023';
  end if;

  until := now() + ban_length;
  update auth.users u set banned_until = until, updated_at = now() where u.id = ban_user.user_id;
  if not found then
    raise exception 'user not found' using errcode = 'P0002';
  end if;

  insert into private.user_bans (user_id, reason, banned_until, banned_by)
  values (ban_user.user_id, ban_user.reason, until, (select auth.uid()));

  update auth.refresh_tokens rt set revoked = true, updated_at = now()
  where rt.user_id = ban_user.user_id::text and not rt.revoked;
  delete from auth.sessions s where s.user_id = ban_user.user_id;

  return until;
end
$$;

revoke execute on function private.require_admin(), private.get_all_users(), private.ban_user(uuid, text, text)
  from public;
grant execute on function private.require_admin(), private.get_all_users(), private.ban_user(uuid, text, text)
  to authenticated, service_role;

create or replace function public.get_all_users()
returns table (
  id uuid,
  email text,
  created_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  banned_until timestamptz,
  ban_reason text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.get_all_users()
$$;

create or replace function public.ban_user(user_id uuid, reason text, duration text default '30 days')
returns timestamptz
language sql
security invoker
set search_path = ''
as $$
  select private.ban_user(ban_user.user_id, ban_user.reason, ban_user.duration)
$$;

-- anon too: the platform's default privileges grant it every new function in public.
revoke execute on function public.get_all_users(), public.ban_user(uuid, text, text) from public, anon;
grant execute on function public.get_all_users(), public.ban_user(uuid, text, text) to authenticated, service_role;
