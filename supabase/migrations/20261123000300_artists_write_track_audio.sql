-- Only artists write to the tracks bucket: a fan (or any account without an artist profile) could
-- otherwise store files there, in their own folder, that no track would ever name.

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

drop policy "Users upload track audio to their folder" on storage.objects;
create policy "Artists upload track audio to their folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
    and (select private.is_artist())
  );

drop policy "Users replace their own track audio" on storage.objects;
create policy "Artists replace their own track audio" on storage.objects
  for update to authenticated
  using (bucket_id = 'tracks' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
    and (select private.is_artist())
  );
