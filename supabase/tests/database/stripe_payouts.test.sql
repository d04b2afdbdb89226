-- Payouts through Stripe (02_payout_settings.sql, 18_payouts.sql): an artist connects an account, or replaces
-- it, and chooses where payouts go, through the marketplace alone with the account's password, and is mailed
-- each change; the marketplace alone says when an account takes transfers; Stripe is chosen only once its
-- account is ready; transfers go to the account connected when they start; each settled line is transferred
-- once (however often the job runs), from its own charge, only past what a PayPal payout paid before, and
-- never one lost in a dispute; a failed transfer gives the share back and is tried again a day later; a line
-- refunded after its transfer is reversed once, and the ledger comes back to zero for it.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('b-side', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'B-side', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('outro', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Outro', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('disputed', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Disputed', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('encore', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Encore', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
end
$$;

update auth.users set encrypted_password = extensions.crypt('the right password', extensions.gen_salt('bf', 4));
-- (an address mail can go to: the helpers name it after the fixture, with a space)
update auth.users set email = 'other-artist@tests.example' where id = tests.id('other artist');

-- The fan's paid order for `track`, settled (its settlement days passed).
create function tests.settled_sale(track text, checkout text)
returns void
language sql
as $$
  select tests.paid_order(track, checkout);
  update public.ledger_entries set available_at = available_at - interval '8 days';
$$;

create function tests.usd()
returns jsonb
language sql
as $$
  select jsonb_build_array(b.available, b.paid_out, b.earned) from private.balances(tests.id('artist')) b where b.currency = 'USD'
$$;

select tests.each_actor('connect a Stripe account without the marketplace',
  $$select public.connect_stripe('acct_1', 'the right password')$$, array[]::text[]);
select tests.each_actor_through_marketplace('connect a Stripe account with one''s password, the account told',
  $$select 1 where public.connect_stripe('acct_1', 'the right password') ->> 'mail' is not null$$, array['artist', 'other artist']);
select tests.one_actor('connect a Stripe account while banned', 'banned artist through the marketplace',
  $$select public.connect_stripe('acct_1', 'the right password')$$, false);
-- Where payouts go changes through choose_payout_method, change_paypal_email and connect_stripe alone:
-- never by writing it directly, PayPal or Stripe.
select tests.each_actor('choose PayPal directly',
  $$update public.artist_payout_settings set payout_method = 'paypal' where artist_id = auth.uid()$$, array[]::text[]);
select tests.one_actor('choose PayPal directly while banned', 'banned artist',
  $$update public.artist_payout_settings set payout_method = 'paypal' where artist_id = auth.uid()$$, false);
select tests.each_actor('choose where payouts go without the marketplace',
  $$select public.choose_payout_method('paypal', 'the right password')$$, array[]::text[]);
select tests.each_actor_through_marketplace('choose where payouts go with one''s password',
  $$select 1 where public.choose_payout_method('paypal', 'the right password') ? 'mail'$$, array['artist', 'other artist']);
select tests.one_actor('choose where payouts go while banned', 'banned artist through the marketplace',
  $$select public.choose_payout_method('paypal', 'the right password')$$, false);
select tests.each_actor('say a Stripe account is ready without the marketplace',
  $$select public.stripe_account_updated('acct_1', true)$$, array[]::text[]);
select tests.each_actor('choose Stripe before connecting it',
  $$update public.artist_payout_settings set payout_method = 'stripe' where artist_id = auth.uid()$$, array[]::text[]);
select tests.each_actor('say one''s Stripe account is ready oneself',
  $$update public.artist_payout_settings set stripe_ready = true, stripe_account = 'acct_2' where artist_id = auth.uid()$$,
  array[]::text[]);
select tests.each_actor('list transfers to reverse without the marketplace', $$select 1 from public.transfers_to_reverse()$$,
  array[]::text[]);
select tests.each_actor('reverse a transfer without the marketplace',
  $$select public.transfer_reversed(gen_random_uuid(), 'trr_1')$$, array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 26);

select * from tests.proved_cases();

-- A sale paid by PayPal before Stripe: PayPal paid it, so it is never transferred.
update public.artist_payout_settings set payment_settings = payment_settings || '{"withdraw_threshold": 50}'
where artist_id = tests.id('artist');
select tests.settled_sale('track', 'cs_before');
update public.ledger_entries set created_at = now() - interval '2 seconds' where kind = 'sale';
insert into public.payouts (artist_id, currency, amount_cents, method, recipient, requested_by, state, created_at)
values (tests.id('artist'), 'USD', 175, 'paypal', 'owner@tests.example', 'artist', 'paid', now() - interval '1 second');
insert into public.ledger_entries (artist_id, currency, kind, amount_cents, payout_id, created_at)
select tests.id('artist'), 'USD', 'payout', -175, id, now() - interval '1 second' from public.payouts;

-- Connected with the password (a wrong one changes nothing), replaced, ready, chosen: each settled line
-- since is transferred once, from its own charge.
select is(tests.through_marketplace($$select public.connect_stripe('acct_thief', 'a guess')$$), '{"wrong_password": true}'::jsonb,
  'a wrong password connects no Stripe account');
select is(tests.through_marketplace($$select public.connect_stripe('', 'the right password')$$),
  '{"account": null, "mail": null}'::jsonb, 'with no account, the password is checked and nothing changes');
select is(tests.through_marketplace($$select public.connect_stripe('acct_thief', 'the right password') - 'mail'$$),
  '{"account": "acct_thief"}'::jsonb, 'the marketplace keeps the artist''s Stripe account');
select tests.through_marketplace($$select to_jsonb(public.stripe_account_updated('acct_thief', true))$$, 'visitor');
select is(tests.through_marketplace($$select public.connect_stripe('acct_artist', 'the right password') - 'mail'$$),
  '{"account": "acct_artist"}'::jsonb, 'a second account replaces the first');
select is((select jsonb_build_array(s.stripe_account, s.stripe_ready) from public.artist_payout_settings s where s.artist_id = tests.id('artist')),
  '["acct_artist", false]'::jsonb, 'the new account is not ready until Stripe says so');
select is((select jsonb_agg(jsonb_build_array(m.kind, m.recipient) order by m.created_at) from private.mails m where m.kind = 'stripe_connected'),
  '[["stripe_connected", "artist@tests.example"], ["stripe_connected", "artist@tests.example"]]'::jsonb,
  'each account connected is told to the account''s own address');
select throws_ok($$select tests.through_marketplace('select public.choose_payout_method(''stripe'', ''the right password'')')$$,
  '23514', null, 'Stripe is not chosen before its account is ready');
select tests.through_marketplace($$select to_jsonb(public.stripe_account_updated('acct_artist', true))$$, 'visitor');
select is(tests.through_marketplace($$select public.choose_payout_method('stripe', 'a guess')$$), '{"wrong_password": true}'::jsonb,
  'a wrong password chooses nothing');
select is((select payout_method from public.artist_payout_settings where artist_id = tests.id('artist')), 'paypal',
  'payouts still go by PayPal');
select tests.through_marketplace($$select public.choose_payout_method('stripe', 'the right password')$$);
select tests.send_marketplace_headers();
select is(public.mail_to_send((select m.id from private.mails m where m.kind = 'payout_method_changed')) - 'id',
  '{"kind": "payout_method_changed", "recipient": "artist@tests.example", "sent": false, "payout_method": "stripe"}'::jsonb,
  'chosen once ready, with the password, and the account''s own address is told');
select tests.send_no_headers();
select is(tests.through_marketplace($$select public.choose_payout_method('stripe', 'the right password')$$), '{"mail": null}'::jsonb,
  'the same method again tells nobody');
select tests.settled_sale('b-side', 'cs_b');
select tests.settled_sale('outro', 'cs_c');
select is(
  tests.through_marketplace($$select jsonb_agg(jsonb_build_array(p.method, p.amount_cents, p.payment_intent, p.description) order by p.payment_intent)
    from public.payouts_to_send() p$$, 'visitor'),
  (select jsonb_agg(jsonb_build_array('stripe', 175, 'pi_' || o.checkout_session, 'Crate order ' || upper(left(o.id::text, 8)) || ': ' || l.title)
     order by o.checkout_session)
   from public.orders o join public.order_lines l on l.order_id = o.id where o.checkout_session in ('cs_b', 'cs_c')),
  'each line sold since the PayPal payout is transferred from its own charge, naming its order and item');
select is(tests.through_marketplace($$select count(*)::integer from public.payouts_to_send()$$, 'visitor'), '2'::jsonb,
  'run again, the job starts no second transfer');
select is(tests.usd(), '[0, 525, 525]'::jsonb, 'transfers move the shares out of the balance');

-- One paid, one failed: the failed share is back, and tried again a day later.
select tests.through_marketplace($$select to_jsonb(public.payout_settled(
  (select p.id from public.payouts p where p.payment_intent = 'pi_cs_b'), true))$$, 'visitor');
select tests.through_marketplace($$select to_jsonb(public.payout_settled(
  (select p.id from public.payouts p where p.payment_intent = 'pi_cs_c'), false, 'Your destination account needs transfers'))$$, 'visitor');
select is(tests.usd(), '[175, 350, 525]'::jsonb, 'a failed transfer gives its share back');
select is(tests.through_marketplace($$select count(*)::integer from public.payouts_to_send()$$, 'visitor'), '0'::jsonb,
  'the job waits a day after a transfer failed');
update public.payouts set settled_at = now() - interval '25 hours' where state = 'failed';
select is(tests.through_marketplace($$select jsonb_agg(p.payment_intent) from public.payouts_to_send() p$$, 'visitor'),
  '["pi_cs_c"]'::jsonb, 'then the line is transferred again');

-- Refunded after its transfer: reversed once, and the line nets to nothing.
update public.order_lines set refunded_at = now()
where order_id = (select id from public.orders where checkout_session = 'cs_b');
select is(tests.through_marketplace($$select jsonb_agg(p.payment_intent) from public.transfers_to_reverse() p$$, 'visitor'),
  '["pi_cs_b"]'::jsonb, 'a transfer whose line was refunded is to be reversed');
select tests.through_marketplace($$select to_jsonb(public.transfer_reversed(
  (select p.id from public.payouts p where p.payment_intent = 'pi_cs_b'), 'trr_1'))$$, 'visitor')
from generate_series(1, 2);
select is(
  (select coalesce(sum(e.amount_cents), 0)::integer from public.ledger_entries e
   left join public.payouts p on p.id = e.payout_id
   where coalesce(e.order_line_id, p.order_line_id) = (select l.id from public.order_lines l join public.orders o on o.id = l.order_id
     where o.checkout_session = 'cs_b')),
  0,
  'sale, transfer, refund and reversal add up to nothing for the line');
select is(tests.through_marketplace($$select count(*)::integer from public.transfers_to_reverse()$$, 'visitor'), '0'::jsonb,
  'a reversal is made once');
update public.payouts set settled_at = now() where method = 'paypal';
select set_config('request.jwt.claims', (select jsonb_build_object('sub', u.id, 'role', 'authenticated',
  'app_metadata', u.raw_app_meta_data) from auth.users u where u.id = tests.id('admin'))::text, true);
select is(jsonb_path_query_first(public.admin_money(30), '$.currencies[*] ? (@.currency == "USD").paid_out'), '175'::jsonb,
  'the administrators'' figures count the PayPal payout as paid out, and not the reversed transfer');
select set_config('request.jwt.claims', '', true);

-- Lost in a dispute, a settled line is never transferred.
select tests.settled_sale('disputed', 'cs_lost');
select tests.through_marketplace($$select to_jsonb(public.apply_payment_news('pi_cs_lost', 'evt_lost', 'charge.dispute.closed',
  dispute => '{"id": "dp_lost", "amount": 199, "currency": "usd", "reason": "fraudulent", "status": "lost", "closed": true}'))$$, 'visitor');
select is(
  tests.through_marketplace($$select count(*)::integer from public.payouts_to_send() p where p.payment_intent = 'pi_cs_lost'$$, 'visitor'),
  '0'::jsonb,
  'a line lost in a dispute is not transferred');

-- Replaced while Stripe is chosen: nothing moves until the new account is ready, then it takes the
-- transfers; those made before stay the old account's.
select tests.through_marketplace($$select public.connect_stripe('acct_new', 'the right password')$$);
select tests.settled_sale('encore', 'cs_encore');
select is(
  tests.through_marketplace($$select count(*)::integer from public.payouts_to_send() p where p.payment_intent = 'pi_cs_encore'$$, 'visitor'),
  '0'::jsonb, 'a new account takes nothing before it is ready');
select tests.through_marketplace($$select to_jsonb(public.stripe_account_updated('acct_new', true))$$, 'visitor');
select is(
  tests.through_marketplace($$select jsonb_agg(p.recipient) from public.payouts_to_send() p where p.payment_intent = 'pi_cs_encore'$$, 'visitor'),
  '["acct_new"]'::jsonb, 'once ready, the new account takes the transfers');
select is((select jsonb_agg(distinct p.recipient) from public.payouts p where p.method = 'stripe' and p.payment_intent <> 'pi_cs_encore'),
  '["acct_artist"]'::jsonb, 'transfers made before stay the old account''s');

-- The account's password is bounded as everywhere it is asked: past 10 wrong ones in an hour, none is tried.
select tests.through_marketplace($$select public.choose_payout_method('paypal', 'a guess')$$, 'other artist')
from generate_series(1, 10);
select throws_ok($$select tests.through_marketplace('select public.connect_stripe(''acct_2'', ''the right password'')', 'other artist')$$,
  '54000', null, 'past 10 wrong passwords in an hour, not even the right one is tried');

select * from finish();
rollback;
