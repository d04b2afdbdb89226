-- Every stored reference to a file in our storage lies in its owner's own folder ({owner id}/...).
-- The track-audio-url function signs a track's file_url with the service role, so a track naming
-- another artist's object would hand out that artist's private (even unreleased) audio; artwork and
-- profile pictures are held to the same rule, so no row can present another user's file as its own.

-- An object path inside the owner's folder: {owner id}/name(/name...), no empty, `.` or `..` segment,
-- and none of the characters a URL or a path would read as something else.
create or replace function private.is_owned_object_path(path text, owner uuid)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select path ~ ('^' || owner::text || '(/[^/\\?#%[:space:][:cntrl:]]+)+$') and path !~ '/\.\.?(/|$)'
$$;

-- A public URL of an object in the owner's folder of a public bucket, as Storage's getPublicUrl writes
-- it (any host: the database does not know its own public address). Anything else, another site's
-- image included, is refused: pictures are uploaded, never linked.
create or replace function private.is_owned_public_url(url text, bucket text, owner uuid)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select url is null or (
    url ~ ('^https?://[^/?#\\@[:space:]]+/storage/v1/object/public/' || bucket || '/')
    and private.is_owned_object_path(regexp_replace(url, '^https?://[^/]+/storage/v1/object/public/[^/]+/', ''), owner)
  )
$$;

-- An empty file_url is the spec's "track without an audio file", like null.
alter table public.tracks
  add constraint tracks_file_url_owned
    check (file_url is null or file_url = '' or private.is_owned_object_path(file_url, artist_id)),
  add constraint tracks_artwork_url_owned check (private.is_owned_public_url(artwork_url, 'artwork', artist_id));
alter table public.merch
  add constraint merch_image_url_owned check (private.is_owned_public_url(image_url, 'artwork', artist_id));
alter table public.artist_profiles
  add constraint artist_profiles_profile_image_url_owned check (private.is_owned_public_url(profile_image_url, 'artwork', id));
alter table public.fan_profiles
  add constraint fan_profiles_profile_image_url_owned check (private.is_owned_public_url(profile_image_url, 'artwork', id));
