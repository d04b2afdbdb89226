-- User administration through Edge Functions (admin-users, ban-user). They check their caller with
-- is_admin() as that caller, then use the Auth admin API with the service role, as on hosted Supabase:
-- listing users, sending a password reset, banning with `ban_duration`. One path, not two: the SQL
-- get_all_users / ban_user written before them are dropped with their private ban table.
--
-- What stays here is what the Auth API does not do: ending a banned user's sessions in the same
-- transaction as the audit entry, and telling a suspended user until when.

drop function public.ban_user(uuid, text, text);
drop function public.get_all_users();
drop function private.ban_user(uuid, text, text);
drop function private.get_all_users();
drop function private.require_admin();
drop table private.user_bans;

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

alter table public.audit_log drop constraint audit_log_action_check;
alter table public.audit_log add constraint audit_log_action_check check (action in (
  'news.add', 'news.edit', 'news.activate', 'news.deactivate', 'news.delete',
  'user.ban', 'user.unban', 'user.password_reset'
));

-- Called by the Edge Functions (service role) after the Auth API has done its part, with the
-- administrator they checked. A ban also ends every session of the user, so no refresh token outlives
-- it even where the Auth server keeps them; their access token is refused by every write policy
-- through private.is_active_user().
create or replace function private.record_user_administration(
  actor_id uuid,
  actor_email text,
  action text,
  user_id uuid,
  user_email text,
  reason text
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if action not like 'user.%' then
    raise exception 'not a user administration action: %', action using errcode = '22023';
  end if;
  if action = 'user.ban' then
    update auth.refresh_tokens rt set revoked = true, updated_at = now()
    where rt.user_id = record_user_administration.user_id::text and not rt.revoked;
    delete from auth.sessions s where s.user_id = record_user_administration.user_id;
  end if;
  insert into public.audit_log (actor_id, actor_email, action, target_id, summary, reason)
  values (actor_id, actor_email, action, user_id, user_email, nullif(btrim(reason), ''));
end
$$;

revoke execute on function private.record_user_administration(uuid, text, text, uuid, text, text) from public;
grant execute on function private.record_user_administration(uuid, text, text, uuid, text, text) to service_role;

create or replace function public.record_user_administration(
  actor_id uuid,
  actor_email text,
  action text,
  user_id uuid,
  user_email text,
  reason text default null
)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.record_user_administration(actor_id, actor_email, action, user_id, user_email, reason)
$$;

-- anon and authenticated too: the platform's default privileges grant them every new function in public.
revoke execute on function public.record_user_administration(uuid, text, text, uuid, text, text)
  from public, anon, authenticated;
grant execute on function public.record_user_administration(uuid, text, text, uuid, text, text) to service_role;

-- The sign-in page's 'suspended until' line. The Auth server only says user_banned (after the password
-- matched), so the app asks here. It answers for banned accounts alone, with nothing else about them.
create or replace function private.suspended_until(email text)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select u.banned_until
  from auth.users u
  where u.email = lower(btrim(suspended_until.email)) and u.deleted_at is null and u.banned_until > now()
$$;

revoke execute on function private.suspended_until(text) from public;
grant execute on function private.suspended_until(text) to anon, authenticated, service_role;

create or replace function public.suspended_until(email text)
returns timestamptz
language sql
stable
security invoker
set search_path = ''
as $$
  select private.suspended_until(email)
$$;

grant execute on function public.suspended_until(text) to anon, authenticated, service_role;
