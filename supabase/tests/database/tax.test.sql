-- Tax as the seller (17_fulfilment.sql, 18_admin_money.sql): the tax a paid checkout added is kept on its
-- lines once, in the order the checkout listed them, the shipping's shared between the merch lines by their
-- shipping; its receipt lists it by tax, country and rate; a refund gives it back with the line; only
-- administrators read what was collected, for filing.
begin;
\ir helpers.sql

do $$
begin
  perform tests.new_user('fan2', '{"role": "fan", "username": "second-listener"}');
  perform tests.new_user('fan3', '{"role": "fan", "username": "third-listener"}');
  insert into public.store_settings (artist_id, discounts) values (
    tests.id('artist'), '[{"id": "a", "code": "HALF", "percentage": 50, "validUntil": null, "active": true}]');
  perform tests.remember('tee', $q$
    insert into public.merch (artist_id, title, price, description, stock, ships_from, shipping_home, shipping_elsewhere)
    values (tests.id('artist'), 'Tee', 15.00, 'Cotton', 5, 'GB', 3.00, 8.00) returning id$q$);
  perform tests.remember('single', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Single', 'Rock', 2.00, 'Out now', current_date - 1) returning id$q$);
end
$$;

-- The fan's order of the single and two tees shipped to Germany, its checkout attached.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
do $$
begin
  perform tests.remember('order', $q$
    select (public.open_order(jsonb_build_array(
      jsonb_build_object('kind', 'track', 'id', tests.id('single')),
      jsonb_build_object('kind', 'merch', 'id', tests.id('tee'), 'quantity', 2)), '{}', 'USD', false, true, null, 'DE') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('order'), 'cs_test_taxed', 'stripe');
end
$$;
select set_config('request.jwt.claims', '', true);
-- Paid with Germany's VAT: 38¢ on the single, $5.70 on the tees, $3.04 on their $16 shipping.
select public.apply_checkout('cs_test_taxed', 'paid', 'pi_test_taxed', 'DE', 'evt_taxed', 'checkout.session.completed', null, null,
  '{"lines": [{"amount": 38, "rate": 19, "name": "VAT", "country": "DE"}, {"amount": 570, "rate": 19, "name": "VAT", "country": "DE"}],
    "shipping": {"amount": 304, "rate": 19, "name": "VAT", "country": "DE"}}');
select tests.send_no_headers();

-- The same order, another fan's, paid where prices include the tax (STRIPE_TAX=included): 32¢ of the
-- single's $2, $4.79 of the tees' $30 and $2.55 of their $16 shipping.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan2'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
do $$
begin
  perform tests.remember('included order', $q$
    select (public.open_order(jsonb_build_array(
      jsonb_build_object('kind', 'track', 'id', tests.id('single')),
      jsonb_build_object('kind', 'merch', 'id', tests.id('tee'), 'quantity', 2)), '{}', 'USD', false, true, null, 'DE') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('included order'), 'cs_test_included', 'stripe');
end
$$;
select set_config('request.jwt.claims', '', true);
select public.apply_checkout('cs_test_included', 'paid', 'pi_test_included', 'DE', 'evt_included', 'checkout.session.completed', null,
  null, '{"included": true, "lines": [{"amount": 32, "rate": 19, "name": "VAT", "country": "DE"},
    {"amount": 479, "rate": 19, "name": "VAT", "country": "DE"}], "shipping": {"amount": 255, "rate": 19, "name": "VAT", "country": "DE"}}');
-- A third fan's single at half price with the code HALF, its $1 including 16¢ of VAT: the price and the
-- code's discount go back to before tax in proportion.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan3'), 'role', 'authenticated')::text, true);
do $$
begin
  perform tests.remember('discounted order', $q$
    select (public.open_order(jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id('single'))), '{HALF}', 'USD', false,
      true) ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('discounted order'), 'cs_test_discounted', 'stripe');
end
$$;
select set_config('request.jwt.claims', '', true);
select public.apply_checkout('cs_test_discounted', 'paid', 'pi_test_discounted', 'DE', null, null, null, null,
  '{"included": true, "lines": [{"amount": 16, "rate": 19, "name": "VAT", "country": "DE"}], "shipping": null}');
select tests.send_no_headers();

select tests.each_actor('read what tax was collected', $$select 1 from public.tax_collected(30)$$, array['admin']);

select plan((select count(*)::integer from tests.cases) + 10);

select * from tests.proved_cases();

select tests.send_marketplace_headers();
select is(
  (select jsonb_agg(jsonb_build_array(l.kind, l.total_cents, l.tax_cents, l.tax_rate, l.tax_name, l.tax_country) order by l.position)
   from public.order_lines l where l.order_id = tests.id('order')),
  '[["track", 200, 38, 19, "VAT", "DE"], ["merch", 4600, 874, 19, "VAT", "DE"]]'::jsonb,
  'each line keeps its tax, in the order the checkout listed them, the merch its shipping''s too');
select is((select tax_cents from public.orders where id = tests.id('order')), 912, 'the order keeps the sum');
select is(
  (select jsonb_agg(l.artist_share_cents order by l.position) from public.order_lines l where l.order_id = tests.id('order')),
  '[176, 4360]'::jsonb, 'the artists'' shares are of the prices before tax');
-- The same news again, or other news, records nothing more.
select public.apply_checkout('cs_test_taxed', 'paid', 'pi_test_taxed', 'DE', null, null, null, null,
  '{"lines": [{"amount": 1, "rate": 5, "name": "GST", "country": "CA"}], "shipping": null}');
select is((select tax_cents from public.orders where id = tests.id('order')), 912, 'the tax is kept once');
select tests.send_no_headers();
select is((tests.through_marketplace($q$select public.line_to_refund((select id from public.order_lines
    where order_id = tests.id('order') and kind = 'track'))$q$, 'admin') ->> 'total')::integer,
  238, 'a line''s refund gives its tax back with it');
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('admin'), 'role', 'authenticated',
  'app_metadata', (select u.raw_app_meta_data from auth.users u where u.id = tests.id('admin')))::text, true);

select is(
  (select jsonb_agg(jsonb_build_array(l.amount_cents, l.shipping_cents, l.total_cents, l.tax_cents, l.artist_share_cents, l.crate_cents)
    order by l.position)
   from public.order_lines l where l.order_id = tests.id('included order')),
  '[[168, 0, 168, 32, 148, 20], [2521, 1345, 3866, 734, 3664, 202]]'::jsonb,
  'a line whose price included its tax is kept before tax, its artist''s share of that');
select is(
  (select jsonb_build_array(l.amount_cents, l.code_discount_cents, l.total_cents, l.tax_cents, l.artist_share_cents, l.crate_cents)
   from public.order_lines l where l.order_id = tests.id('discounted order')),
  '[168, 84, 84, 16, 74, 10]'::jsonb, 'a discounted line whose price included its tax keeps its discount in proportion, before tax');
select is((select jsonb_build_array(total_cents, tax_cents) from public.orders where id = tests.id('included order')), '[4034, 766]'::jsonb,
  'its order''s total is before tax too: the buyer paid the prices, total and tax');
select is(
  (select jsonb_agg(jsonb_build_array(country, tax_name, rate, currency, sales, tax, refunded_tax)) from public.tax_collected(30)),
  '[["DE", "VAT", 19, "USD", 8918, 1694, 0]]'::jsonb, 'administrators read the tax collected by country, tax and rate');
select is((select sum(amount_cents)::integer from public.ledger_entries where artist_id = tests.id('artist') and kind = 'sale'),
  176 + 4360 + 148 + 3664 + 74, 'the ledger credits the shares before tax');

select * from finish();
rollback;
