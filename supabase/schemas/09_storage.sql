-- Storage: the buckets and who may read, write and remove their objects.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Bucket settings are not secret; clients and the storage service may read them as any role.
create policy "Anyone reads our buckets" on storage.buckets
  for select to anon, authenticated
  using (true);

-- File storage: private track audio and public artwork, each user writing only under their own
-- folder ({user id}/...). Track audio is read by its artist, and by listeners through signed URLs
-- (issued by an Edge Function after checking the track may be played), never listed by others.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('tracks', 'tracks', false, 52428800, array[
    'audio/mpeg', 'audio/mp3', 'audio/mpeg3', 'audio/x-mpeg-3',
    'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave',
    'audio/aac', 'audio/x-aac', 'audio/aacp', 'audio/vnd.dlna.adts',
    'audio/ogg', 'audio/x-ogg', 'application/ogg',
    -- FLAC: the download files made of lossless masters (13_downloads.sql); uploads take the types above.
    'audio/flac'
  ]),
  ('artwork', 'artwork', true, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

create policy "Users read their own track audio" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Users delete their own track audio" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

-- Artwork is public through its public URL (which bypasses policies); listing is per owner, for the
-- media manager.
create policy "Users list their own artwork" on storage.objects
  for select to authenticated
  using (bucket_id = 'artwork' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users upload artwork to their folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'artwork'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Users replace their own artwork" on storage.objects
  for update to authenticated
  using (bucket_id = 'artwork' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (
    bucket_id = 'artwork'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Users delete their own artwork" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'artwork'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
  );

create policy "Artists upload track audio to their folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
    and (select private.is_artist())
  );

create policy "Artists replace their own track audio" on storage.objects
  for update to authenticated
  using (bucket_id = 'tracks' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (
    bucket_id = 'tracks'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (select private.is_active_user())
    and (select private.is_artist())
  );
