-- News items for the home page banner, managed by administrators.

create table public.news_items (
  id uuid primary key default gen_random_uuid(),
  title text not null check (btrim(title) <> ''),
  content text not null check (btrim(content) <> ''),
  type text not null default 'info' check (type in ('info', 'update', 'announcement')),
  active boolean not null default true,
  created_at timestamptz not null default now()
);

create index news_items_active_created_at_idx on public.news_items (active, created_at desc);
create index news_items_created_at_idx on public.news_items (created_at desc);

revoke all on public.news_items from anon, authenticated;
grant select on public.news_items to anon, authenticated;
grant insert (title, content, type, active), update (title, content, type, active), delete
  on public.news_items to authenticated;

alter table public.news_items enable row level security;

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
