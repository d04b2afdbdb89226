-- Administration: news, the audit log, and the record of what administrators did to users.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- News items for the home page banner, managed by administrators.

create table public.news_items (
  id uuid primary key default gen_random_uuid(),
  title text not null check (btrim(title) <> ''),
  content text not null check (btrim(content) <> ''),
  type text not null default 'info' check (type in ('info', 'update', 'announcement')),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  constraint news_items_title_length check (char_length(title) <= 200),
  constraint news_items_content_length check (char_length(content) <= 2000)
);

alter table public.news_items enable row level security;

create index news_items_active_created_at_idx on public.news_items (active, created_at desc);

create index news_items_created_at_idx on public.news_items (created_at desc);

revoke all on public.news_items from anon, authenticated;

grant select on public.news_items to anon, authenticated;

grant insert (title, content, type, active), update (title, content, type, active), delete
  on public.news_items to authenticated;

create policy "Visitors read active news" on public.news_items
  for select to anon using (active);

create policy "Users read active news, admins all news" on public.news_items
  for select to authenticated using (active or (select public.is_admin()));

create policy "Admins add news" on public.news_items
  for insert to authenticated
  with check ((select public.is_admin()) and (select private.is_active_user()));

create policy "Admins update news" on public.news_items
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()) and (select private.is_active_user()));

create policy "Admins delete news" on public.news_items
  for delete to authenticated
  using ((select public.is_admin()) and (select private.is_active_user()));

-- Administration's audit log (beyond the spec): what administrators change, by whom, to what, when and
-- why. News changes are written by the database itself (a trigger on news_items), so no change escapes
-- it. Administrators read it; nobody writes, edits or deletes it through the API: there are no grants
-- for that, not even to the service role (the trigger's function owns the writes).

create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  -- null when the change came from outside the API (an operator's SQL, the seed)
  actor_id uuid references auth.users (id) on delete set null,
  -- who that was, as their token named them then (the log outlives accounts and address changes)
  actor_email text,
  action text not null,
  target_id uuid,
  -- what the change was about, as it read then (a news item's title)
  summary text not null,
  reason text,
  created_at timestamptz not null default now(),
  constraint audit_log_action_check check (action in (
    'news.add', 'news.edit', 'news.activate', 'news.deactivate', 'news.delete',
    'user.ban', 'user.unban', 'user.password_reset', 'mail.send_again', 'payment_event.apply_again'
  ))
);

alter table public.audit_log enable row level security;

-- Newest first on the admin dashboard; who did what.
create index audit_log_created_at_idx on public.audit_log (created_at desc);

create index audit_log_actor_id_idx on public.audit_log (actor_id);

revoke all on public.audit_log from anon, authenticated, service_role;

grant select on public.audit_log to authenticated;

create policy "Administrators read the audit log" on public.audit_log
  for select to authenticated using ((select public.is_admin()));

-- Definer: it writes the log the callers may not write.
create or replace function private.audit_news_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.audit_log (actor_id, actor_email, action, target_id, summary)
  values (
    (select auth.uid()),
    (select auth.jwt()) ->> 'email',
    case
      when tg_op = 'INSERT' then 'news.add'
      when tg_op = 'DELETE' then 'news.delete'
      when new.active is distinct from old.active and (new.title, new.content, new.type) = (old.title, old.content, old.type)
        then case when new.active then 'news.activate' else 'news.deactivate' end
      else 'news.edit'
    end,
    coalesce(new.id, old.id),
    coalesce(new.title, old.title));
  return null;
end
$$;

create trigger audit_news_changes
  after insert or update or delete on public.news_items
  for each row execute function private.audit_news_change();

revoke execute on function private.audit_news_change() from public;

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
