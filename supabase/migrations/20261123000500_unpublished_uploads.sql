-- Files the upload form stored ahead of publishing (resumable uploads start the moment a file is chosen)
-- that no release ever used, because the artist left the form. Removed files are taken care of by the
-- form itself; these are what is left: audio in the tracks bucket and artwork renditions (the `small/`
-- folder) that no track or merch item names, older than a day. Full-size artwork is not listed: it shows
-- in the artist's Media Manager, where they see it and may use or remove it.
-- Read by the sweep-unpublished-uploads Edge Function with the service role, which removes them through
-- Storage (objects are never deleted in SQL: the bytes live in Storage).

create or replace function public.unpublished_uploads(older_than interval default '1 day', max_count integer default 500)
returns table (bucket_id text, name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select o.bucket_id, o.name
  from storage.objects o
  cross join lateral (
    select case when split_part(o.name, '/', 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then split_part(o.name, '/', 1)::uuid end as owner_id
  ) folder
  where o.created_at < now() - unpublished_uploads.older_than
    and (
      (o.bucket_id = 'tracks' and not exists (
        select 1 from public.tracks t where t.artist_id = folder.owner_id and t.file_url = o.name))
      or (o.bucket_id = 'artwork' and split_part(o.name, '/', 2) = 'small'
        and not exists (
          select 1 from public.tracks t
          where t.artist_id = folder.owner_id and split_part(t.artwork_small_url, '/object/public/artwork/', 2) = o.name)
        and not exists (
          select 1 from public.merch m
          where m.artist_id = folder.owner_id and split_part(m.image_small_url, '/object/public/artwork/', 2) = o.name))
    )
  order by o.created_at
  limit least(greatest(unpublished_uploads.max_count, 1), 1000)
$$;

revoke execute on function public.unpublished_uploads(interval, integer) from public, anon, authenticated;
grant execute on function public.unpublished_uploads(interval, integer) to service_role;
