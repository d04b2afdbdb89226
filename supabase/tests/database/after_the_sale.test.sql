-- After the sale (17_fulfilment.sql, 17_mail.sql, 17_refunds.sql): a paid order's mails (the receipt, "you
-- sold" to each artist) are written with it and read and marked through the marketplace alone; a buyer sends
-- their own receipt again, at most twice a minute; a sale is refunded by its artist or an administrator
-- alone, which takes its purchases away and mails the buyer; the payment's later news (a whole refund, a
-- dispute) is applied once; sales are listed to their artist and to administrators, disputes to
-- administrators. A guest's order is theirs through the receipt link the marketplace vouches for, and joins
-- the account with its email through that link.
begin;
\ir helpers.sql

create function tests.line(kind text, name text)
returns jsonb
language sql
as $$
  select jsonb_build_object('kind', kind, 'id', tests.id(name))
$$;

-- The fan's paid order: the artist's track and the other artist's; a second order, of the artist's alone.
do $$
begin
  -- (an address mail can go to: the helpers name it after the fixture, with a space)
  update auth.users set email = 'other-artist@tests.example' where id = tests.id('other artist');
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Elsewhere', 'Rock', 3.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('second track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Second', 'Rock', 2.00, 'Out now', current_date - 1) returning id$q$);
  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
  perform tests.send_marketplace_headers();
  perform tests.remember('order', $q$
    select (public.open_order(jsonb_build_array(tests.line('track', 'track'), tests.line('track', 'other track')), '{}', 'USD')
      ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('order'), 'cs_test_mail');
  perform public.apply_checkout('cs_test_mail', 'paid', 'pi_mail', 'FR', 'evt_paid', 'checkout.session.completed');
  perform tests.remember('second order', $q$
    select (public.open_order(jsonb_build_array(tests.line('track', 'second track')), '{}', 'USD') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('second order'), 'cs_test_second');
  perform public.apply_checkout('cs_test_second', 'paid', 'pi_second', 'FR', 'evt_second', 'checkout.session.completed');
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  perform tests.remember('line', $q$select id from public.order_lines where order_id = tests.id('order') and item_id = tests.id('track')$q$);
  perform tests.remember('other line', $q$
    select id from public.order_lines where order_id = tests.id('order') and item_id = tests.id('other track')$q$);
  perform tests.remember('receipt', $q$select id from private.mails where order_id = tests.id('order') and kind = 'receipt'$q$);
  -- The receipts went more than a minute ago.
  update private.mails set created_at = now() - interval '2 minutes';
  -- A guest's paid order (a visitor with an email, through the marketplace).
  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  perform tests.send_marketplace_headers();
  perform tests.remember('guest order', $q$
    select (public.open_order(jsonb_build_array(tests.line('track', 'second track')), '{}', 'USD', true, true, 'Guest@Tests.Example')
      ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('guest order'), 'cs_test_guest');
  perform public.apply_checkout('cs_test_guest', 'paid', 'pi_guest', 'FR', 'evt_guest', 'checkout.session.completed');
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  -- A sale of the banned artist's, made before the ban.
  perform tests.remember('banned order', $q$
    insert into public.orders (buyer_id, buyer_email, currency, total_cents, state, payment_intent, paid_at)
    values (tests.id('fan'), 'fan@tests.example', 'USD', 100, 'paid', 'pi_banned', now()) returning id$q$);
  perform tests.remember('banned line', $q$
    insert into public.order_lines (order_id, artist_id, kind, title, amount_cents, total_cents, artist_share_cents, crate_cents)
    values (tests.id('banned order'), tests.id('banned artist'), 'track', 'Banned Song', 100, 100, 88, 12) returning id$q$);
end
$$;

-- Mails: nobody reads the table; their content and their outcome go through the marketplace alone.
select tests.each_actor('read the mails', $$select 1 from private.mails$$, array[]::text[]);
select tests.each_actor('read a mail without the marketplace', $$select 1 where public.mail_to_send(tests.id('receipt')) is not null$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('read a mail', $$select 1 where public.mail_to_send(tests.id('receipt')) is not null$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('mark a mail sent without the marketplace',
  $$select public.mail_attempted(tests.id('receipt'), 'provider-id')$$, array[]::text[]);
-- The receipt again: the buyer's own paid order, through the marketplace.
select tests.each_actor_through_marketplace('send the fan''s receipt again',
  $$select 1 where public.send_receipt_again(tests.id('order')) is not null$$, array['fan']);
select tests.one_actor('send one''s receipt again without the marketplace', 'fan',
  $$select 1 where public.send_receipt_again(tests.id('order')) is not null$$, false);

-- Refunds: the line's artist (not banned) or an administrator, through the marketplace.
select tests.each_actor_through_marketplace('ask what refunding the artist''s line takes',
  $$select 1 where public.line_to_refund(tests.id('line')) is not null$$, array['artist', 'admin']);
select tests.each_actor_through_marketplace('refund the artist''s line',
  $$select 1 from public.record_refund(tests.id('line'), 're_test')$$, array['artist', 'admin']);
select tests.each_actor('refund the artist''s line without the marketplace',
  $$select 1 from public.record_refund(tests.id('line'), 're_test')$$, array[]::text[]);
select tests.one_actor('refund one''s sale while banned', 'banned artist through the marketplace',
  $$select 1 from public.record_refund(tests.id('banned line'), 're_test')$$, false);
select tests.each_actor('mark a line refunded directly', $$update public.order_lines set refunded_at = now() where id = tests.id('line')$$,
  array[]::text[]);
-- News of a payment: through the marketplace alone.
select tests.each_actor('apply a payment''s news without the marketplace',
  $$select 1 where public.apply_payment_news('pi_mail', 'evt_x', 'charge.refunded', 1000) is not null$$, array[]::text[]);
-- Sales: an artist's own, every artist's for administrators; disputes: administrators alone.
select tests.each_actor('list the artist''s sale', $$select 1 from public.sales() where line_id = tests.id('line')$$,
  array['artist', 'admin']);
select tests.each_actor('read every order', $$select 1 from public.orders where id = tests.id('order')$$, array['fan', 'admin']);
insert into public.order_disputes (id, order_id, amount_cents, currency, reason, status)
values ('dp_test', tests.id('second order'), 200, 'USD', 'fraudulent', 'needs_response');
select tests.each_actor('read a dispute', $$select 1 from public.order_disputes$$, array['admin']);

select plan((select count(*)::integer from tests.cases) + 35);

select * from tests.proved_cases();

-- A paid order wrote its receipt to the buyer and "you sold" to each of its two artists, once.
select is(
  (select jsonb_agg(jsonb_build_array(m.kind, m.recipient) order by m.kind, m.recipient) from private.mails m
   where m.order_id = tests.id('order')),
  jsonb_build_array(jsonb_build_array('receipt', (select email from auth.users where id = tests.id('fan'))))
    || (select jsonb_agg(jsonb_build_array('sale', email) order by email) from auth.users
        where id in (tests.id('artist'), tests.id('other artist'))),
  'a paid order writes the buyer''s receipt and "you sold" to each of its artists');

select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
select is(
  jsonb_array_length(public.apply_checkout('cs_test_mail', 'paid', 'pi_mail', 'FR', 'evt_paid', 'checkout.session.completed') -> 'mails'),
  3, 'the same event again hands back the mails not sent yet, for the queue');
select is((select count(*)::integer from private.mails where order_id = tests.id('order')), 3, 'and writes none again');

-- The receipt speaks of every line, "you sold" of the artist's own.
select is(
  (select jsonb_agg(l ->> 'title' order by l ->> 'title') from jsonb_array_elements(public.mail_to_send(tests.id('receipt')) -> 'lines') l),
  '["Elsewhere", "Released"]'::jsonb, 'a receipt lists every line');
select is(
  (select jsonb_agg(jsonb_build_array(l ->> 'title', l -> 'artist_share'))
   from private.mails m, jsonb_array_elements(public.mail_to_send(m.id) -> 'lines') l
   where m.order_id = tests.id('order') and m.kind = 'sale' and m.artist_id = tests.id('artist')),
  '[["Released", 175]]'::jsonb, '"you sold" lists the artist''s own lines and their share');
select public.mail_attempted(tests.id('receipt'), 'provider-1');
select public.mail_attempted(tests.id('receipt'), 'provider-2');
select is((select provider_id from private.mails where id = tests.id('receipt')), 'provider-1', 'a mail sent keeps its first provider id');
select is(public.mail_to_send(tests.id('receipt')) -> 'sent', 'true'::jsonb, 'and reads as sent');

-- Two a minute at most.
select ok(public.send_receipt_again(tests.id('order')) is not null, 'a buyer sends their receipt again');
select ok(public.send_receipt_again(tests.id('order')) is not null, 'and again');
select throws_ok($$select public.send_receipt_again(tests.id('order'))$$, '54000', null,
  'a third receipt within the minute is not sent');

-- A refund: the line's purchases go, the buyer is mailed, once.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
select is(public.line_to_refund(tests.id('line')) -> 'total', '199'::jsonb, 'what refunding the line takes: its total');
select ok(array_length(public.record_refund(tests.id('line'), null), 1) >= 1, 'a refund hands back the mails to queue');
select public.record_refund(tests.id('line'), 're_1');
select public.record_refund(tests.id('line'), 're_2');
select is(
  (select jsonb_build_array(l.refund_id, l.refunded_at is not null) from public.order_lines l where l.id = tests.id('line')),
  '["re_1", true]'::jsonb, 'a line is refunded once, and keeps the first refund id it is told (the webhook may tell none)');
select ok(not exists (select 1 from public.purchases where order_line_id = tests.id('line')), 'its purchases are gone');
select is((select count(*)::integer from private.mails where order_line_id = tests.id('line') and kind = 'refund'), 1,
  'the buyer is mailed of it once');

-- A whole refund made in Stripe's dashboard refunds the other lines; a dispute is kept, once per event.
select public.apply_payment_news('pi_mail', 'evt_refund', 'charge.refunded', 499);
select ok((select refunded_at is not null from public.order_lines where id = tests.id('other line')),
  'a whole refund in the provider''s dashboard refunds every line');
select public.apply_payment_news('pi_second', 'evt_dispute', 'charge.dispute.created',
  dispute => '{"id": "dp_1", "amount": 200, "currency": "usd", "reason": "fraudulent", "status": "needs_response", "closed": false}');
select public.apply_payment_news('pi_second', 'evt_dispute_closed', 'charge.dispute.closed',
  dispute => '{"id": "dp_1", "amount": 200, "currency": "usd", "reason": "fraudulent", "status": "won", "closed": true}');
select is(
  (select jsonb_build_array(d.currency, d.status, d.closed_at is not null) from public.order_disputes d where d.id = 'dp_1'),
  '["USD", "won", true]'::jsonb, 'a dispute is recorded, then closed');
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

-- A guest's order: its receipt and its downloads for whoever the marketplace vouches holds its link.
create function tests.as_guest_link(through_marketplace boolean)
returns void
language sql
as $$
  select set_config('request.jwt.claims', '{"role": "anon"}', true);
  -- (without the marketplace: the guest's order named, and no secret)
  select case when through_marketplace then tests.send_marketplace_headers(jsonb_build_object('x-guest-order', tests.id('guest order')))
    else set_config('request.headers', jsonb_build_object('x-guest-order', tests.id('guest order'))::text, true) end;
$$;
select tests.as_guest_link(true);
set local role anon;
select is(public.guest_receipt() ->> 'email', 'Guest@Tests.Example', 'the receipt link''s holder reads the guest''s order');
select throws_ok($$select * from public.download_track(tests.id('second track'))$$, 'P0002', null,
  'and may download what it bought (this one has no audio file)');
select throws_ok($$select * from public.download_track(tests.id('track'))$$, '42501', null, 'but nothing else');
reset role;
select tests.as_guest_link(false);
set local role anon;
select is(public.guest_receipt(), null, 'naming a guest order without the marketplace reads nothing');
select throws_ok($$select * from public.download_track(tests.id('second track'))$$, '42501', null, 'and downloads nothing');
reset role;
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

-- A code with a number of uses: used up once that many orders took it.
insert into public.store_settings (artist_id, discounts) values (tests.id('artist'),
  '[{"id": "a", "code": "ONCE", "percentage": 10, "validUntil": null, "active": true, "maxUses": 1}]');
insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, discount_code, code_discount_cents,
  total_cents, artist_share_cents, crate_cents)
values (tests.id('second order'), tests.id('artist'), 'track', tests.id('track'), 'Released', 199, 'ONCE', 20, 179, 158, 21);
create function tests.code_status()
returns text
language sql
as $$
  select c ->> 'status' from jsonb_array_elements(private.priced_cart(jsonb_build_array(tests.line('track', 'track')),
    array['once'], tests.id('other artist')) -> 'codes') c
$$;
select is(tests.code_status(), 'used_up', 'a code its orders have used up says so');
update public.store_settings set discounts = jsonb_set(discounts, '{0,maxUses}', '2') where artist_id = tests.id('artist');
select is(tests.code_status(), 'applied', 'and applies while uses are left');
select throws_ok($$update public.store_settings set discounts = jsonb_set(discounts, '{0,maxUses}', '0') where artist_id = tests.id('artist')$$,
  '23514', null, 'a code''s uses are a whole number of at least one');

-- A paid order's MP3s are asked for, through the marketplace alone, once; an order never paid asks for none
-- (opening checkouts makes nobody's files).
update public.tracks set file_url = tests.audio_of('artist') where id = tests.id('second track');
select throws_ok($$select public.prepare_order_files(tests.id('second order'))$$, '28000', null,
  'only the marketplace asks for an order''s files');
select tests.send_marketplace_headers();
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('other artist'), 'role', 'authenticated')::text, true);
select tests.remember('unpaid order', $q$
  select (public.open_order(jsonb_build_array(tests.line('track', 'second track')), '{}', 'USD') ->> 'order_id')::uuid$q$);
select set_config('request.jwt.claims', '', true);
select is(public.prepare_order_files(tests.id('unpaid order')), '{}'::uuid[], 'an order not paid has no files made');
select is(public.prepare_order_files(tests.id('second order')), array[tests.id('second track')],
  'an order''s tracks with audio have their MP3 asked for');
select is(public.prepare_order_files(tests.id('second order')), '{}'::uuid[], 'and not again while it is being made');
select tests.send_no_headers();

-- An account with the guest's email takes the order and its purchases through the receipt link; no other.
select tests.new_user('guest', '{"role": "fan", "username": "guest"}');
select ok((select buyer_id is null from public.orders where id = tests.id('guest order')),
  'an account with a guest''s email does not take the order by signing up');
create function tests.join_as(who text)
returns boolean
language sql
as $$
  select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id(who), 'role', 'authenticated')::text, true);
  select tests.send_marketplace_headers(jsonb_build_object('x-guest-order', tests.id('guest order')));
  select public.join_guest_order();
$$;
select is(tests.join_as('fan'), false, 'an account with another email cannot take a guest''s order, link or not');
update auth.users set email_confirmed_at = null where id = tests.id('guest');
select is(tests.join_as('guest'), false, 'an account whose email is not confirmed cannot take it');
update auth.users set email_confirmed_at = now() where id = tests.id('guest');
select is(tests.join_as('guest'), true, 'the account with the order''s email takes it through the receipt link, in any case');
select is((select buyer_id from public.orders where id = tests.id('guest order')), tests.id('guest'), 'the order is theirs');
select ok(exists (select 1 from public.purchases where user_id = tests.id('guest') and track_id = tests.id('second track')),
  'and so are its purchases');
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

select * from finish();
rollback;
