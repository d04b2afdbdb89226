-- A fan's collection and wishlist, hidden purchases and "supported by" (21_collections.sql), for a visitor,
-- the fan, another fan, the artist, another artist, an administrator and banned users; and that what a fan
-- hides leaves the database for no one else, nor through "fans who bought this also bought".
begin;
\ir helpers.sql

-- A release's id by one of its tracks.
create function tests.release_of(name text)
returns uuid
language sql
as $$
  select release_id from public.tracks where id = tests.id(name)
$$;

-- `who` bought `track` (a fixture) in a paid order, `minutes_ago`: the order, its line and the purchase, as
-- fulfil_order leaves them. Answers the line.
create function tests.bought(who text, track text, minutes_ago integer default 0)
returns uuid
language plpgsql
as $$
declare
  order_id uuid;
  line_id uuid;
begin
  insert into public.orders (buyer_id, buyer_email, currency, total_cents, state, paid_at, created_at)
  values (tests.id(who), replace(who, ' ', '-') || '@tests.example', 'USD', 199, 'paid', now() - make_interval(mins => minutes_ago),
    now() - make_interval(mins => minutes_ago))
  returning id into order_id;
  insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, total_cents, artist_share_cents, crate_cents)
  select order_id, t.artist_id, 'track', t.id, t.title, 199, 199, 175, 24 from public.tracks t where t.id = tests.id(track)
  returning id into line_id;
  insert into public.purchases (amount, track_id, user_id, order_line_id, created_at)
  values (1.99, tests.id(track), tests.id(who), line_id, now() - make_interval(mins => minutes_ago));
  return line_id;
end
$$;

-- The usernames `supported_by`'s answer names, in its order.
create function tests.supporters(answer jsonb)
returns text[]
language sql
as $$
  select coalesce(array_agg(f ->> 'username' order by n), '{}') from jsonb_array_elements(answer -> 'fans') with ordinality as a(f, n)
$$;

do $$
declare
  refunded uuid;
begin
  perform tests.new_user('second fan', '{"role": "fan", "username": "second"}');
  perform tests.new_user('third fan', '{"role": "fan", "username": "third"}');
  perform tests.new_user('private fan', '{"role": "fan", "username": "private"}');
  perform tests.new_user('code fan', '{"role": "fan", "username": "by-code"}');
  perform tests.new_user('refunded fan', '{"role": "fan", "username": "refunded"}');
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Theirs', 'Pop', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('third track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Third', 'Pop', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.bought('fan', 'track', 10);
  perform tests.bought('fan', 'other track', 9);
  perform tests.bought('second fan', 'track', 5);
  perform tests.bought('third fan', 'track', 4);
  perform tests.bought('third fan', 'third track', 4);
  perform tests.bought('private fan', 'track', 3);
  perform tests.bought('banned fan', 'track', 2);
  perform tests.bought('fan', 'upcoming track', 1);
  -- A refunded line: its purchase gone, as mark_refunded leaves it.
  refunded := tests.bought('refunded fan', 'track', 1);
  update public.order_lines set refunded_at = now() where id = refunded;
  delete from public.purchases where user_id = tests.id('refunded fan');
  -- A code's purchase: no order, so no support.
  insert into public.purchases (amount, track_id, user_id) values (0, tests.id('track'), tests.id('code fan'));
  update public.fan_profiles set show_collection = false, show_wishlist = false where id = tests.id('private fan');
  insert into public.wishlist (fan_id, release_id) values
    (tests.id('fan'), tests.release_of('third track')),
    (tests.id('private fan'), tests.release_of('third track')),
    (tests.id('banned fan'), tests.release_of('third track'));
  insert into public.hidden_purchases (fan_id, release_id) values (tests.id('fan'), tests.release_of('other track'));
end
$$;

-- The wishlist: a fan's own rows; fans alone add, only what they can see, as themselves.
select tests.each_actor('read the fan''s wishlist',
  $$select 1 from public.wishlist where fan_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('add a release to one''s wishlist',
  $$insert into public.wishlist (release_id) values (tests.release_of('other track'))$$, array['fan']);
select tests.each_actor('add an upcoming release to one''s wishlist',
  $$insert into public.wishlist (release_id) values (tests.release_of('upcoming track'))$$, array[]::text[]);
select tests.each_actor('add to the fan''s wishlist',
  $$insert into public.wishlist (fan_id, release_id) values (tests.id('fan'), tests.release_of('other track'))$$, array[]::text[]);
select tests.each_actor('change a wishlist',
  $$update public.wishlist set created_at = now() where fan_id = tests.id('fan')$$, array[]::text[]);
select tests.each_actor('remove from the fan''s wishlist',
  $$delete from public.wishlist where fan_id = tests.id('fan')$$, array['fan']);
select tests.one_actor('add to one''s wishlist while banned', 'banned fan',
  $$insert into public.wishlist (release_id) values (tests.release_of('other track'))$$, false);
select tests.one_actor('remove from one''s wishlist while banned', 'banned fan',
  $$delete from public.wishlist where fan_id = tests.id('banned fan')$$, false);

-- Hidden purchases: a fan's own rows, of what they bought.
select tests.each_actor('read what the fan hides',
  $$select 1 from public.hidden_purchases where fan_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('hide a release one bought',
  $$insert into public.hidden_purchases (release_id) values (tests.release_of('track'))$$, array['fan']);
select tests.each_actor('hide a release one did not buy',
  $$insert into public.hidden_purchases (release_id) values (tests.release_of('third track'))$$, array[]::text[]);
select tests.each_actor('show again what the fan hid',
  $$delete from public.hidden_purchases where fan_id = tests.id('fan')$$, array['fan']);
select tests.one_actor('hide a release one bought while banned', 'banned fan',
  $$insert into public.hidden_purchases (release_id) values (tests.release_of('track'))$$, false);

-- Keeping either list off one's page: the fan's own profile.
select tests.each_actor('hide the fan''s collection and wishlist',
  $$update public.fan_profiles set show_collection = false, show_wishlist = false where id = tests.id('fan')$$, array['fan']);

-- The fan's page: their collection (released, not hidden) and wishlist for all; what they hid for them alone.
select tests.each_actor('read the fan''s collection',
  $$select 1 where jsonb_path_exists(public.fan_page(tests.id('fan')) -> 'collection' -> 'releases', '$[*] ? (@.id == $id)',
    jsonb_build_object('id', tests.release_of('track')))$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read the fan''s wishlist on their page',
  $$select 1 where jsonb_path_exists(public.fan_page(tests.id('fan')) -> 'wishlist' -> 'releases', '$[*] ? (@.id == $id)',
    jsonb_build_object('id', tests.release_of('third track')))$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read a purchase the fan hid',
  $$select 1 where jsonb_path_exists(public.fan_page(tests.id('fan')) -> 'collection' -> 'releases', '$[*] ? (@.id == $id && @.hidden == true)',
    jsonb_build_object('id', tests.release_of('other track')))$$,
  array['fan']);
select tests.one_actor('read one''s whole collection, what one hid too', 'fan',
  $$select 1 where public.fan_page(tests.id('fan'), 1, 1) -> 'collection' -> 'count' = '2'::jsonb$$, true);
select tests.each_actor('read an upcoming release in the fan''s collection',
  $$select 1 where jsonb_path_exists(public.fan_page(tests.id('fan')) -> 'collection' -> 'releases', '$[*] ? (@.id == $id)',
    jsonb_build_object('id', tests.release_of('upcoming track')))$$,
  array[]::text[]);
select tests.each_actor('read a private fan''s collection or wishlist',
  $$select 1 from public.fan_page(tests.id('private fan')) page
    where (page -> 'collection' ->> 'count')::integer > 0 or (page -> 'wishlist' ->> 'count')::integer > 0$$,
  array[]::text[]);
select tests.one_actor('read one''s own private collection and wishlist', 'private fan',
  $$select 1 from public.fan_page(tests.id('private fan')) page
    where (page -> 'collection' ->> 'count')::integer = 1 and (page -> 'wishlist' ->> 'count')::integer = 1$$, true);
select tests.each_actor('read a banned fan''s collection or wishlist',
  $$select 1 from private.fan_shelf(tests.id('banned fan'), 'wishlist', 1, 48) shelf where (shelf ->> 'count')::integer > 0
    union all select 1 from private.fan_shelf(tests.id('banned fan'), 'collection', 1, 48) shelf where (shelf ->> 'count')::integer > 0$$,
  array[]::text[]);

-- "Supported by": everyone reads it of a released release; an upcoming one's, its artist alone.
select tests.each_actor('read who supports a release',
  $$select 1 where jsonb_array_length(public.supported_by(tests.release_of('track')) -> 'fans') > 0$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('read who supports a release while banned', 'banned fan',
  $$select 1 where jsonb_array_length(public.supported_by(tests.release_of('track')) -> 'fans') > 0$$, true);
select tests.each_actor('read who supports an upcoming release',
  $$select 1 where jsonb_array_length(public.supported_by(tests.release_of('upcoming track')) -> 'fans') > 0$$, array['artist']);

-- Another fan: nothing of the fan's own rows, nor what the fan hid.
select tests.one_actor('read the fan''s wishlist', 'second fan',
  $$select 1 from public.wishlist where fan_id = tests.id('fan')$$, false);
select tests.one_actor('remove from the fan''s wishlist', 'second fan',
  $$delete from public.wishlist where fan_id = tests.id('fan')$$, false);
select tests.one_actor('read what the fan hides', 'second fan',
  $$select 1 from public.hidden_purchases where fan_id = tests.id('fan')$$, false);
select tests.one_actor('show again what the fan hid', 'second fan',
  $$delete from public.hidden_purchases where fan_id = tests.id('fan')$$, false);
select tests.one_actor('read a purchase the fan hid', 'second fan',
  $$select 1 where jsonb_path_exists(public.fan_page(tests.id('fan')) -> 'collection' -> 'releases', '$[*] ? (@.id == $id)',
    jsonb_build_object('id', tests.release_of('other track')))$$, false);
select tests.one_actor('read the fan''s collection', 'second fan',
  $$select 1 where jsonb_path_exists(public.fan_page(tests.id('fan')) -> 'collection' -> 'releases', '$[*] ? (@.id == $id)',
    jsonb_build_object('id', tests.release_of('track')))$$, true);
select tests.one_actor('add a release to one''s wishlist', 'second fan',
  $$insert into public.wishlist (release_id) values (tests.release_of('other track'))$$, true);
select tests.one_actor('hide a release one bought', 'second fan',
  $$insert into public.hidden_purchases (release_id) values (tests.release_of('track'))$$, true);

select plan((select count(*)::integer from tests.cases) + 8);
select * from tests.proved_cases();

select is(tests.supporters(public.supported_by(tests.release_of('track'))), array['third', 'second', 'listener'],
  'supported by: paid buyers, newest first; never a code''s, a refunded line''s, a private or a banned fan');
select is(public.supported_by(track_id => tests.id('track')), public.supported_by(tests.release_of('track')),
  'a track''s page names the buyers of it or its release');
insert into public.hidden_purchases (fan_id, release_id) values (tests.id('second fan'), tests.release_of('track'));
select is(tests.supporters(public.supported_by(tests.release_of('track'))), array['third', 'listener'],
  'a fan who hid the purchase is not named');
delete from public.hidden_purchases where fan_id = tests.id('second fan');

-- At most 20 named, with how many more.
do $$
begin
  for n in 1..23 loop
    perform tests.new_user('many ' || n, jsonb_build_object('role', 'fan', 'username', 'many-' || n));
    perform tests.bought('many ' || n, 'other track', 100 + n);
  end loop;
end
$$;
select is(jsonb_array_length(public.supported_by(tests.release_of('other track')) -> 'fans'), 20, 'at most 20 supporters named');
select is((public.supported_by(tests.release_of('other track')) ->> 'more')::integer, 3,
  'and how many more: 23 besides the fan, who hid it');

-- "Also bought": three buyers of 'track' besides the reader (fan, second, third), one of whom bought 'third track'.
select ok(public.also_bought(tests.release_of('track')) @> jsonb_build_array(jsonb_build_object('id', tests.release_of('third track'))),
  'fans who bought this also bought: with 3 buyers');
insert into public.hidden_purchases (fan_id, release_id) values (tests.id('third fan'), tests.release_of('third track'));
select ok(not public.also_bought(tests.release_of('track')) @> jsonb_build_array(jsonb_build_object('id', tests.release_of('third track'))),
  'a release a buyer hid is never what others also bought');
delete from public.hidden_purchases where fan_id = tests.id('third fan');
insert into public.hidden_purchases (fan_id, release_id) values
  (tests.id('second fan'), tests.release_of('track')), (tests.id('third fan'), tests.release_of('track'));
select is(public.also_bought(tests.release_of('track')), '[]'::jsonb,
  'nor do buyers who hid it count: 2 buyers left, fewer than 3, and nothing shown');

select * from finish();
rollback;
