-- Accounts (02_accounts.sql): who may read and change artist and fan profiles and payout settings, for
-- a visitor (the anon key), the owner, another artist, a fan, an administrator, a banned owner, and the
-- owner through the marketplace (the Worker's secret), which alone may name a stored picture.
begin;
\ir helpers.sql

-- Profiles: public to read, each their own to change; made by the sign-up trigger alone, never deleted here.
select tests.each_actor('read an artist profile', $$select 1 from public.artist_profiles where id = tests.id('artist')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('change an artist profile', $$update public.artist_profiles set short_description = 'x' where id = tests.id('artist')$$,
  array['artist']);
select tests.one_actor('change one''s artist profile while banned', 'banned artist',
  $$update public.artist_profiles set short_description = 'x' where id = tests.id('banned artist')$$, false);
select tests.each_actor('change an artist''s follower count', $$update public.artist_profiles set follower_count = 999 where id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('add an artist profile', $$insert into public.artist_profiles (id, artist_name) values (tests.id('fan'), 'Impostor')$$,
  array[]::text[]);
select tests.each_actor('delete an artist profile', $$delete from public.artist_profiles where id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('read a fan profile', $$select 1 from public.fan_profiles where id = tests.id('fan')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('change a fan profile', $$update public.fan_profiles set bio = 'x' where id = tests.id('fan')$$, array['fan']);
select tests.one_actor('change one''s fan profile while banned', 'banned fan',
  $$update public.fan_profiles set bio = 'x' where id = tests.id('banned fan')$$, false);
select tests.each_actor('add a fan profile', $$insert into public.fan_profiles (id, username) values (tests.id('artist'), 'impostor')$$,
  array[]::text[]);
select tests.each_actor('delete a fan profile', $$delete from public.fan_profiles where id = tests.id('fan')$$, array[]::text[]);

-- A profile picture is named only through the marketplace (which reads its bytes first), and only from
-- the owner's own folder; its size is read by the Worker too.
select tests.each_actor('name an artist''s picture in their folder',
  $$update public.artist_profiles set profile_image_url = tests.artwork_of('artist') where id = tests.id('artist')$$, array[]::text[]);
select tests.one_actor('name one''s picture in one''s folder', 'artist through the marketplace',
  $$update public.artist_profiles set profile_image_url = tests.artwork_of('artist') where id = tests.id('artist')$$, true);
select tests.one_actor('name a picture in another user''s folder', 'artist through the marketplace',
  $$update public.artist_profiles set profile_image_url = tests.artwork_of('other artist') where id = tests.id('artist')$$, false);
select tests.one_actor('name a picture on another site', 'artist through the marketplace',
  $$update public.artist_profiles set profile_image_url = 'https://elsewhere.example/me.jpeg' where id = tests.id('artist')$$, false);
select tests.each_actor('set an artist''s picture size',
  $$update public.artist_profiles set profile_image_width = 9000, profile_image_height = 1 where id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('name a fan''s picture in their folder',
  $$update public.fan_profiles set profile_image_url = tests.artwork_of('fan') where id = tests.id('fan')$$, array[]::text[]);
select tests.one_actor('name one''s fan picture in one''s folder', 'fan through the marketplace',
  $$update public.fan_profiles set profile_image_url = tests.artwork_of('fan') where id = tests.id('fan')$$, true);
select tests.one_actor('name a fan picture in another user''s folder', 'fan through the marketplace',
  $$update public.fan_profiles set profile_image_url = tests.artwork_of('artist') where id = tests.id('fan')$$, false);

-- Payout settings: their owner's alone.
select tests.each_actor('read an artist''s payout settings', $$select 1 from public.artist_payout_settings where artist_id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('change an artist''s PayPal address',
  $$update public.artist_payout_settings set paypal_email = 'new@tests.example' where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('change an artist''s payment settings',
  $$update public.artist_payout_settings
    set payment_settings = '{"minimum_price": 2.5, "default_currency": "EUR", "auto_withdraw": true, "withdraw_threshold": 60}'
    where artist_id = tests.id('artist')$$, array['artist']);
select tests.one_actor('change one''s payout settings while banned', 'banned artist',
  $$update public.artist_payout_settings set paypal_email = 'new@tests.example' where artist_id = tests.id('banned artist')$$, false);
select tests.each_actor('add artist payout settings',
  $$insert into public.artist_payout_settings (artist_id, paypal_email) values (tests.id('fan'), 'x@tests.example')$$, array[]::text[]);
select tests.each_actor('delete an artist''s payout settings', $$delete from public.artist_payout_settings where artist_id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('read a fan''s payout settings', $$select 1 from public.fan_payout_settings where fan_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('change a fan''s payout settings',
  $$update public.fan_payout_settings set payment_settings = '{"default_currency": "EUR"}' where fan_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('delete a fan''s payout settings', $$delete from public.fan_payout_settings where fan_id = tests.id('fan')$$,
  array[]::text[]);

-- Administrators are told apart by Auth's app metadata, which users cannot write.
select tests.each_actor('be an administrator', $$select 1 where public.is_admin()$$, array['admin']);

select plan((select count(*)::integer from tests.cases) + 2);
select * from tests.proved_cases();
-- The profile's rules hold for its owner too: the API cannot go around the forms.
select is(tests.attempt('artist', $$update public.artist_profiles set social_links = '{"twitter": "javascript:alert(1)"}' where id = tests.id('artist')$$),
  'refused:23514', 'a social link that is a script is refused');
select is(tests.attempt('artist', $$update public.artist_profiles set social_links = '{"twitter": "@owner"}' where id = tests.id('artist')$$),
  'done:1', 'a handle is kept');
select * from finish();
rollback;
