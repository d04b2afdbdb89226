-- Every artist or fan gets their profile in the same transaction as their auth user, from the
-- metadata the sign-up form sends, so a sign-up can never leave a user without a profile. Invalid
-- metadata raises, which rolls the whole sign-up back. Users without a role in their metadata
-- (administrators created by an operator) get no profile.

-- Sign-up metadata lists arrive as JSON arrays of strings.
create or replace function private.text_array(value jsonb, field text)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or jsonb_typeof(value) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(value) <> 'array' or exists (
    select 1 from jsonb_array_elements(value) as item where jsonb_typeof(item) <> 'string'
  ) then
    raise exception '% must be a list of genres', field using errcode = '22023';
  end if;
  return array(select jsonb_array_elements_text(value));
end
$$;

create or replace function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  metadata jsonb := coalesce(new.raw_user_meta_data, '{}');
  genres text[];
begin
  case metadata ->> 'role'
    when 'artist' then
      if nullif(btrim(metadata ->> 'artist_name'), '') is null then
        raise exception 'artist_name is required' using errcode = '23514';
      end if;
      if not coalesce(private.is_email(metadata ->> 'paypal_email'), false) then
        raise exception 'paypal_email is required and must be an email address' using errcode = '23514';
      end if;
      genres := private.text_array(metadata -> 'genres', 'genres');
      if not private.is_genre_list(genres) then
        raise exception 'genres must come from the genre list' using errcode = '23514';
      end if;

      insert into public.artist_profiles (id, artist_name, bio, genres)
      values (new.id, btrim(metadata ->> 'artist_name'), nullif(metadata ->> 'bio', ''), genres);
      insert into public.artist_payout_settings (artist_id, paypal_email)
      values (new.id, btrim(metadata ->> 'paypal_email'));

    when 'fan' then
      if nullif(btrim(metadata ->> 'username'), '') is null then
        raise exception 'username is required' using errcode = '23514';
      end if;
      genres := private.text_array(metadata -> 'favorite_genres', 'favorite_genres');
      if not private.is_genre_list(genres) then
        raise exception 'favorite_genres must come from the genre list' using errcode = '23514';
      end if;

      insert into public.fan_profiles (id, username, favorite_genres)
      values (new.id, btrim(metadata ->> 'username'), genres);
      insert into public.fan_payout_settings (fan_id) values (new.id);

    else
      null;
  end case;
  return new;
end
$$;

revoke execute on function private.create_profile_for_new_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();
