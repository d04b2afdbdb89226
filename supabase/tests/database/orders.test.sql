-- Orders (16_cart.sql, 16_orders.sql, 17_fulfilment.sql): a cart is its owner's alone; a cart's price comes
-- from the catalog and the store's settings (pay-more, codes, bundles, each artist's share), never from the
-- caller; orders are opened and their checkouts applied through the marketplace alone, once per event, making
-- purchases once; buyers read their orders and their lines (artists list theirs through `sales`),
-- administrators every order, no one else.
begin;
\ir helpers.sql

do $$
begin
  -- The artist's album: two released tracks (1.50 and 2.50) and no album price; a single that lets fans
  -- pay more; the store's codes and its bundle discount. The other artist's store has a code of its own.
  perform tests.remember('album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Long Player') returning id$q$);
  perform tests.remember('side a', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Side A', 1, 'Rock', 1.50, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('side b', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Side B', 2, 'Rock', 2.50, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('pay more', $q$
    insert into public.tracks (artist_id, title, genre, price, allow_pay_more, description, release_date)
    values (tests.id('artist'), 'Pay What You Like', 'Rock', 1.00, true, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Elsewhere', 'Rock', 3.00, 'Out now', current_date - 1) returning id$q$);
  insert into public.store_settings (artist_id, discounts, bundling) values (
    tests.id('artist'),
    '[{"id": "a", "code": "HALF", "percentage": 50, "validUntil": null, "active": true},
      {"id": "b", "code": "OLD", "percentage": 20, "validUntil": "2001-01-01", "active": true},
      {"id": "c", "code": "OFF", "percentage": 30, "validUntil": null, "active": false}]',
    '{"enabled": true, "discountPercentage": 10}');
  insert into public.store_settings (artist_id, discounts) values (
    tests.id('other artist'), '[{"id": "d", "code": "THEIRS", "percentage": 10, "validUntil": null, "active": true}]');
end
$$;

create function tests.line(kind text, name text, amount integer default null)
returns jsonb
language sql
as $$
  select jsonb_build_object('kind', kind, 'id', tests.id(name), 'amount', amount)
$$;

-- Carts: each signed-in account keeps its own, and only its own.
select tests.each_actor('add to one''s cart',
  $$insert into public.cart_lines (kind, item_id) values ('track', tests.id('other track'))$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('add to one''s cart while banned', 'banned fan',
  $$insert into public.cart_lines (kind, item_id) values ('track', tests.id('track'))$$, false);
select tests.each_actor('add to another''s cart',
  $$insert into public.cart_lines (user_id, kind, item_id) values (tests.id('fan'), 'track', tests.id('other track'))$$,
  array['fan']);
select tests.each_actor('put lines into one''s cart',
  $$select 1 where public.add_to_cart(jsonb_build_array(tests.line('track', 'other track', 350))) >= 1$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('put lines into one''s cart while banned', 'banned fan',
  $$select 1 where public.add_to_cart(jsonb_build_array(tests.line('track', 'other track'))) >= 1$$, false);
insert into public.cart_lines (user_id, kind, item_id) values
  (tests.id('fan'), 'track', tests.id('track')), (tests.id('fan'), 'track', tests.id('pay more'));
select tests.each_actor('price the lines one brings (a visitor''s cookie)',
  $$select 1 where jsonb_array_length(public.price_cart(jsonb_build_array(tests.line('track', 'track'))) -> 'lines') = 1$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('price one''s own cart', $$select 1 where jsonb_array_length(public.price_cart() -> 'lines') = 2$$, array['fan']);
select tests.each_actor('read a fan''s cart', $$select 1 from public.cart_lines where user_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('empty a fan''s cart', $$delete from public.cart_lines where user_id = tests.id('fan')$$, array['fan']);

-- Orders: opened through the marketplace alone (which opens the payment), by anyone not banned (a
-- visitor with an email: a guest); their checkouts applied through the marketplace alone.
select tests.each_actor('open an order without the marketplace',
  $$select 1 where public.open_order(jsonb_build_array(tests.line('track', 'track')), '{}', 'USD', true, true, 'guest@tests.example') ? 'order_id'$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('open an order for another artist''s track',
  $$select 1 where public.open_order(jsonb_build_array(tests.line('track', 'other track')), '{}', 'USD', true, true, 'guest@tests.example') ? 'order_id'$$,
  array['visitor', 'artist', 'fan', 'admin']);
select tests.one_actor('open an order while banned', 'banned fan through the marketplace',
  $$select 1 where public.open_order(jsonb_build_array(tests.line('track', 'other track')), '{}', 'USD') ? 'order_id'$$, false);
select tests.each_actor('write an order directly',
  $$insert into public.orders (buyer_id, buyer_email, currency, total_cents) values (auth.uid(), 'x@tests.example', 'USD', 0)$$,
  array[]::text[]);
select tests.each_actor('make a purchase directly',
  $$insert into public.purchases (amount, track_id, user_id) values (0, tests.id('track'), auth.uid())$$, array[]::text[]);

-- A paid order of the fan's, for the reads and the checkout's outcome below.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
do $$
begin
  perform tests.remember('fan order', $q$
    select (public.open_order(jsonb_build_array(tests.line('album', 'album'), tests.line('track', 'pay more', 300)),
      '{}', 'USD') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('fan order'), 'cs_test_fan', 'stripe');
end
$$;
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

select tests.each_actor('read the fan''s order', $$select 1 from public.orders where id = tests.id('fan order')$$,
  array['fan', 'admin']);
select tests.each_actor('read the fan''s order''s lines', $$select 1 from public.order_lines where order_id = tests.id('fan order')$$,
  array['fan', 'admin']);
select tests.each_actor('read the return page''s order', $$select 1 where public.checkout_order('cs_test_fan') is not null$$,
  array['fan']);
select tests.each_actor('apply a checkout without the marketplace', $$select 1 where public.apply_checkout('cs_test_fan', 'paid') is not null$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('apply a checkout', $$select 1 where public.apply_checkout('cs_test_fan', 'paid') is not null$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);

-- What a paid order's payment added to Crate's balance (its settlement: currency, amount, the provider's fee,
-- the rate): kept through the marketplace alone, read by no one through the API.
select tests.each_actor('keep a payment''s settlement without the marketplace',
  $$select 1 from (select public.payment_settled('pi_1', 'usd', 253, 37, 1.27)) kept$$, array[]::text[]);
select tests.each_actor_through_marketplace('keep a payment''s settlement',
  $$select 1 from (select public.payment_settled('pi_1', 'usd', 253, 37, 1.27)) kept$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read the payments'' settlements', $$select 1 from private.order_settlements$$, array[]::text[]);

-- The provider's events not applied: kept and forgotten through the marketplace alone, listed to
-- administrators alone.
select tests.each_actor('keep an event not applied without the marketplace',
  $$select 1 from (select public.payment_event_outcome('stripe', 'evt_tried', 'charge.refunded', null, 'boom')) kept$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('keep an event not applied',
  $$select 1 from (select public.payment_event_outcome('stripe', 'evt_tried', 'charge.refunded', null, 'boom')) kept$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('list the events not applied', $$select 1 where public.failed_payment_events() ? 'events'$$, array['admin']);
select tests.as_marketplace($$select to_jsonb(public.payment_event_outcome('stripe', 'evt_listed', 'charge.refunded', null, 'boom'))$$);
select tests.each_actor('ask to apply a listed event again without the marketplace',
  $$select 1 where public.payment_event_to_apply('evt_listed') is not null$$, array[]::text[]);
select tests.each_actor_through_marketplace('ask to apply a listed event again',
  $$select 1 where public.payment_event_to_apply('evt_listed') ->> 'provider' = 'stripe'$$, array['admin']);

select plan((select count(*)::integer from tests.cases) + 32);

select * from tests.proved_cases();

-- Prices come from the catalog: an album without its own price costs its released tracks'; a track the
-- fan pays more for costs what they chose; two releases of the artist take its bundle's 10%; shares are
-- 88% for the artist, the rest Crate's, exactly.
create table tests.priced as
  select private.priced_cart(
    jsonb_build_array(tests.line('album', 'album'), tests.line('track', 'pay more', 250), tests.line('track', 'other track')),
    '{}', tests.id('fan')) as result;
select is(
  (select jsonb_agg(jsonb_build_array(l ->> 'title', l -> 'amount', l -> 'bundle_discount', l -> 'total', l -> 'artist_share',
     l -> 'crate_part', l -> 'currency', l -> 'problem'))
   from tests.priced, jsonb_array_elements(result -> 'lines') l),
  '[["Long Player", 400, 40, 360, 317, 43, "USD", null],
    ["Pay What You Like", 250, 25, 225, 198, 27, "USD", null],
    ["Elsewhere", 300, 0, 300, 264, 36, "USD", null]]'::jsonb,
  'a cart is priced from the catalog, with the amount chosen where fans may pay more, the bundle, and 88% for each artist');

-- What keeps a line from being bought.
select is(
  (select jsonb_agg(l -> 'problem' order by (l ->> 'n')::integer) from jsonb_array_elements(private.priced_cart(jsonb_build_array(
      tests.line('track', 'upcoming track'), tests.line('track', 'banned artist track'), tests.line('track', 'other track'),
      tests.line('track', 'pay more', 50), tests.line('track', 'pay more', 100001), tests.line('track', 'track', 300),
      jsonb_build_object('kind', 'track', 'id', 'not-an-id'), jsonb_build_object('kind', 'album', 'id', tests.id('track'))),
    '{}', tests.id('other artist')) -> 'lines') l),
  '["unavailable", "unavailable", "yours", "below_minimum", "above_maximum", "fixed_price", "unavailable", "unavailable"]'::jsonb,
  'unreleased, banned, one''s own, under the price, over 1,000, more than a fixed price, and what is not an item are refused');

-- Codes: the artist's active code takes its percentage off their lines; the others say what they are.
create table tests.coded as
  select private.priced_cart(jsonb_build_array(tests.line('track', 'pay more'), tests.line('track', 'other track')),
    array['half', ' OLD ', 'off', 'theirs', 'nope'], tests.id('fan')) as result;
select is(
  (select jsonb_agg(jsonb_build_array(l -> 'discount_code', l -> 'code_discount', l -> 'total') order by (l ->> 'n')::integer)
   from tests.coded, jsonb_array_elements(result -> 'lines') l),
  '[["HALF", 50, 50], ["THEIRS", 30, 270]]'::jsonb,
  'a code takes its percentage off its own artist''s lines alone, typed in any case');
select is(
  (select jsonb_object_agg(c ->> 'code', c ->> 'status') from tests.coded, jsonb_array_elements(result -> 'codes') c),
  '{"half": "applied", "OLD": "expired", "off": "inactive", "theirs": "applied", "nope": "unknown"}'::jsonb,
  'each code typed says what it did');
select is(
  (select c from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.line('track', 'pay more')),
    array['THEIRS'], tests.id('fan')) -> 'codes') c),
  '{"code": "THEIRS", "artist_name": null, "status": "unknown"}'::jsonb,
  'another artist''s code, with nothing of theirs in the cart, reads as unknown');

-- The bundle: two releases of one artist take its percentage off what is left of each.
select is(
  (select jsonb_agg(jsonb_build_array(l -> 'code_discount', l -> 'bundle_discount', l -> 'total', l -> 'artist_share', l -> 'crate_part')
     order by (l ->> 'n')::integer)
   from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.line('album', 'album'), tests.line('track', 'pay more')),
     array['HALF'], tests.id('fan')) -> 'lines') l),
  '[[200, 20, 180, 158, 22], [50, 5, 45, 40, 5]]'::jsonb,
  'two releases of an artist take the bundle discount after the code''s, and the shares still add up');
select is(
  (select b -> 'applies' from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.line('track', 'side a'), tests.line('track', 'pay more')),
     '{}', tests.id('fan')) -> 'bundles') b),
  'false'::jsonb, 'an album''s track bought alone is not a release of the bundle');

-- Owned: what the buyer has is not sold again.
insert into public.purchases (amount, track_id, user_id) values (1.99, tests.id('track'), tests.id('other artist'));
select is(
  (select l ->> 'problem' from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.line('track', 'track')), '{}',
    tests.id('other artist')) -> 'lines') l),
  'owned', 'a track the buyer owns is not sold again');

-- An order with a line that cannot be bought is not opened, and says which.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
select is(
  public.open_order(jsonb_build_array(tests.line('track', 'track'), tests.line('track', 'upcoming track')), '{}', 'USD'),
  jsonb_build_object('problems', jsonb_build_array(jsonb_build_object('n', 2, 'title', 'Upcoming', 'problem', 'unavailable'))),
  'an order with a line that cannot be bought says which, and opens nothing');
select is((select count(*)::integer from public.orders where buyer_id = tests.id('fan')), 1, 'only the fan''s first order was opened');
select is(
  (select jsonb_build_object('total', o.total_cents, 'email', o.buyer_email, 'lines', count(l.*)) from public.orders o
   join public.order_lines l on l.order_id = o.id where o.id = tests.id('fan order') group by o.id),
  jsonb_build_object('total', 630, 'email', (select email from auth.users where id = tests.id('fan')), 'lines', 2),
  'an order keeps its lines, its total and the buyer''s account email');

-- The checkout's outcome: paid makes the purchases once, whoever asks first and however often.
select is((select provider from public.orders where id = tests.id('fan order')), 'stripe',
  'the order names the payment provider its checkout was opened with');
select is(public.apply_checkout('cs_test_fan', 'paid', 'pi_1', 'DE', 'evt_1', 'checkout.session.completed') ->> 'state', 'paid',
  'a paid checkout pays its order');
select is(public.apply_checkout('cs_test_fan', 'paid', 'pi_1', 'DE', 'evt_1', 'checkout.session.completed') -> 'duplicate', 'true'::jsonb,
  'the same event again is taken once');
select is(public.apply_checkout('cs_test_fan', 'paid', 'pi_1', 'DE') ->> 'state', 'paid', 'the return page asking after it changes nothing');
select public.payment_settled('pi_1', 'usd', 253, 37, 1.27);
select public.payment_settled('pi_1', 'usd', 999, 99);
select public.payment_event_outcome('stripe', 'evt_failing', 'checkout.session.completed', null, 'the database was down');
select public.payment_event_outcome('stripe', 'evt_failing', 'checkout.session.completed', null, 'it was down again');
select public.payment_event_outcome('stripe', 'evt_connect', 'account.updated', 'acct_1', 'no such account');
select public.payment_event_outcome('stripe', 'evt_connect', 'account.updated', 'acct_1');
select is(
  (select jsonb_agg(jsonb_build_array(event_id, failure, attempts, account)) from private.failed_payment_events
   where event_id in ('evt_failing', 'evt_connect')),
  '[["evt_failing", "it was down again", 2, null]]'::jsonb,
  'an event that fails is kept once with its newest reason and its attempts counted');
select is((select count(*)::integer from private.failed_payment_events where event_id = 'evt_connect'), 0,
  'an event applied since is forgotten');
select is(tests.through_marketplace($$select public.payment_event_to_apply('evt_unknown')$$, 'admin'), null,
  'an event not listed is nothing to apply again');
select is(tests.through_marketplace($$select public.payment_event_to_apply('evt_listed')$$, 'admin') ->> 'provider', 'stripe',
  'a listed event is applied again by its provider');
select is((select summary from public.audit_log where action = 'payment_event.apply_again' order by created_at desc limit 1),
  'charge.refunded evt_listed', 'asking to apply an event again is in the audit log');
select is(
  (select jsonb_build_array(currency, amount_cents, fee_cents, exchange_rate) from private.order_settlements
   where order_id = tests.id('fan order')),
  '["USD", 253, 37, 1.27]'::jsonb, 'a paid order keeps its payment''s settlement once, as the provider first said it');
select is(public.apply_checkout('cs_test_fan', 'expired', null, null, 'evt_2', 'checkout.session.expired') ->> 'state', 'paid',
  'a lapsed checkout arriving late leaves a paid order paid');
select is(
  (select jsonb_agg(jsonb_build_array(t.title, p.amount, p.country) order by t.title) from public.purchases p
   join public.tracks t on t.id = p.track_id where p.user_id = tests.id('fan')),
  '[["Pay What You Like", 2.70, "DE"], ["Side A", 1.35, "DE"], ["Side B", 2.25, "DE"]]'::jsonb,
  'a paid order''s purchases are made once: an album''s tracks share its line by their prices');
select ok(exists (select 1 from public.followers where artist_id = tests.id('artist') and fan_id = tests.id('fan')),
  'the buyer follows the order''s artist');
select is((select array_agg(item_id) from public.cart_lines where user_id = tests.id('fan')), array[tests.id('track')],
  'what was bought leaves the buyer''s cart; the rest stays');
select is(public.apply_checkout('cs_test_unknown', 'paid', event_id => 'evt_unknown'), null, 'a checkout no order has changes nothing');
select ok(not exists (select 1 from private.payment_events where id = 'evt_unknown'), 'and its event is not taken, to come again');
-- News of a checkout that came before its order kept it finds the order by the id in its metadata.
do $$
begin
  perform tests.remember('early order', $q$
    select (public.open_order(jsonb_build_array(tests.line('track', 'other track')), '{}', 'USD') ->> 'order_id')::uuid$q$);
end
$$;
select is(public.apply_checkout('cs_test_early', 'paid', event_id => 'evt_early', order_id => tests.id('early order')) ->> 'state',
  'paid', 'a paid checkout its order had not kept yet pays it, found by the order id it carries');
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

-- Prices are in the artist's currency, which anyone may read (their payout settings stay theirs).
update public.artist_payout_settings set payment_settings = payment_settings || '{"default_currency": "EUR"}'
where artist_id = tests.id('other artist');
select is(
  (select l ->> 'currency' from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.line('track', 'other track')), '{}',
    tests.id('fan')) -> 'lines') l),
  'EUR', 'a line is priced in its artist''s currency');
select is(
  tests.attempt('visitor', $$select 1 from public.artist_profiles a where a.id = tests.id('other artist') and public.currency(a) = 'EUR'$$),
  'done:1', 'anyone reads an artist''s currency as a computed field');

-- One permissive policy per table, role and command (a policy for all commands counts for each), as
-- Supabase's linter asks (multiple_permissive_policies): orders and their lines read by buyers and
-- administrators through one policy each.
select is(
  (select jsonb_object_agg(p.tablename, p.policies) from (select tablename, count(*) as policies from pg_policies
    where schemaname = 'public' and tablename in ('orders', 'order_lines') and cmd = 'SELECT' group by tablename) p),
  '{"orders": 1, "order_lines": 1}'::jsonb, 'orders and order lines have one read policy each');
select is_empty($$
  select p.tablename, c.cmd, r.role
  from pg_policies p
  cross join unnest(p.roles) as r (role)
  cross join unnest(case when p.cmd = 'ALL' then array['SELECT', 'INSERT', 'UPDATE', 'DELETE'] else array[p.cmd] end) as c (cmd)
  where p.schemaname = 'public' and p.permissive = 'PERMISSIVE'
  group by p.tablename, c.cmd, r.role
  having count(*) > 1$$,
  'no table has two permissive policies for one role and command');
select * from finish();
rollback;
