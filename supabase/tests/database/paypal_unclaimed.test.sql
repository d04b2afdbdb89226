-- A PayPal payout nobody has claimed yet (payout_unclaimed, 18_payouts.sql; admin_money, 18_admin_money.sql):
-- the marketplace alone records that it waits to be claimed, once, with PayPal's time; it stays on its way,
-- its money out of the balance, and the job keeps asking after it; PayPal's return settles it failed and
-- gives the money back. Administrators alone read the payouts waiting to be claimed.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('big track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Long Player', 'Rock', 60.00, 'Out now', current_date - 1) returning id$q$);
end
$$;

-- The artist's USD balance: [available, paid out].
create function tests.usd()
returns jsonb
language sql
as $$
  select jsonb_build_array(b.available, b.paid_out) from private.balances(tests.id('artist')) b where b.currency = 'USD'
$$;

-- A $60 sale (the artist's $52.80), settled, withdrawn by PayPal and taken by PayPal, then unclaimed.
do $$
begin
  perform tests.paid_order('big track', 'cs_big');
  update public.ledger_entries set available_at = available_at - interval '8 days';
  perform tests.remember('payout',
    $q$select (tests.through_marketplace('select to_jsonb(p.id) from public.withdraw_now() p') #>> '{}')::uuid$q$);
  perform tests.through_marketplace(format('select to_jsonb(public.payout_sent(%L, %L))', tests.id('payout'), 'BATCH1'));
  perform tests.through_marketplace(
    format('select to_jsonb(public.payout_unclaimed(%L, %L))', tests.id('payout'), '2026-11-01T10:00:00Z'));
end
$$;

select tests.each_actor('record a payout unclaimed without the marketplace',
  $$select public.payout_unclaimed(tests.id('payout'), now())$$, array[]::text[]);
select tests.each_actor_through_marketplace('record a payout unclaimed',
  $$select public.payout_unclaimed(tests.id('payout'), now())$$, array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read the payouts waiting to be claimed',
  $$select 1 from jsonb_array_elements(public.admin_money(7) -> 'unclaimed')$$, array['admin']);

select plan((select count(*)::integer from tests.cases) + 9);

select * from tests.proved_cases();

select is(
  (select jsonb_build_array(p.state, p.unclaimed_at = '2026-11-01T10:00:00Z'::timestamptz) from public.payouts p
   where p.id = tests.id('payout')),
  '["sending", true]'::jsonb,
  'an unclaimed payout stays on its way, waiting since PayPal processed it');
select tests.through_marketplace(format('select to_jsonb(public.payout_unclaimed(%L, now()))', tests.id('payout')));
select is(
  (select p.unclaimed_at from public.payouts p where p.id = tests.id('payout')),
  '2026-11-01T10:00:00Z'::timestamptz,
  'it is recorded once: asked again, the time PayPal first gave stands');
select is(tests.usd(), '[0, 5280]'::jsonb, 'its money is not back in the balance while PayPal holds it');
select is(tests.through_marketplace($$select jsonb_agg(p.id) from public.payouts_to_send() p$$),
  jsonb_build_array(tests.id('payout')),
  'the job keeps asking after it');
select is(
  (select jsonb_agg(jsonb_build_array(u ->> 'artist_name', u -> 'amount', u ->> 'recipient', (u ->> 'unclaimed_at')::timestamptz))
   from jsonb_array_elements(tests.through_marketplace($$select public.admin_money(7)$$, 'admin') -> 'unclaimed') u),
  jsonb_build_array(jsonb_build_array('Owner', 5280, 'owner@tests.example', '2026-11-01T10:00:00Z'::timestamptz)),
  'administrators see it among the payouts waiting to be claimed');
select is(
  (select (p ->> 'unclaimed_at')::timestamptz
   from jsonb_array_elements(tests.through_marketplace($$select public.artist_payouts()$$) -> 'payouts') p),
  '2026-11-01T10:00:00Z'::timestamptz,
  'the artist''s Payments page reads when it began waiting');

-- PayPal returns it after 30 days: failed with the reason, the money back in the balance.
select tests.through_marketplace(format('select to_jsonb(public.payout_settled(%L, false, %L))', tests.id('payout'),
  'PayPal returned the payout: nobody claimed it within 30 days.'));
select is(
  (select jsonb_build_array(p.state, p.failure) from public.payouts p where p.id = tests.id('payout')),
  '["failed", "PayPal returned the payout: nobody claimed it within 30 days."]'::jsonb,
  'returned, it fails with the reason');
select is(tests.usd(), '[5280, 0]'::jsonb, 'and the money is back in the balance');
select is(tests.through_marketplace($$select public.admin_money(7) -> 'unclaimed'$$, 'admin'), '[]'::jsonb,
  'and it no longer waits to be claimed');

select * from finish();
rollback;
