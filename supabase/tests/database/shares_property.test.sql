-- The shares of 10,000 random carts (16_cart.sql's priced_cart, 18_ledger.sql's credits): tracks,
-- albums and merch of four artists selling in three currencies, with discount codes, bundle discounts,
-- fans paying more and merch shipped home or abroad. Each line's parts add up to its total and its
-- artist's share and Crate's part to the same total, to the cent; and a sample of them opened as orders and
-- paid, each order's total is its lines' sum and the ledger credits exactly the artists' shares.
begin;
\ir helpers.sql

select setseed(0.4242);

do $$
declare
  seller record;
  n integer;
begin
  perform tests.new_user('gbp artist', '{"role": "artist", "artist_name": "Pounds", "paypal_email": "gbp@tests.example"}');
  perform tests.new_user('eur artist', '{"role": "artist", "artist_name": "Euros", "paypal_email": "eur@tests.example"}');
  update public.artist_payout_settings set payment_settings = payment_settings || '{"default_currency": "GBP"}'
  where artist_id = tests.id('gbp artist');
  update public.artist_payout_settings set payment_settings = payment_settings || '{"default_currency": "EUR"}'
  where artist_id = tests.id('eur artist');
  for seller in select unnest(array['artist', 'other artist', 'gbp artist', 'eur artist']) as name loop
    insert into public.store_settings (artist_id, discounts, bundling) values (
      tests.id(seller.name),
      jsonb_build_array(jsonb_build_object('id', 'a', 'code', upper(replace(seller.name, ' ', '')),
        'percentage', 5 + floor(random() * 60)::integer, 'validUntil', null, 'active', true)),
      jsonb_build_object('enabled', true, 'discountPercentage', 1 + floor(random() * 40)::integer));
    for n in 1..6 loop
      insert into public.tracks (artist_id, title, genre, price, allow_pay_more, description, release_date)
      values (tests.id(seller.name), seller.name || ' song ' || n, 'Rock', round((0.5 + random() * 20)::numeric, 2),
        random() < 0.5, 'For the property test', current_date - 1);
    end loop;
    for n in 1..2 loop
      insert into public.merch (artist_id, title, price, allow_pay_more, description, ships_from, shipping_home, shipping_elsewhere)
      values (tests.id(seller.name), seller.name || ' shirt ' || n, round((5 + random() * 40)::numeric, 2), random() < 0.5,
        'Cotton', 'GB', round((random() * 6)::numeric, 2), round((random() * 15)::numeric, 2));
    end loop;
  end loop;
end
$$;

-- The items on offer: their kind, id, price in cents and whether fans may pay more.
create table tests.offer as
select 'track' as kind, t.id, round(t.price * 100)::integer as cents, t.allow_pay_more from public.tracks t
where t.description = 'For the property test'
union all
select 'merch', m.id, round(m.price * 100)::integer, m.allow_pay_more from public.merch m where m.description = 'Cotton';

-- 10,000 carts of 1 to 6 random lines (a random quantity of merch, and more than the price now and then
-- where fans may pay more), with every artist's code typed in one cart in three, to a random country.
create table tests.carts as
select c.cart, jsonb_agg(jsonb_build_object('kind', o.kind, 'id', o.id,
    'quantity', case when o.kind = 'merch' then 1 + floor(random() * 3)::integer else 1 end,
    'amount', case when o.allow_pay_more and random() < 0.5 then o.cents + floor(random() * 500)::integer end)) as lines,
  case when random() < 0.33 then array['ARTIST', 'OTHERARTIST', 'GBPARTIST', 'EURARTIST'] else '{}' end as codes,
  (array['GB', 'DE', 'US'])[1 + floor(random() * 3)::integer] as ship_to
from generate_series(1, 10000) c(cart)
cross join lateral (
  -- 1 to 6 different items, drawn afresh for each cart (the cart's number makes the draw its own).
  select o.* from tests.offer o where c.cart > 0 order by random() limit 1 + floor(random() * 6)::integer
) o
group by c.cart;

create table tests.priced as
select c.cart, l.value as line
from tests.carts c
cross join lateral jsonb_array_elements(private.priced_cart(c.lines, c.codes, tests.id('fan'), c.ship_to) -> 'lines') l;

select plan(8);

select is((select count(distinct cart)::integer from tests.priced), 10000, '10,000 carts are priced');
select ok(
  (select count(*) filter (where (line ->> 'code_discount')::integer > 0) > 1000
      and count(*) filter (where (line ->> 'bundle_discount')::integer > 0) > 1000
      and count(*) filter (where (line ->> 'unit')::integer > (line ->> 'minimum')::integer) > 1000
      and count(*) filter (where (line ->> 'shipping')::integer > 0) > 1000
      and count(distinct line ->> 'currency') = 3
   from tests.priced),
  'the carts take codes, bundles, fans paying more and shipping, in three currencies');
select is(
  (select count(*)::integer from tests.priced
   where (line ->> 'total')::integer <> (line ->> 'amount')::integer - (line ->> 'code_discount')::integer
     - (line ->> 'bundle_discount')::integer + (line ->> 'shipping')::integer),
  0,
  'every line''s total is its price less its discounts with its shipping');
select is(
  (select count(*)::integer from tests.priced
   where (line ->> 'artist_share')::integer + (line ->> 'crate_part')::integer <> (line ->> 'total')::integer
     or (line ->> 'artist_share')::integer < 0 or (line ->> 'crate_part')::integer < 0),
  0,
  'every line''s artist''s share and Crate''s part make its total exactly, neither below zero');
select is(
  (select count(*)::integer from tests.priced
   where (line ->> 'artist_share')::integer <> round(((line ->> 'total')::integer - (line ->> 'shipping')::integer)
       * case when line ->> 'kind' = 'merch' then 0.92 else 0.88 end) + (line ->> 'shipping')::integer),
  0,
  'every artist''s share is 88% of a download''s or 92% of merch''s price after discounts, with all of the shipping');

-- A sample opened as the fan's orders (one per currency of each cart) and paid.
do $$
declare
  sample record;
  opened jsonb;
  n integer := 0;
begin
  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
  perform tests.send_marketplace_headers();
  for sample in
    select c.cart, c.lines, c.codes, c.ship_to, currency
    from tests.carts c
    cross join lateral (select distinct p.line ->> 'currency' as currency from tests.priced p where p.cart = c.cart) cur
    where c.cart <= 300
  loop
    opened := public.open_order(sample.lines, sample.codes, sample.currency, false, false, null, sample.ship_to);
    if opened ? 'order_id' then
      n := n + 1;
      perform public.attach_checkout((opened ->> 'order_id')::uuid, 'cs_property_' || n);
      perform public.apply_checkout('cs_property_' || n, 'paid', 'pi_property_' || n, 'GB');
      -- Each order bought anew: what one paid for, the next may buy again.
      delete from public.purchases p where p.user_id = tests.id('fan');
    end if;
  end loop;
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
end
$$;

select ok((select count(*) from public.orders o where o.checkout_session like 'cs_property_%' and o.state = 'paid') > 250,
  'a sample of the carts is bought as paid orders');
select is(
  (select count(*)::integer from public.orders o
   where o.checkout_session like 'cs_property_%'
     and o.total_cents <> (select sum(l.total_cents) from public.order_lines l where l.order_id = o.id)),
  0,
  'every order''s total is the sum of its lines');
select is(
  (select count(*)::integer from public.order_lines l
   join public.orders o on o.id = l.order_id and o.checkout_session like 'cs_property_%' and o.state = 'paid'
   left join public.ledger_entries e on e.order_line_id = l.id and e.kind = 'sale'
   where e.amount_cents is distinct from l.artist_share_cents or e.artist_id <> l.artist_id or e.currency <> o.currency),
  0,
  'the ledger credits each paid line''s artist exactly their share, in the order''s currency');

select * from finish();
rollback;
