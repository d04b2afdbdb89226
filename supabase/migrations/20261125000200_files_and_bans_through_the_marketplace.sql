-- Two answers the database now gives only to the marketplace's own Worker, which proves itself with the
-- secret it registered for plays (private.play_reporters; see 20261123001700).

-- 1. A row names a stored file only through the marketplace. Storage checks an upload's declared type,
-- never its bytes; the Worker checks the first bytes of every file (as it passes an upload on, and again
-- before a row names it). A user's own token could otherwise upload an HTML page declared `audio/mpeg`
-- straight to Storage and name it in a track. So a write through the API (as anon or authenticated) that
-- sets a file column to a new value must carry the Worker's secret; clearing one needs nothing. The
-- service role (Edge Functions) and the operator's own SQL (the seed) are not the API's users.
-- The columns are the trigger's arguments.

-- The trigger runs as the writer, who asks whether their request carries the secret: the answer tells
-- nothing else, and `private` is not served by the API.
grant execute on function private.is_play_reporter() to anon, authenticated;

create or replace function private.files_named_by_the_marketplace()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  file_column text;
  named text;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  foreach file_column in array tg_argv loop
    named := nullif(to_jsonb(new) ->> file_column, '');
    if named is not null
      and (tg_op = 'INSERT' or named is distinct from nullif(to_jsonb(old) ->> file_column, ''))
      and not private.is_play_reporter() then
      raise exception 'a stored file is named only through the marketplace, which checks its bytes first'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end
$$;

create trigger tracks_files_named_by_the_marketplace
  before insert or update of file_url, artwork_url, artwork_small_url on public.tracks
  for each row execute function private.files_named_by_the_marketplace('file_url', 'artwork_url', 'artwork_small_url');

create trigger merch_files_named_by_the_marketplace
  before insert or update of image_url, image_small_url on public.merch
  for each row execute function private.files_named_by_the_marketplace('image_url', 'image_small_url');

create trigger artist_profiles_files_named_by_the_marketplace
  before insert or update of profile_image_url on public.artist_profiles
  for each row execute function private.files_named_by_the_marketplace('profile_image_url');

create trigger fan_profiles_files_named_by_the_marketplace
  before insert or update of profile_image_url on public.fan_profiles
  for each row execute function private.files_named_by_the_marketplace('profile_image_url');

-- 2. When a ban ends. Auth says only `user_banned`, and only once the password matched; the sign-in page
-- then asks here for the date. Anyone with the anon key could ask it of any address and list who is banned
-- and until when. Now only the Worker may ask (28000 for anyone else), and only with the password Auth
-- has just accepted: for a wrong one the answer is null, as for an account that is not banned.
drop function public.suspended_until(text);
drop function private.suspended_until(text);

create or replace function private.suspended_until(email text, password text)
returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_play_reporter() then
    raise exception 'a ban''s end is told through the marketplace' using errcode = '28000';
  end if;
  return (
    select u.banned_until
    from auth.users u
    where u.email = lower(btrim(suspended_until.email))
      and u.deleted_at is null
      and u.banned_until > now()
      and u.encrypted_password like '$2%'
      and u.encrypted_password = extensions.crypt(suspended_until.password, u.encrypted_password)
  );
end
$$;

revoke execute on function private.suspended_until(text, text) from public;
grant execute on function private.suspended_until(text, text) to anon, authenticated, service_role;

create or replace function public.suspended_until(email text, password text)
returns timestamptz
language sql
stable
security invoker
set search_path = ''
as $$
  select private.suspended_until(email, password)
$$;

revoke execute on function public.suspended_until(text, text) from public;
grant execute on function public.suspended_until(text, text) to anon, authenticated, service_role;

-- 3. What reached Storage without the Worker. Storage keeps what its bucket's declared types allow, so a
-- user's own token can still store an HTML page declared `audio/mpeg`; no row may name it (1 above), and
-- the daily sweep (sweep-unpublished-uploads) reads the first bytes of each audio and image file stored
-- since the day before yesterday and removes those that are not the type declared for them. A day's
-- uploads at most `max_count`; the window overlaps, so a missed run is made up the next day.
create or replace function public.recent_uploads(within interval default '2 days', max_count integer default 1000)
returns table (bucket_id text, name text, mimetype text)
language sql
stable
security invoker
set search_path = ''
as $$
  select o.bucket_id, o.name, o.metadata ->> 'mimetype'
  from storage.objects o
  where o.bucket_id in ('tracks', 'artwork')
    and o.created_at > now() - recent_uploads.within
  order by o.created_at desc
  limit least(greatest(recent_uploads.max_count, 1), 10000)
$$;

revoke execute on function public.recent_uploads(interval, integer) from public, anon, authenticated;
grant execute on function public.recent_uploads(interval, integer) to service_role;
