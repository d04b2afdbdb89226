-- Who follows which artist. Any signed-in user may follow an artist, never themselves.
-- artist_profiles.follower_count is kept by triggers: each follow or unfollow updates the artist row,
-- whose row lock serialises concurrent changes, so the count stays exact.

create table public.followers (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  fan_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (artist_id, fan_id),
  constraint followers_not_self check (artist_id <> fan_id)
);

-- (artist_id, fan_id) is indexed by the unique constraint; this one serves "latest followers".
create index followers_artist_id_created_at_idx on public.followers (artist_id, created_at desc);
create index followers_fan_id_created_at_idx on public.followers (fan_id, created_at desc);

-- Definer: the follower may not update the artist's row themselves.
create or replace function private.count_follower()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.artist_profiles set follower_count = follower_count + 1 where id = new.artist_id;
  else
    update public.artist_profiles set follower_count = follower_count - 1 where id = old.artist_id;
  end if;
  return null;
end
$$;

revoke execute on function private.count_follower() from public;

create trigger count_follower
  after insert or delete on public.followers
  for each row execute function private.count_follower();

create or replace function public.get_follower_count(artist_id uuid)
returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce((select p.follower_count from public.artist_profiles p where p.id = get_follower_count.artist_id), 0)
$$;

grant execute on function public.get_follower_count(uuid) to anon, authenticated, service_role;

revoke all on public.followers from anon, authenticated;
grant select on public.followers to anon, authenticated;
grant insert (artist_id, fan_id), delete on public.followers to authenticated;

alter table public.followers enable row level security;

create policy "Visitors read followers" on public.followers
  for select to anon using (true);
create policy "Users read followers" on public.followers
  for select to authenticated using (true);
create policy "Users follow as themselves" on public.followers
  for insert to authenticated
  with check (fan_id = (select auth.uid()) and (select private.is_active_user()));
create policy "Users unfollow as themselves" on public.followers
  for delete to authenticated
  using (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- The follower list of an artist page: followers are auth users, so their display name comes from
-- whichever profile they have (a fan's username, or an artist's name).
create view public.artist_followers with (security_invoker = true) as
select
  f.id,
  f.artist_id,
  f.fan_id,
  f.created_at,
  coalesce(fp.username, ap.artist_name) as display_name,
  coalesce(fp.profile_image_url, ap.profile_image_url) as profile_image_url,
  fp.id is not null as is_fan
from public.followers f
left join public.fan_profiles fp on fp.id = f.fan_id
left join public.artist_profiles ap on ap.id = f.fan_id;

revoke all on public.artist_followers from anon, authenticated;
grant select on public.artist_followers to anon, authenticated;
