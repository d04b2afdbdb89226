-- Accounts (02_accounts.sql, 02_payout_settings.sql): who may read and change artist and fan profiles and
-- payout settings, for a visitor (the anon key), the owner, another artist, a fan, an administrator, a banned
-- owner, and the owner through the marketplace (the Worker's secret), which alone may name a stored picture.
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
-- A PayPal email changes with the account's password alone, through change_paypal_email (below): never
-- by writing it directly.
select tests.each_actor('change an artist''s PayPal address directly',
  $$update public.artist_payout_settings set paypal_email = 'new@tests.example' where artist_id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('change a fan''s PayPal address directly',
  $$update public.fan_payout_settings set payment_settings = payment_settings || '{"paypal_email": "new@tests.example"}'
    where fan_id = tests.id('fan')$$, array[]::text[]);
update auth.users set encrypted_password = extensions.crypt('the right password', extensions.gen_salt('bf', 4));
-- (an address mail can go to: the helpers name it after the fixture, with a space)
update auth.users set email = 'other-artist@tests.example' where id = tests.id('other artist');
select tests.each_actor('change one''s PayPal address with one''s password, without the marketplace',
  $$select public.change_paypal_email('new@tests.example', 'the right password')$$, array[]::text[]);
select tests.each_actor_through_marketplace('change one''s PayPal address with one''s password',
  $$select 1 where public.change_paypal_email('new@tests.example', 'the right password') ->> 'mail' is not null$$,
  array['artist', 'other artist', 'fan']);
select tests.one_actor('change one''s PayPal address while banned', 'banned artist through the marketplace',
  $$select public.change_paypal_email('new@tests.example', 'the right password')$$, false);
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

select plan((select count(*)::integer from tests.cases) + 9);
select * from tests.proved_cases();
-- The profile's rules hold for its owner too: the API cannot go around the forms.
select is(tests.attempt('artist', $$update public.artist_profiles set social_links = '{"twitter": "javascript:alert(1)"}' where id = tests.id('artist')$$),
  'refused:23514', 'a social link that is a script is refused');
select is(tests.attempt('artist', $$update public.artist_profiles set social_links = '{"twitter": "@owner"}' where id = tests.id('artist')$$),
  'done:1', 'a handle is kept');

-- Changing a PayPal email as `who` through the marketplace.
create function tests.paypal_change(who text, address text, password text)
returns jsonb
language plpgsql
as $$
declare
  answer jsonb;
begin
  perform set_config('request.jwt.claims', (select jsonb_build_object('sub', u.id, 'role', 'authenticated', 'app_metadata', u.raw_app_meta_data)
    from auth.users u where u.id = tests.id(who))::text, true);
  perform tests.send_marketplace_headers();
  answer := public.change_paypal_email(address, password);
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return answer;
end
$$;
select is(tests.paypal_change('artist', 'thief@tests.example', 'a guess'), '{"wrong_password": true}'::jsonb,
  'a wrong password changes no PayPal email');
select is((select paypal_email from public.artist_payout_settings where artist_id = tests.id('artist')), 'owner@tests.example',
  'the artist''s PayPal email is as it was');
select tests.paypal_change('artist', 'payouts@tests.example', 'the right password');
select is((select jsonb_build_array(m.kind, m.recipient, m.detail) from private.mails m where m.kind = 'paypal_changed'),
  '["paypal_changed", "artist@tests.example", "pa***@tests.example"]'::jsonb,
  'with the password it changes, and the account''s own address is told, the new one partly hidden');
select tests.send_marketplace_headers();
select is(public.mail_to_send((select m.id from private.mails m where m.kind = 'paypal_changed')) ->> 'paypal_email',
  'pa***@tests.example', 'the notice names the new address partly hidden');
select tests.send_no_headers();
select is(tests.paypal_change('artist', 'payouts@tests.example', 'the right password'), '{"mail": null}'::jsonb,
  'the same address again tells nobody');
select tests.paypal_change('fan', 'f@tests.example', 'the right password');
select is((select payment_settings ->> 'paypal_email' from public.fan_payout_settings where fan_id = tests.id('fan'))
    || ' ' || (select m.detail from private.mails m where m.kind = 'paypal_changed' and m.recipient = 'fan@tests.example'),
  'f@tests.example f***@tests.example', 'a fan''s PayPal email changes the same way');
select tests.paypal_change('other artist', 'thief@tests.example', 'a guess') from generate_series(1, 10);
select throws_ok($$select tests.paypal_change('other artist', 'thief@tests.example', 'the right password')$$, '54000', null,
  'past 10 wrong passwords in an hour, not even the right one is tried');
select * from finish();
rollback;
