-- A checkout's total is at least its currency's minimum charge, or free (16_orders.sql, open_order): a
-- total a discount took under it is refused before the payment provider, which would refuse it.
begin;
\ir helpers.sql

insert into public.store_settings (artist_id, discounts) values (
  tests.id('artist'),
  '[{"id": "a", "code": "EIGHTY", "percentage": 80, "validUntil": null, "active": true},
    {"id": "b", "code": "SEVENTY", "percentage": 70, "validUntil": null, "active": true},
    {"id": "c", "code": "ALL", "percentage": 100, "validUntil": null, "active": true}]');

-- The fan's checkout of the artist's 1.99 USD track with `code`, as the marketplace opens it.
create function tests.checkout_with(code text)
returns jsonb
language sql
as $$
  select tests.through_marketplace(format($q$select public.open_order(
    jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id('track'))), array[%L], 'USD', false, false)$q$, code), 'fan')
$$;

select plan(5);

select is(
  array[private.minimum_charge_cents('USD'), private.minimum_charge_cents('EUR'), private.minimum_charge_cents('GBP')],
  array[50, 50, 30],
  'the smallest payment is Stripe''s: 0.50 in dollars and euros, 0.30 in pounds');

select throws_ok(
  $$select tests.checkout_with('EIGHTY')$$,
  '54000', 'a payment is at least the currency''s minimum charge',
  'a total a code took under the minimum charge (0.40 of 0.50) is refused');

select is(
  (select count(*) from public.orders where buyer_id = tests.id('fan'))::integer, 0,
  'and no order is opened for it');

select is((tests.checkout_with('SEVENTY') ->> 'total')::integer, 60, 'a total at the minimum or over it opens (0.60)');

select is((tests.checkout_with('ALL') ->> 'total')::integer, 0, 'a free order is no payment, and opens');

select * from finish();
rollback;
