-- Discount codes in the cart (16_cart.sql, 16_orders.sql): a code's uses count every checkout that took it,
-- its own buyer's open one too, until it lapses or fails; a code says what it did only for its artist's lines
-- in the caller's cart, and any other reads exactly as a code that does not exist; typing codes is limited
-- per account and per address; a code is paid no more often than its uses, whenever a payment lands (a line
-- paid with a use another order took meanwhile is refunded at once).
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Elsewhere', 'Rock', 3.00, 'Out now', current_date - 1) returning id$q$);
  insert into public.store_settings (artist_id, discounts) values (
    tests.id('artist'),
    '[{"id": "a", "code": "HALF", "percentage": 50, "validUntil": null, "active": true},
      {"id": "b", "code": "OLD", "percentage": 20, "validUntil": "2001-01-01", "active": true},
      {"id": "c", "code": "OFF", "percentage": 30, "validUntil": null, "active": false},
      {"id": "d", "code": "ONCE", "percentage": 10, "validUntil": null, "active": true, "maxUses": 1}]');
end
$$;

create function tests.line(name text)
returns jsonb
language sql
as $$
  select jsonb_build_object('kind', 'track', 'id', tests.id(name))
$$;

-- What price_cart says of each code typed, as `actor` ('visitor' or a fixture, through the marketplace
-- from `address` where one is given), for a cart of `lines`.
create function tests.codes_said(actor text, lines jsonb, codes text[], address text default null)
returns jsonb
language plpgsql
as $$
declare
  said jsonb;
begin
  perform set_config('request.jwt.claims', case when actor = 'visitor' then '{"role": "anon"}'
    else jsonb_build_object('sub', tests.id(actor), 'role', 'authenticated')::text end, true);
  if address is null then
    perform set_config('request.headers', '{}', true);
  else
    perform tests.send_marketplace_headers();
  end if;
  perform set_config('role', case when actor = 'visitor' then 'anon' else 'authenticated' end, true);
  said := public.price_cart(lines, codes, null, address) -> 'codes';
  execute 'reset role';
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return said;
end
$$;

-- `how_many` codes no store has, from `first` on: guesses.
create function tests.guesses(first integer, how_many integer)
returns text[]
language sql
as $$
  select array_agg('guess-' || lpad(n::text, 3, '0') order by n) from generate_series(first, first + how_many - 1) n
$$;

-- An order of `buyer`'s for `lines` with `codes`, opened and its checkout attached as the marketplace does.
create function tests.open_coded(buyer text, lines jsonb, codes text[], checkout text)
returns jsonb
language plpgsql
as $$
declare
  opened jsonb;
begin
  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id(buyer), 'role', 'authenticated')::text, true);
  perform tests.send_marketplace_headers();
  opened := public.open_order(lines, codes, 'USD');
  perform public.attach_checkout((opened ->> 'order_id')::uuid, checkout);
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return opened;
end
$$;

-- What the payment provider says of a checkout, applied through the marketplace.
create function tests.checkout_news(checkout text, outcome text)
returns jsonb
language sql
as $$
  select tests.as_marketplace(format('select public.apply_checkout(%L, %L, %L)', checkout, outcome, 'pi_' || checkout))
$$;

-- The lines of a checkout's order.
create function tests.checkout_lines(checkout text)
returns jsonb
language sql
as $$
  select coalesce(jsonb_agg(l.id order by l.id), '[]') from public.order_lines l join public.orders o on o.id = l.order_id
  where o.checkout_session = checkout
$$;

select plan(27);

-- Uses: the buyer's own open checkout holds the code's use; a lapsed one gives it back.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
do $$
begin
  perform tests.remember('coded order', $q$
    select (public.open_order(jsonb_build_array(tests.line('track')), array['once'], 'USD') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('coded order'), 'cs_test_coded');
end
$$;
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();
select is((select code_discount_cents from public.order_lines where order_id = tests.id('coded order')), 20,
  'a checkout takes a one-use code');
select is(tests.codes_said('fan', jsonb_build_array(tests.line('track')), array['ONCE']) -> 0 ->> 'status', 'used_up',
  'while it is open, the code is used up for its own buyer too');
select is(tests.codes_said('other artist', jsonb_build_array(tests.line('track')), array['ONCE']) -> 0 ->> 'status', 'used_up',
  'and for anyone else');
select tests.send_marketplace_headers();
select public.apply_checkout('cs_test_coded', 'expired', null, null, 'evt_coded', 'checkout.session.expired');
select tests.send_no_headers();
select is(tests.codes_said('fan', jsonb_build_array(tests.line('track')), array['ONCE']) -> 0 ->> 'status', 'applied',
  'a lapsed checkout gives the use back');
update public.orders set state = 'failed' where id = tests.id('coded order');
select is(tests.codes_said('fan', jsonb_build_array(tests.line('track')), array['ONCE']) -> 0 ->> 'status', 'applied',
  'and so does a failed payment');
update public.orders set state = 'pending' where id = tests.id('coded order');
select is(tests.codes_said('fan', jsonb_build_array(tests.line('track')), array['ONCE']) -> 0 ->> 'status', 'used_up',
  'a payment still settling holds it');

-- No oracle: outside its artist's lines in the cart, every code reads as one that does not exist.
select is(tests.codes_said('visitor', '[]', array['HALF', 'OLD', 'OFF', 'ONCE', 'NOPE'], '192.0.2.1'),
  '[{"code": "HALF", "artist_name": null, "status": "unknown"}, {"code": "NOPE", "artist_name": null, "status": "unknown"},
    {"code": "OFF", "artist_name": null, "status": "unknown"}, {"code": "OLD", "artist_name": null, "status": "unknown"},
    {"code": "ONCE", "artist_name": null, "status": "unknown"}]'::jsonb,
  'a visitor with an empty cart learns nothing of any code: each reads as unknown');
select is(
  (select jsonb_agg(c - 'code') from jsonb_array_elements(tests.codes_said('fan', jsonb_build_array(tests.line('other track')),
    array['HALF', 'OLD', 'OFF', 'ONCE', 'NOPE'])) c),
  (select jsonb_agg(jsonb_build_object('artist_name', null, 'status', 'unknown')) from generate_series(1, 5)),
  'a buyer with nothing of the code''s artist in the cart learns nothing either');
select is(
  (select jsonb_object_agg(c ->> 'code', c ->> 'status') from jsonb_array_elements(tests.codes_said('fan',
    jsonb_build_array(tests.line('track'), tests.line('other track')), array['HALF', 'OLD', 'OFF', 'NOPE'])) c),
  '{"HALF": "applied", "OLD": "expired", "OFF": "inactive", "NOPE": "unknown"}'::jsonb,
  'with a line of its artist in the cart, a code says what it did');

-- Typing codes is limited: 30 different codes in 10 minutes an account (the administrator here, through
-- the API itself), 60 an address (as the marketplace names it).
select is(
  (select jsonb_agg(distinct c ->> 'status') from generate_series(0, 2) batch,
     jsonb_array_elements(tests.codes_said('admin', '[]', tests.guesses(1 + batch * 10, 10))) c),
  '["unknown"]'::jsonb, 'an account types 30 codes');
select is(tests.codes_said('admin', '[]', array['guess-031']),
  '[{"code": "guess-031", "artist_name": null, "status": "too_many"}]'::jsonb, 'and the next one is not looked up');
select is(
  (select jsonb_object_agg(c ->> 'code', c - 'code') from jsonb_array_elements(tests.codes_said('admin',
    jsonb_build_array(tests.line('track')), array['guess-005', 'HALF'])) c),
  '{"guess-005": {"artist_name": null, "status": "unknown"}, "HALF": {"artist_name": null, "status": "too_many"}}'::jsonb,
  'a code typed in the window already is answered again; a new one, even a real one, is not');
select is(tests.codes_said('other artist', '[]', array['guess-031']) -> 0 ->> 'status', 'unknown',
  'another account is not held by that account''s limit');
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('admin'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
select is(
  public.open_order(jsonb_build_array(tests.line('track')), array['HALF'], 'USD') -> 'lines' -> 0 -> 'total', '199'::jsonb,
  'a checkout opened past the account''s limit takes no new code');
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();
select is(
  (select jsonb_agg(c ->> 'status' order by c ->> 'code') from generate_series(0, 6) batch,
     jsonb_array_elements(tests.codes_said('visitor', '[]', tests.guesses(101 + batch * 10, 10), '198.51.100.7')) c
   where c ->> 'code' in ('guess-160', 'guess-161')),
  '["unknown", "too_many"]'::jsonb, 'visitors from one address type 60 codes, and no more');
select is(tests.codes_said('visitor', '[]', array['guess-161'], '198.51.100.8') -> 0 ->> 'status', 'unknown',
  'while another address still may');
update private.discount_code_tries set tried_at = tried_at - interval '11 minutes';
select is(tests.codes_said('admin', '[]', array['guess-031']) -> 0 ->> 'status', 'unknown', 'ten minutes on, codes are answered again');

-- A one-use code is paid once, whatever the timing. The fan opens a checkout with it, then another (which
-- ends the first, giving its use back, and takes it); the first is paid all the same (in another tab
-- before the provider ended it, or its news came late): the use is the second's, so the first's line is
-- refunded at once, and the second's payment keeps it.
select tests.remember('second track', $q$
  insert into public.tracks (artist_id, title, genre, price, description, release_date)
  values (tests.id('artist'), 'Second', 'Rock', 2.00, 'Out now', current_date - 1) returning id$q$);
update public.store_settings
set discounts = discounts || '[{"id": "e", "code": "SOLO", "percentage": 10, "validUntil": null, "active": true, "maxUses": 1},
  {"id": "f", "code": "SPARE", "percentage": 10, "validUntil": null, "active": true, "maxUses": 1},
  {"id": "g", "code": "LAST", "percentage": 10, "validUntil": null, "active": true, "maxUses": 1}]'
where artist_id = tests.id('artist');
select is(tests.open_coded('fan', jsonb_build_array(tests.line('track')), array['SOLO'], 'cs_test_solo_a') -> 'lines' -> 0 -> 'total',
  '179'::jsonb, 'the fan''s first checkout takes the one-use code');
select is(
  (select jsonb_build_array(o -> 'ended', o -> 'lines' -> 0 -> 'total')
   from tests.open_coded('fan', jsonb_build_array(tests.line('second track')), array['SOLO'], 'cs_test_solo_b') o),
  '[["cs_test_solo_a"], 180]'::jsonb,
  'their second checkout ends the first and takes the code''s use it gave back');
select is(tests.checkout_news('cs_test_solo_a', 'paid') -> 'refunds', tests.checkout_lines('cs_test_solo_a'),
  'the first checkout paid after the second opened: its line is marked for a refund at once');
select is(
  (select jsonb_build_array(o.state, (select count(*) from public.purchases p join public.order_lines l on l.id = p.order_line_id
     where l.order_id = o.id)) from public.orders o where o.checkout_session = 'cs_test_solo_a'),
  '["paid", 0]'::jsonb,
  'the payment is taken, and the line gives nothing while it is refunded');
select is(tests.checkout_news('cs_test_solo_b', 'paid') -> 'refunds', '[]'::jsonb,
  'the second checkout''s payment keeps the use it took');
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select tests.send_marketplace_headers();
select public.record_refund((tests.checkout_lines('cs_test_solo_a') ->> 0)::uuid, 're_test_solo');
select tests.send_no_headers();
select set_config('request.jwt.claims', '', true);
select is(
  (select count(*)::integer from private.mails m where m.order_line_id = (tests.checkout_lines('cs_test_solo_a') ->> 0)::uuid
     and m.kind = 'refund'),
  1,
  'the marketplace refunds it, and the buyer is told by mail');

-- Paid after it lapsed, an order keeps a use nobody took meanwhile, and is refunded for one another buyer
-- took meanwhile.
select tests.open_coded('admin', jsonb_build_array(tests.line('second track')), array['SPARE'], 'cs_test_spare');
select tests.checkout_news('cs_test_spare', 'expired');
select is(tests.checkout_news('cs_test_spare', 'paid') -> 'refunds', '[]'::jsonb,
  'an order paid after it lapsed keeps a use nobody took meanwhile');
select tests.open_coded('fan', jsonb_build_array(tests.line('track')), array['LAST'], 'cs_test_last_fan');
select tests.checkout_news('cs_test_last_fan', 'expired');
select is(
  tests.open_coded('admin', jsonb_build_array(tests.line('track')), array['LAST'], 'cs_test_last_other') -> 'lines' -> 0 -> 'total',
  '179'::jsonb,
  'another buyer takes the use the lapsed checkout gave back');
select is(tests.checkout_news('cs_test_last_fan', 'paid') -> 'refunds', tests.checkout_lines('cs_test_last_fan'),
  'the lapsed checkout paid after that is refunded at once');
select is(tests.checkout_news('cs_test_last_other', 'paid') -> 'refunds', '[]'::jsonb,
  'and the other buyer''s payment keeps the use');

select * from finish();
rollback;
