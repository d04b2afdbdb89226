-- A guest's receipt is the guest's alone, and nothing is taken before its day (17_guests.sql,
-- 13_downloads.sql, 19_notifications.sql): the return page finds a guest's order by the checkout the guest
-- came back with, never by the order's id; artists of an order's lines never read its id (not from the lines,
-- their notices or the sales lists); an album's track dated ahead is neither given nor downloaded before
-- its day, by anyone but its artist, and comes to the album's buyers once when its day comes.
begin;
\ir helpers.sql

create function tests.line(kind text, name text)
returns jsonb
language sql
as $$
  select jsonb_build_object('kind', kind, 'id', tests.id(name))
$$;

-- A guest's paid order with a line of the artist's and one of the other artist's, its checkout a random
-- free one as the Worker makes it; an album of the artist's with a track out and a track dated ahead,
-- bought by the fan and by a guest.
do $$
begin
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Elsewhere', 'Rock', 3.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Half Out') returning id$q$);
  perform tests.remember('out', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Out', 1, 'Rock', 1.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('ahead', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Ahead', 2, 'Rock', 9.00, 'Soon', current_date + 3) returning id$q$);

  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  perform tests.send_marketplace_headers();
  perform tests.remember('guest order', $q$
    select (public.open_order(jsonb_build_array(tests.line('track', 'track'), tests.line('track', 'other track')), '{}', 'USD',
      true, true, 'guest@tests.example') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('guest order'), 'free_7c4b1a9e-5f0d-4a55-9d4e-2f1c8b3a6e01');
  perform public.apply_checkout('free_7c4b1a9e-5f0d-4a55-9d4e-2f1c8b3a6e01', 'paid');
  perform tests.remember('guest album order', $q$
    select (public.open_order(jsonb_build_array(tests.line('album', 'album')), '{}', 'USD', true, true, 'album@tests.example')
      ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('guest album order'), 'cs_test_guest_album');
  perform public.apply_checkout('cs_test_guest_album', 'paid', 'pi_guest_album', 'FR', 'evt_guest_album', 'checkout.session.completed');

  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
  perform tests.remember('album order', $q$
    select (public.open_order(jsonb_build_array(tests.line('album', 'album')), '{}', 'USD') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('album order'), 'cs_test_album');
  perform public.apply_checkout('cs_test_album', 'paid', 'pi_album', 'FR', 'evt_album', 'checkout.session.completed');
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
end
$$;

-- The return page's read: the paid guest order of exactly the checkout brought, through the marketplace.
select tests.each_actor_through_marketplace('find a guest''s order by its checkout',
  $$select 1 where public.guest_checkout_order('free_7c4b1a9e-5f0d-4a55-9d4e-2f1c8b3a6e01') is not null$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('find a guest''s order by its checkout without the marketplace',
  $$select 1 where public.guest_checkout_order('free_7c4b1a9e-5f0d-4a55-9d4e-2f1c8b3a6e01') is not null$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('find a guest''s order by a checkout made of its id',
  $$select 1 where public.guest_checkout_order('free_' || tests.id('guest order')) is not null$$, array[]::text[]);
select tests.each_actor_through_marketplace('find an account''s order as a guest''s',
  $$select 1 where public.guest_checkout_order('cs_test_album') is not null$$, array[]::text[]);

-- Artists read their sales, never the order they belong to.
select tests.each_actor('read a guest order''s lines', $$select 1 from public.order_lines where order_id = tests.id('guest order')$$,
  array['admin']);
select tests.each_actor('read the fan''s album order''s lines', $$select 1 from public.order_lines where order_id = tests.id('album order')$$,
  array['fan', 'admin']);
select tests.each_actor('read a sale notice''s order', $$select order_id from public.notifications$$, array[]::text[]);
select tests.each_actor('read one''s sale notices', $$select 1 from public.notifications where kind = 'sale'$$,
  array['artist', 'other artist']);
select tests.each_actor('read a sale''s order reference',
  $$select 1 from public.sales() where order_reference = upper(left(tests.id('guest order')::text, 8))$$,
  array['artist', 'other artist', 'admin']);
select tests.each_actor('read a sale''s buyer''s email', $$select 1 from public.sales() where buyer_email is not null$$,
  array['admin']);

select plan((select count(*)::integer from tests.cases) + 16);

select * from tests.proved_cases();

-- Before its day: the album sold for all its tracks (the one dated ahead is the buyer's on its day), and gave
-- the track out alone.
select is((select total_cents from public.orders where id = tests.id('album order')), 1000, 'an album is priced by all its tracks');
select is((select array_agg(track_id) from public.purchases where order_line_id in (
    select id from public.order_lines where order_id in (tests.id('album order'), tests.id('guest album order')))),
  array[tests.id('out'), tests.id('out')], 'an album''s buyers get its tracks out, not the one dated ahead');
-- Owning a track dated ahead (a download code's release gives every track) lets no one but its artist take it.
insert into public.purchases (amount, track_id, user_id) values (0, tests.id('ahead'), tests.id('other artist'));
select ok(tests.allowed('artist', $$select 1 where private.may_download(tests.id('ahead'))$$), 'its artist downloads a track before its day');
select ok(not tests.allowed('other artist', $$select 1 where private.may_download(tests.id('ahead'))$$),
  'its owner does not download a track before its day');
select ok(not tests.allowed('fan', $$select 1 where private.may_download(tests.id('ahead'))$$),
  'an album''s buyer does not download its track before its day');
delete from public.purchases where track_id = tests.id('ahead');

-- Its day comes: the album's buyers (an account, a guest) get it, once, from the hourly job.
update public.tracks set release_date = current_date where id = tests.id('ahead');
select is(private.give_released_album_tracks(), 2, 'the track''s day gives it to each of the album''s buyers');
select is(private.give_released_album_tracks(), 0, 'and once');
select ok(tests.allowed('fan', $$select 1 where private.may_download(tests.id('ahead'))$$), 'an album''s buyer downloads it on its day');
select ok(not tests.allowed('other artist', $$select 1 where private.may_download(tests.id('ahead'))$$),
  'nobody else does');
select is((select count(*)::integer from public.purchases where track_id = tests.id('ahead') and user_id is null
    and order_line_id in (select id from public.order_lines where order_id = tests.id('guest album order'))),
  1, 'a guest''s album gets it too, for its receipt link');
select ok(tests.allowed('visitor through the marketplace', $$select 1 where private.may_download(tests.id('out'))$$) = false,
  'a visitor naming no guest order downloads nothing');

-- A guest's free orders (the artist's own code takes all of it) mail receipts: at most 3 an hour to one
-- email, 10 an hour from one client address.
insert into public.store_settings (artist_id, discounts)
values (tests.id('artist'), '[{"id": "g", "code": "GIFT", "percentage": 100, "validUntil": null, "active": true}]');
-- (paid at once with a random checkout, as the Worker pays a free order)
create function tests.free_order(email text, address text)
returns jsonb
language plpgsql
as $$
declare
  opened jsonb;
  checkout text := 'free_' || gen_random_uuid();
begin
  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  perform tests.send_marketplace_headers();
  opened := public.open_order(jsonb_build_array(tests.line('track', 'track')), '{GIFT}', 'USD', true, true, email, null, address);
  perform public.attach_checkout((opened ->> 'order_id')::uuid, checkout);
  perform public.apply_checkout(checkout, 'paid');
  return opened;
end
$$;
select is((select count(*)::integer from generate_series(1, 3) n where tests.free_order('free@tests.example', 'client a') ? 'order_id'),
  3, 'a guest''s free orders go to one email 3 times an hour');
select throws_ok($$select tests.free_order('Free@Tests.Example', 'client b')$$, '54000', null,
  'and a fourth is refused, from any address');
select is((select count(*)::integer from generate_series(1, 7) n
    where tests.free_order('free' || n || '@tests.example', 'client a') ? 'order_id'),
  7, 'one client address makes 10 an hour');
select throws_ok($$select tests.free_order('eleventh@tests.example', 'client a')$$, '54000', null, 'and an eleventh is refused');

-- An address past its limit on typing codes in the cart gets none looked up by checking out either: the
-- payment page's total would tell whether a guess was right.
do $$
begin
  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  perform tests.send_marketplace_headers();
  for n in 1..6 loop
    perform public.price_cart(jsonb_build_array(tests.line('track', 'track')),
      (select array_agg('guess-' || n || '-' || g) from generate_series(1, 10) g), null, 'client c');
  end loop;
end
$$;
select is((public.open_order(jsonb_build_array(tests.line('track', 'track')), '{GIFT}', 'USD', true, true, 'guesser@tests.example',
    null, 'client c') ->> 'total')::integer, 199, 'a checkout from an address past its limit takes no code');
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

select * from finish();
rollback;
