-- Merch (03_merch.sql, 16_orders.sql, 17_fulfilment.sql): an artist alone changes their merch's stock; a cart
-- prices merch by its quantity, with shipping to the chosen country (the item's own, or elsewhere) and 92% of
-- the price after discounts for its artist with all of the shipping; an open checkout holds what it sells, so
-- no one buys past the stock, and lets go when it lapses, fails or is refunded; the address the payment
-- collected is the order's, and its artist's alone to read; an open checkout is ended through the marketplace
-- alone, and only its buyer's; its artist alone marks merch shipped, which takes it out of the stock and
-- tells the buyer. Holds cannot be farmed: a buyer's new checkout ends their earlier ones, an address holds
-- at most 3 open checkouts, an account's or an address's open checkouts hold at most 10 of one item, a hold
-- lapses with its checkout, and a payment the stock no longer covers is refunded.
begin;
\ir helpers.sql

do $$
begin
  perform tests.new_user('fan2', '{"role": "fan", "username": "second-listener"}');
  perform tests.remember('tee', $q$
    insert into public.merch (artist_id, title, price, description, stock, ships_from, shipping_home, shipping_elsewhere)
    values (tests.id('artist'), 'Tee', 15.00, 'Cotton', 2, 'GB', 3.00, 8.00) returning id$q$);
  perform tests.remember('poster', $q$
    insert into public.merch (artist_id, title, price, allow_pay_more, description)
    values (tests.id('artist'), 'Poster', 10.00, true, 'Paper') returning id$q$);
  insert into public.store_settings (artist_id, bundling) values (tests.id('artist'), '{"enabled": true, "discountPercentage": 10}');
end
$$;

create function tests.merch(name text, quantity integer default 1, amount integer default null)
returns jsonb
language sql
as $$
  select jsonb_build_object('kind', 'merch', 'id', tests.id(name), 'quantity', quantity, 'amount', amount)
$$;

-- An order of `buyer`'s for `lines`, opened and its checkout attached as the marketplace does (from
-- `address`, where one is given), shipped to Germany.
create function tests.open_merch_order(buyer text, lines jsonb, checkout text, address text default null)
returns jsonb
language plpgsql
as $$
declare
  opened jsonb;
begin
  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id(buyer), 'role', 'authenticated')::text, true);
  perform tests.send_marketplace_headers();
  opened := public.open_order(lines, '{}', 'USD', false, false, null, 'DE', address);
  if opened ? 'order_id' then
    perform public.attach_checkout((opened ->> 'order_id')::uuid, checkout);
  end if;
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return opened;
end
$$;

-- A guest's order from `address`, opened and its checkout attached as the marketplace does.
create function tests.open_guest_order(address text, lines jsonb, checkout text)
returns jsonb
language plpgsql
as $$
declare
  opened jsonb;
begin
  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  perform tests.send_marketplace_headers();
  opened := public.open_order(lines, '{}', 'USD', false, false, 'guest@tests.example', 'DE', address);
  if opened ? 'order_id' then
    perform public.attach_checkout((opened ->> 'order_id')::uuid, checkout);
  end if;
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return opened;
end
$$;

-- A paid poster of the fan's, for the merch orders its artist reads and marks shipped.
select tests.open_merch_order('fan', jsonb_build_array(tests.merch('poster')), 'cs_test_poster');
select tests.as_marketplace($$select public.apply_checkout('cs_test_poster', 'paid', 'pi_test_poster', 'DE', null, null, null,
  '{"name": "Ada", "line1": "Hauptstraße 1", "city": "Berlin", "postal_code": "10115", "country": "DE"}')$$);
select tests.remember('poster line', $$select id from public.order_lines where item_id = tests.id('poster')$$);

select tests.each_actor('read merch orders with their addresses',
  $$select 1 from public.merch_orders() where shipping_address ->> 'city' = 'Berlin'$$, array['artist']);
select tests.each_actor('mark merch shipped without the marketplace', $$select public.mark_shipped(tests.id('poster line'), 'TRACK1')$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('mark merch shipped',
  $$select public.mark_shipped(tests.id('poster line'), 'TRACK1')$$, array['artist']);
select tests.one_actor('mark merch shipped while banned', 'banned artist through the marketplace',
  $$select public.mark_shipped(tests.id('poster line'), 'TRACK1')$$, false);
select tests.each_actor('list what one sold', $$select 1 from public.sold_items() where item_id = tests.id('poster')$$,
  array['artist']);
select tests.each_actor('list the sales of one item', $$select 1 from public.sales(50, tests.id('poster')) where quantity = 1$$,
  array['artist', 'admin']);
select tests.each_actor('change an order line''s shipping directly',
  $$update public.order_lines set shipped_at = now() where true$$, array[]::text[]);

select tests.each_actor('change a merch item''s stock', $$update public.merch set stock = 5 where id = tests.id('tee')$$,
  array['artist']);
select tests.one_actor('change a merch item''s stock while banned', 'banned artist',
  $$update public.merch set stock = 5 where artist_id = auth.uid()$$, false);
select tests.each_actor('read what is left of merch', $$select 1 where private.merch_left(tests.id('tee')) = 2$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('put merch into one''s cart, two of it', $$select 1 where public.add_to_cart(jsonb_build_array(tests.merch('tee', 2))) >= 1$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('put eleven of a merch item into one''s cart',
  $$insert into public.cart_lines (kind, item_id, quantity) values ('merch', tests.id('poster'), 11)$$, array[]::text[]);
select tests.each_actor('put two of a download into one''s cart',
  $$insert into public.cart_lines (kind, item_id, quantity) values ('track', tests.id('track'), 2)$$, array[]::text[]);
select tests.each_actor('change an order''s shipping address directly',
  $$update public.orders set shipping_address = '{}' where true$$, array[]::text[]);
select tests.each_actor('end a checkout without the marketplace', $$select 1 where public.checkout_to_end(gen_random_uuid()) is null$$,
  array[]::text[]);
-- The way back from the payment page ends its buyer's checkout alone: an artist reads the order's id, and
-- nobody else may end it with that.
select tests.remember('open poster order', $$
  select (tests.open_merch_order('fan', jsonb_build_array(tests.merch('poster')), 'cs_test_poster_open') ->> 'order_id')::uuid$$);
select tests.each_actor_through_marketplace('end one''s own open checkout',
  $$select 1 where public.checkout_to_end(tests.id('open poster order')) = 'cs_test_poster_open'$$, array['fan']);
select tests.one_actor('end one''s own open checkout while banned', 'banned fan through the marketplace',
  $$select 1 where public.checkout_to_end(tests.id('open poster order')) is not null$$, false);

-- A mug, two in stock, for the holds that cannot be farmed.
select tests.remember('mug', $q$
  insert into public.merch (artist_id, title, price, description, stock, ships_from, shipping_home, shipping_elsewhere)
  values (tests.id('artist'), 'Mug', 12.00, 'Stoneware', 2, 'GB', 3.00, 8.00) returning id$q$);

-- A CD, 25 in stock, for what one buyer holds at most.
select tests.remember('cd', $q$
  insert into public.merch (artist_id, title, price, description, stock, ships_from, shipping_home, shipping_elsewhere)
  values (tests.id('artist'), 'CD', 10.00, 'Digipak', 25, 'GB', 2.00, 4.00) returning id$q$);

select plan((select count(*)::integer from tests.cases) + 49);

select * from tests.proved_cases();

-- Two tees to Germany (elsewhere: 8.00 each) and a poster the fan pays 12.00 for: the bundle takes 10% off
-- both; each artist's share is 92% of the price after discounts, with all of the shipping.
select is(
  (select jsonb_agg(jsonb_build_array(l ->> 'title', l -> 'quantity', l -> 'amount', l -> 'bundle_discount', l -> 'shipping',
     l -> 'total', l -> 'artist_share', l -> 'crate_part', l -> 'units_left', l -> 'problem') order by (l ->> 'n')::integer)
   from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.merch('tee', 2), tests.merch('poster', 1, 1200)),
     '{}', tests.id('fan'), 'DE') -> 'lines') l),
  '[["Tee", 2, 3000, 300, 1600, 4300, 4084, 216, 2, null],
    ["Poster", 1, 1200, 120, 0, 1080, 994, 86, null, null]]'::jsonb,
  'merch is priced by its quantity, shipped elsewhere at its price for elsewhere, and 92% of it is its artist''s with the shipping');
select is(
  (select (l -> 'shipping')::integer from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.merch('tee')),
     '{}', tests.id('fan'), 'GB') -> 'lines') l),
  300,
  'shipping in the country the item ships from costs its home price');

-- What keeps merch from being bought: more than is left, a quantity out of bounds, a download more than
-- once, and no country to ship to.
select is(
  (select jsonb_agg(l -> 'problem' order by (l ->> 'n')::integer) from jsonb_array_elements(private.priced_cart(jsonb_build_array(
      tests.merch('tee', 3), tests.merch('poster', 0), tests.merch('poster', 11),
      jsonb_build_object('kind', 'track', 'id', tests.id('track'), 'quantity', 2)),
    '{}', tests.id('fan'), 'DE') -> 'lines') l),
  '["sold_out", "quantity", "quantity", "quantity"]'::jsonb,
  'more than is left, a quantity out of bounds and a download bought twice are refused');
select is(
  (select l ->> 'problem' from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.merch('tee')), '{}', tests.id('fan'))
    -> 'lines') l),
  'ship_to',
  'merch waits for a country to ship to');

-- An open checkout holds what it sells: the second fan is told before paying.
select is(
  tests.open_merch_order('fan', jsonb_build_array(tests.merch('tee', 2)), 'cs_test_tee') -> 'lines' -> 0 -> 'total',
  '4600'::jsonb,
  'the fan opens a checkout for the last two tees');
select is(private.merch_left(tests.id('tee')), 0, 'an open checkout holds what it sells');
select is(
  tests.open_merch_order('fan2', jsonb_build_array(tests.merch('tee')), 'cs_test_tee_2') -> 'problems' -> 0 ->> 'problem',
  'sold_out',
  'the next fan is told it sold out before paying, and no order is opened');

-- Ended through the marketplace (the buyer came back without paying), the checkout lets go of its hold.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select is(
  tests.as_marketplace($$select to_jsonb(public.checkout_to_end((select id from public.orders where checkout_session = 'cs_test_tee')))$$),
  '"cs_test_tee"'::jsonb,
  'the marketplace finds the buyer''s open checkout to end');
select set_config('request.jwt.claims', '', true);
select tests.as_marketplace($$select public.apply_checkout('cs_test_tee', 'expired')$$);
select is(private.merch_left(tests.id('tee')), 2, 'an ended checkout lets go of what it held');

-- Paid, the order keeps the address the payment collected; a refund gives its tees back.
select tests.open_merch_order('fan2', jsonb_build_array(tests.merch('tee')), 'cs_test_tee_3');
select tests.as_marketplace($$select public.apply_checkout('cs_test_tee_3', 'paid', 'pi_test_tee', 'DE', null, null, null,
  '{"name": "Ada", "line1": "Hauptstraße 1", "city": "Berlin", "postal_code": "10115", "country": "DE"}')$$);
select is(
  (select jsonb_build_array(o.state, o.ship_to, o.shipping_address ->> 'city') from public.orders o where o.checkout_session = 'cs_test_tee_3'),
  '["paid", "DE", "Berlin"]'::jsonb,
  'a paid order keeps where its merch goes');
select is(private.merch_left(tests.id('tee')), 1, 'a paid order keeps what it bought');
update public.order_lines set refunded_at = now()
where order_id = (select id from public.orders where checkout_session = 'cs_test_tee_3');
select is(private.merch_left(tests.id('tee')), 2, 'a refunded line gives its merch back');

-- A checkout nobody ended lapses at Stripe within 30 minutes: its hold goes with it, news or not.
select tests.open_merch_order('fan', jsonb_build_array(tests.merch('tee', 2)), 'cs_test_tee_4');
update public.orders set created_at = now() - interval '40 minutes' where checkout_session = 'cs_test_tee_4';
select is(private.merch_left(tests.id('tee')), 2, 'a lapsed checkout holds nothing');

-- Sent, a line leaves the stock (it no longer holds it) and its buyer is told, once however often it is marked.
select tests.open_merch_order('fan2', jsonb_build_array(tests.merch('tee')), 'cs_test_tee_5');
select tests.as_marketplace($$select public.apply_checkout('cs_test_tee_5', 'paid', 'pi_test_tee_5')$$);
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
select tests.as_marketplace($$select to_jsonb(public.mark_shipped(
  (select l.id from public.order_lines l join public.orders o on o.id = l.order_id where o.checkout_session = 'cs_test_tee_5'), ' 1Z999 '))$$)
from generate_series(1, 2);
select set_config('request.jwt.claims', '', true);
select is(
  (select jsonb_build_array(m.stock, private.merch_left(m.id)) from public.merch m where m.id = tests.id('tee')),
  '[1, 1]'::jsonb,
  'a shipped tee leaves the stock and is held no more');
select is(
  (select jsonb_build_array(l.tracking, (select count(*) from private.mails ml where ml.order_line_id = l.id and ml.kind = 'shipped'))
   from public.order_lines l join public.orders o on o.id = l.order_id where o.checkout_session = 'cs_test_tee_5'),
  '["1Z999", 1]'::jsonb,
  'the tracking number is kept and the buyer told once');
select is(
  (select count(*)::integer from public.merch_orders()),
  0,
  'nobody signed in reads merch orders');

select is(
  (tests.open_merch_order('fan2', jsonb_build_array(tests.merch('poster')), 'cs_test_poster_2') ->> 'expires_at')::bigint,
  floor(extract(epoch from now() + private.checkout_lasts()))::bigint,
  'a checkout is paid by the time its order''s hold ends');

-- A buyer's new checkout ends their earlier open ones: what those held is theirs to take again, and the
-- marketplace is told which checkouts to end with the provider.
select is(tests.open_merch_order('fan', jsonb_build_array(tests.merch('mug', 2)), 'cs_test_mug_1') ->> 'ended', '[]',
  'the fan opens a checkout for both mugs');
select is(private.merch_left(tests.id('mug')), 0, 'their checkout holds both mugs');
select is(tests.open_merch_order('fan', jsonb_build_array(tests.merch('mug', 2)), 'cs_test_mug_2') -> 'ended',
  '["cs_test_mug_1"]'::jsonb,
  'the fan''s second checkout for both mugs opens, and ends the first');
select is(
  (select jsonb_agg(jsonb_build_array(o.checkout_session, o.state) order by o.checkout_session) from public.orders o
   where o.checkout_session in ('cs_test_mug_1', 'cs_test_mug_2', 'cs_test_poster_open')),
  '[["cs_test_mug_1", "expired"], ["cs_test_mug_2", "open"], ["cs_test_poster_open", "expired"]]'::jsonb,
  'the buyer''s earlier checkouts are closed');
select is(private.merch_left(tests.id('mug')), 0, 'the mugs are held once, by the newer checkout alone');
select is(
  tests.open_merch_order('fan', jsonb_build_array(tests.merch('mug', 3)), 'cs_test_mug_none') -> 'problems' -> 0 ->> 'problem',
  'sold_out',
  'a checkout that cannot open is refused');
select is(
  (select o.state from public.orders o where o.checkout_session = 'cs_test_mug_2'),
  'open',
  'a checkout that cannot open leaves the earlier one standing');
select is(
  (select o.state from public.orders o where o.checkout_session = 'cs_test_poster_2'),
  'open',
  'another buyer''s checkout is not theirs to end');

-- A hold lasts as long as its checkout can be paid (the provider ends the checkout at `expires_at`), and not longer.
update public.orders set created_at = now() - private.checkout_lasts() + interval '1 second' where checkout_session = 'cs_test_mug_2';
select is(private.merch_left(tests.id('mug')), 0, 'a checkout a second short of lapsing still holds');
update public.orders set created_at = now() - private.checkout_lasts() - interval '1 second' where checkout_session = 'cs_test_mug_2';
select is(private.merch_left(tests.id('mug')), 2, 'a checkout that can no longer be paid holds nothing');

-- Paid after its hold lapsed and the mugs were sold to someone else, the order's mugs are not sold twice:
-- the line is marked for the marketplace to refund at once, which it may as whoever asks.
select tests.open_merch_order('fan2', jsonb_build_array(tests.merch('mug', 2)), 'cs_test_mug_3');
select tests.as_marketplace($$select public.apply_checkout('cs_test_mug_3', 'paid', 'pi_test_mug_3')$$);
select tests.remember('late mug line', $$
  select l.id from public.order_lines l join public.orders o on o.id = l.order_id where o.checkout_session = 'cs_test_mug_2'$$);
select is(
  tests.as_marketplace($$select public.apply_checkout('cs_test_mug_2', 'paid', 'pi_test_mug_2', null, 'evt_test_mug_2') -> 'refunds'$$),
  jsonb_build_array(tests.id('late mug line')),
  'a payment the stock no longer covers marks its merch for a refund at once');
select is(
  (select jsonb_build_array(o.state, m.stock, private.merch_left(m.id)) from public.orders o, public.merch m
   where o.checkout_session = 'cs_test_mug_2' and m.id = tests.id('mug')),
  '["paid", 2, 0]'::jsonb,
  'the order is paid, and the stock is sold to the first payer alone');
select is(
  (select count(*)::integer from private.undeliverable_lines u join public.order_lines l on l.id = u.line_id
   join public.orders o on o.id = l.order_id where o.checkout_session = 'cs_test_mug_3'),
  0,
  'the payment the hold covered is delivered');
select ok(
  tests.allowed('visitor through the marketplace', $$select 1 where public.line_to_refund(tests.id('late mug line')) ->> 'line_id' = tests.id('late mug line')::text$$),
  'the marketplace reads what refunding an undeliverable line takes, whoever asks');
select ok(
  not tests.allowed('visitor through the marketplace',
    $$select 1 where public.line_to_refund((select l.id from public.order_lines l join public.orders o on o.id = l.order_id
      where o.checkout_session = 'cs_test_mug_3')) is not null$$),
  'a delivered line is refunded by its artist or an administrator alone');
select ok(not tests.allowed('visitor', $$select 1 where public.line_to_refund(tests.id('late mug line')) is not null$$),
  'an undeliverable line is refunded through the marketplace alone');
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select tests.as_marketplace($$select to_jsonb(public.record_refund(tests.id('late mug line'), 're_test_mug'))$$);
select set_config('request.jwt.claims', '', true);
select is(
  (select jsonb_build_array(l.refund_id, (select count(*) from private.mails m where m.order_line_id = l.id and m.kind = 'refund'))
   from public.order_lines l where l.id = tests.id('late mug line')),
  '["re_test_mug", 1]'::jsonb,
  'the refund is recorded and the buyer told by mail');
select is(
  tests.as_marketplace($$select public.apply_checkout('cs_test_mug_2', 'paid', 'pi_test_mug_2', null, 'evt_test_mug_2') -> 'refunds'$$),
  '[]'::jsonb,
  'a refund made is owed no more');

-- An address holds at most 3 open checkouts: the next waits until one is paid, closed or lapses.
select is(
  (select count(*)::integer from generate_series(1, 3) n
   where tests.open_guest_order('203.0.113.7', jsonb_build_array(tests.merch('poster')), 'cs_test_guest_' || n) ? 'order_id'),
  3,
  'a visitor opens three checkouts from one address');
select throws_ok(
  $$select tests.open_guest_order('203.0.113.7', jsonb_build_array(tests.merch('poster')), 'cs_test_guest_4')$$,
  '54000', 'an address holds at most 3 open checkouts',
  'the fourth from that address is refused');
select ok(
  tests.open_guest_order('203.0.113.8', jsonb_build_array(tests.merch('poster')), 'cs_test_guest_5') ? 'order_id',
  'another address opens its own');
select tests.as_marketplace($$select public.apply_checkout('cs_test_guest_1', 'expired')$$);
select ok(
  tests.open_guest_order('203.0.113.7', jsonb_build_array(tests.merch('poster')), 'cs_test_guest_4') ? 'order_id',
  'once one is closed, the address opens another');
update public.orders set created_at = now() - private.checkout_lasts() - interval '1 second'
where checkout_session in ('cs_test_guest_2', 'cs_test_guest_3');
select ok(
  tests.open_guest_order('203.0.113.7', jsonb_build_array(tests.merch('poster')), 'cs_test_guest_6') ? 'order_id',
  'a lapsed checkout counts no more');

-- A guest's checkout is ended by the marketplace naming the order (having checked the way back was the
-- one given to that guest's checkout), and by nobody else.
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select is(
  tests.as_marketplace($$select to_jsonb(public.checkout_to_end((select id from public.orders where checkout_session = 'cs_test_guest_4')))$$),
  null::jsonb,
  'a guest''s checkout is not ended for whoever names its order');
select tests.send_marketplace_headers(
  jsonb_build_object('x-guest-order', (select id from public.orders where checkout_session = 'cs_test_guest_4')));
select is(
  public.checkout_to_end((select id from public.orders where checkout_session = 'cs_test_guest_4')),
  'cs_test_guest_4',
  'a guest''s checkout is ended for the guest the marketplace vouches for');
select is(
  public.checkout_to_end((select id from public.orders where checkout_session = 'cs_test_guest_5')),
  null,
  'and that guest ends no other guest''s');
select tests.send_no_headers();
select set_config('request.jwt.claims', '', true);

-- One buyer holds at most 10 of an item at once, across an address's or an account's open checkouts: three
-- guest checkouts from one address once held 25 CDs for everyone.
select ok(
  tests.open_guest_order('198.51.100.20', jsonb_build_array(tests.merch('cd', 10)), 'cs_test_cd_1') ? 'order_id',
  'a visitor''s checkout holds 10 CDs');
select throws_ok(
  $$select tests.open_guest_order('198.51.100.20', jsonb_build_array(tests.merch('cd')), 'cs_test_cd_2')$$,
  '54000', 'at most 10 of one item are held at once by one buyer''s checkouts',
  'another checkout from that address for one more is refused');
select throws_ok(
  $$select tests.open_merch_order('fan', jsonb_build_array(tests.merch('cd')), 'cs_test_cd_3', '198.51.100.20')$$,
  '54000', 'at most 10 of one item are held at once by one buyer''s checkouts',
  'so is a signed-in buyer''s from that address');
select throws_ok(
  $$select tests.open_merch_order('fan2', jsonb_build_array(tests.merch('cd', 6), tests.merch('cd', 5)), 'cs_test_cd_4')$$,
  '54000', 'at most 10 of one item are held at once by one buyer''s checkouts',
  'one checkout naming the item twice holds no more than 10 either');
select ok(
  tests.open_guest_order('198.51.100.21', jsonb_build_array(tests.merch('cd', 10)), 'cs_test_cd_5') ? 'order_id',
  'another address holds its own');
select tests.as_marketplace($$select public.apply_checkout('cs_test_cd_1', 'expired')$$);
select ok(
  tests.open_guest_order('198.51.100.20', jsonb_build_array(tests.merch('cd', 10)), 'cs_test_cd_6') ? 'order_id',
  'once its checkout is closed, the address holds 10 again');

select * from finish();
rollback;
