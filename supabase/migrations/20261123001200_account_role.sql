-- Whether the signed-in user is an artist or a fan, from their profile rows. Sign-up metadata says what
-- they chose, but it is theirs to edit (a fan can set user_metadata.role = 'artist' on themselves), so
-- the app's role guards decide by this instead; metadata only picks UI. An artist_profiles row makes an
-- artist, exactly what every artist policy checks.
create or replace function public.account_role()
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select case
    when exists (select 1 from public.artist_profiles p where p.id = (select auth.uid())) then 'artist'
    when exists (select 1 from public.fan_profiles p where p.id = (select auth.uid())) then 'fan'
  end
$$;

revoke execute on function public.account_role() from public, anon;
grant execute on function public.account_role() to authenticated, service_role;
