-- Every rule the forms hold is the database's too, so nothing written straight through the API can go
-- around them: lengths of every text people type, the price range, release dates from 1900 to two years
-- ahead, track numbers within an album's size, a track's genre from the catalog's list, social links that
-- are a handle or a profile address on their own network, and the shapes of tour dates and store lists.
-- The limits are the app's (app/lib/constants.ts: textLimits, maximumPrice, albumTrackLimit).

-- `YYYY-MM-DD` naming a day that exists. Immutable: an ISO date reads the same whatever DateStyle is.
create or replace function private.is_iso_date(value text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or value !~ '^\d{4}-\d{2}-\d{2}$' then
    return false;
  end if;
  return to_char(value::date, 'YYYY-MM-DD') = value;
exception
  when others then
    return false;
end
$$;

-- A handle ('name', '@name') or a profile address on the network's own site; the app's socialProfile()
-- reads links with the same patterns.
create or replace function private.is_social_link(network text, value text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select value ~ '^@?[A-Za-z0-9_.]{1,30}$'
    or value ~* (
      '^https?://(www\.)?('
      || case network when 'twitter' then 'twitter\.com|x\.com' when 'instagram' then 'instagram\.com' end
      || ')/@?[A-Za-z0-9_.]{1,30}([/?#]\S*)?$')
$$;

create or replace function private.is_social_links(links jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(links) = 'object' then
      (select bool_and(
          key in ('twitter', 'instagram')
          and (jsonb_typeof(value) = 'null'
            or (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') <= 200
              and private.is_social_link(key, value #>> '{}'))))
        from jsonb_each(links)) is not false
    else false
  end
$$;

-- Upcoming shows: at most 50, each a real date with a venue and a city.
create or replace function private.is_tour_dates(dates jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(dates) = 'array' and jsonb_array_length(dates) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(show -> 'date') = 'string' and private.is_iso_date(show ->> 'date')
        and jsonb_typeof(show -> 'venue') = 'string' and char_length(show ->> 'venue') between 1 and 120
        and jsonb_typeof(show -> 'city') = 'string' and char_length(show ->> 'city') between 1 and 120, false)), true)
      from jsonb_array_elements(dates) as show)
    else false
  end
$$;

-- Store lists, as before, with their texts bounded, tier prices within the catalog's range and a code's
-- end a real date.
create or replace function private.is_pricing_tiers(tiers jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(tiers) = 'array' and jsonb_array_length(tiers) <= 20 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(tier -> 'id') = 'string' and char_length(tier ->> 'id') <= 40
        and jsonb_typeof(tier -> 'name') = 'string' and btrim(tier ->> 'name') <> '' and char_length(tier ->> 'name') <= 100
        and private.is_json_number(tier -> 'price', 0, 1000) and private.is_cents(tier -> 'price')
        and (jsonb_typeof(tier -> 'description') is null or jsonb_typeof(tier -> 'description') = 'null'
          or (jsonb_typeof(tier -> 'description') = 'string' and char_length(tier ->> 'description') <= 500)), false)), true)
      from jsonb_array_elements(tiers) as tier)
    else false
  end
$$;

create or replace function private.is_discounts(discounts jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(discounts) = 'array' and jsonb_array_length(discounts) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(discount -> 'id') = 'string' and char_length(discount ->> 'id') <= 40
        and jsonb_typeof(discount -> 'code') = 'string' and btrim(discount ->> 'code') <> ''
        and char_length(discount ->> 'code') <= 40
        and private.is_json_number(discount -> 'percentage', 0, 100, true)
        and (jsonb_typeof(discount -> 'validUntil') is null or jsonb_typeof(discount -> 'validUntil') = 'null'
          or private.is_iso_date(discount ->> 'validUntil'))
        and jsonb_typeof(discount -> 'active') = 'boolean', false)), true)
        and count(distinct lower(btrim(discount ->> 'code'))) = count(*)
      from jsonb_array_elements(discounts) as discount)
    else false
  end
$$;

alter table public.tracks
  add constraint tracks_genre_in_catalog check (genre = any (private.genre_list())),
  add constraint tracks_title_length check (char_length(title) <= 200),
  add constraint tracks_album_title_length check (char_length(album_title) <= 200),
  add constraint tracks_subgenre_length check (char_length(subgenre) <= 100),
  add constraint tracks_label_length check (char_length(label) <= 100),
  add constraint tracks_description_length check (char_length(description) <= 5000),
  add constraint tracks_price_range check (price <= 1000),
  add constraint tracks_track_number_range check (track_number <= 100),
  add constraint tracks_release_date_range check (release_date >= date '1900-01-01');

alter table public.merch
  add constraint merch_title_length check (char_length(title) <= 200),
  add constraint merch_description_length check (char_length(description) <= 5000),
  add constraint merch_price_range check (price <= 1000);

alter table public.artist_profiles
  add constraint artist_profiles_artist_name_length check (char_length(artist_name) <= 100),
  add constraint artist_profiles_short_description_length check (char_length(short_description) <= 200),
  add constraint artist_profiles_bio_length check (char_length(bio) <= 5000),
  add constraint artist_profiles_website_length check (char_length(website) <= 2000);

alter table public.fan_profiles
  add constraint fan_profiles_username_length check (char_length(username) <= 50),
  add constraint fan_profiles_bio_length check (char_length(bio) <= 2000);

alter table public.news_items
  add constraint news_items_title_length check (char_length(title) <= 200),
  add constraint news_items_content_length check (char_length(content) <= 2000);

alter table public.artist_payout_settings
  add constraint artist_payout_settings_paypal_email_length check (char_length(paypal_email) <= 254);

-- A release may be announced up to two years ahead. "Ahead" moves with the calendar, which a check
-- constraint must not depend on, so a trigger holds it when the date is written; it refuses as a check
-- constraint would (23514), so the app reads it the same way.
create or replace function private.release_date_in_range()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.release_date > current_date + interval '2 years' then
    raise exception 'release date % is more than two years ahead', new.release_date
      using errcode = 'check_violation', constraint = 'tracks_release_date_range';
  end if;
  return new;
end
$$;

create trigger tracks_release_date_in_range
  before insert or update of release_date on public.tracks
  for each row execute function private.release_date_in_range();
