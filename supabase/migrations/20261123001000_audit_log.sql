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
  action text not null check (action in ('news.add', 'news.edit', 'news.activate', 'news.deactivate', 'news.delete')),
  target_id uuid,
  -- what the change was about, as it read then (a news item's title)
  summary text not null,
  reason text,
  created_at timestamptz not null default now()
);

-- Newest first on the admin dashboard; who did what.
create index audit_log_created_at_idx on public.audit_log (created_at desc);
create index audit_log_actor_id_idx on public.audit_log (actor_id);

revoke all on public.audit_log from anon, authenticated, service_role;
grant select on public.audit_log to authenticated;

alter table public.audit_log enable row level security;

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

revoke execute on function private.audit_news_change() from public;

create trigger audit_news_changes
  after insert or update or delete on public.news_items
  for each row execute function private.audit_news_change();
