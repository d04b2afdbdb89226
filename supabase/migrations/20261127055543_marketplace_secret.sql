-- The Worker's secret guards plays, the files a row names and a ban's end: it is the marketplace's own
-- secret, no longer named for plays alone. Renamed in place, so registered hashes (and the grants on
-- the functions) carry over; the bodies that name them follow below.
alter table private.play_reporters rename to marketplace_secrets;
alter function private.trust_play_reporter(text) rename to trust_marketplace_secret;
alter function private.is_play_reporter() rename to is_marketplace_request;
alter table private.marketplace_secrets rename constraint play_reporters_pkey to marketplace_secrets_pkey;
alter table private.marketplace_secrets rename constraint play_reporters_secret_hash_check to marketplace_secrets_secret_hash_check;

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.files_named_by_the_marketplace()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
      and not private.is_marketplace_request() then
      raise exception 'a stored file is named only through the marketplace, which checks its bytes first'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end
$function$
;

CREATE OR REPLACE FUNCTION private.is_marketplace_request()
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select exists (
    select 1 from private.marketplace_secrets r
    where r.secret_hash = sha256(convert_to(
      coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-marketplace-secret', ''), 'UTF8'))
  )
$function$
;

CREATE OR REPLACE FUNCTION private.record_play(track_id uuid, country text, listener text, address text, embedded_on text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  me uuid := (select auth.uid());
  track_artist uuid;
  who text;
  from_address text := coalesce(nullif(btrim(record_play.address), ''), 'unknown');
begin
  if not private.is_marketplace_request() then
    raise exception 'plays are recorded through the marketplace' using errcode = '28000';
  end if;
  if me is not null and not (select private.is_active_user()) then
    raise exception 'this account is suspended' using errcode = '42501';
  end if;

  select t.artist_id into track_artist
  from public.tracks t
  where t.id = record_play.track_id
    and (t.release_date <= current_date or t.artist_id = me);
  if track_artist is null then
    raise exception 'track not found' using errcode = 'P0002';
  end if;

  who := case
    when me is not null then 'user:' || me
    else 'visitor:' || coalesce(nullif(btrim(record_play.listener), ''), 'unknown') || '@' || from_address
  end;
  -- One listener at a time, so two reports of the same play cannot both count.
  perform pg_advisory_xact_lock(hashtext(who));

  delete from private.recent_plays where played_at < now() - interval '10 minutes';
  if exists (
    select 1 from private.recent_plays r
    where r.listener = who and r.track_id = record_play.track_id
  ) then
    return false;
  end if;
  -- A signed-in listener is held to their account's own pace, a visitor to their address's: no crowd of
  -- visitors behind one address (locally, every client of the machine) can lock a fan out.
  if me is not null then
    if (select count(*) from private.recent_plays r where r.listener = who) >= 30 then
      raise exception 'too many plays from one account' using errcode = '54000';
    end if;
  elsif (select count(*) from private.recent_plays r where r.address = from_address) >= 30 then
    raise exception 'too many plays from one address' using errcode = '54000';
  end if;

  insert into private.recent_plays (listener, address, track_id) values (who, from_address, record_play.track_id);
  insert into public.analytics_events (type, track_id, artist_id, user_id, country, embedded_on)
  values ('play', record_play.track_id, track_artist, me, record_play.country, record_play.embedded_on);
  return true;
end
$function$
;

CREATE OR REPLACE FUNCTION private.suspended_until(email text, password text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_marketplace_request() then
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
$function$
;

CREATE OR REPLACE FUNCTION private.trust_marketplace_secret(secret text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if length(coalesce(secret, '')) < 32 then
    raise exception 'a marketplace secret has at least 32 characters' using errcode = '22023';
  end if;
  insert into private.marketplace_secrets (secret_hash) values (sha256(convert_to(secret, 'UTF8'))) on conflict do nothing;
end
$function$
;
