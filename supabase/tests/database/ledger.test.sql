-- The ledger and payouts (18_ledger.sql, 18_payouts.sql): a paid order credits each artist's share, pending
-- until it settles; a refund debits it (with the sale, while that is pending); a dispute holds it until it
-- closes, and a lost one debits it; balances are the ledger's sums, and the dashboard, analytics and Payments
-- count the same revenue. Payouts start through the marketplace alone, once per balance however often the job
-- runs; a failed one gives the money back and is tried again a day later; "Withdraw now" is the artist's
-- alone, at or above their threshold; a banned artist is paid nothing. Artists read their own ledger and
-- payouts, administrators every one; nobody writes either.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('big track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Long Player', 'Rock', 60.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('second track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'B-side', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('third track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Outro', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
end
$$;

-- The artist's balances in USD: [pending, available, held, paid out, earned].
create function tests.usd()
returns jsonb
language sql
as $$
  select jsonb_build_array(b.pending, b.available, b.held, b.paid_out, b.earned)
  from private.balances(tests.id('artist')) b where b.currency = 'USD'
$$;

-- The settlement days pass: every entry is as it will be then.
create function tests.days_pass()
returns void
language sql
as $$
  update public.ledger_entries set available_at = available_at - interval '8 days'
$$;

select tests.remember('first order', $$select tests.paid_order('track', 'cs_first')$$);

select tests.each_actor('read one''s ledger', $$select 1 from public.ledger_entries where kind = 'sale'$$, array['artist', 'admin']);
select tests.each_actor('read one''s balances',
  $$select 1 where jsonb_array_length(public.artist_payouts() -> 'balances') = 1$$, array['artist']);
select tests.each_actor('write the ledger',
  $$insert into public.ledger_entries (artist_id, currency, kind, amount_cents, order_line_id)
    select artist_id, 'USD', 'sale', 100000, id from public.order_lines$$, array[]::text[]);
select tests.each_actor('change the ledger', $$update public.ledger_entries set amount_cents = 100000 where true$$, array[]::text[]);
select tests.each_actor('start payouts without the marketplace', $$select 1 from public.payouts_to_send()$$, array[]::text[]);
select tests.each_actor_through_marketplace('run the payout job',
  $$select 1 where (select count(*) from public.payouts_to_send()) >= 0$$, array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('withdraw without the marketplace', $$select 1 from public.withdraw_now()$$, array[]::text[]);
select tests.each_actor('settle a payout without the marketplace',
  $$select public.payout_settled(gen_random_uuid(), true)$$, array[]::text[]);

select tests.each_actor('read the marketplace''s figures', $$select 1 where public.admin_money(7) is not null$$, array['admin']);
-- Recent Activity's sales: the caller's own lines alone (the first order's, the artist's).
select tests.each_actor('read one''s newest sales', $$select 1 from private.recent_sales(5)$$, array['artist']);

select plan((select count(*)::integer from tests.cases) + 24);

select * from tests.proved_cases();

-- A sale: the artist's 88% of 1.99, pending for the settlement days.
select is(
  (select jsonb_build_array(e.kind, e.amount_cents, e.item_id is not distinct from t.release_id,
     e.available_at = o.paid_at + interval '7 days')
   from public.ledger_entries e join public.order_lines l on l.id = e.order_line_id join public.orders o on o.id = l.order_id
   join public.tracks t on t.id = l.item_id where o.id = tests.id('first order')),
  '["sale", 175, true, true]'::jsonb,
  'a paid line credits its artist''s share, naming its release, pending until its payment settles');
select is(tests.usd(), '[175, 0, 0, 0, 175]'::jsonb, 'a new sale is pending');

-- Settled, then disputed: the dispute holds it; won, it is back.
select tests.days_pass();
select is(tests.usd(), '[0, 175, 0, 0, 175]'::jsonb, 'a settled sale is available');
select tests.through_marketplace($$select to_jsonb(public.apply_payment_news('pi_cs_first', 'evt_dispute_1', 'charge.dispute.created',
  dispute => '{"id": "dp_won", "amount": 199, "currency": "usd", "reason": "fraudulent", "status": "needs_response", "closed": false}'))$$);
select is(tests.usd(), '[0, 0, 175, 0, 175]'::jsonb, 'an open dispute holds the share');
select tests.through_marketplace($$select to_jsonb(public.apply_payment_news('pi_cs_first', 'evt_dispute_2', 'charge.dispute.closed',
  dispute => '{"id": "dp_won", "amount": 199, "currency": "usd", "reason": "fraudulent", "status": "won", "closed": true}'))$$);
select tests.through_marketplace($$select to_jsonb(public.apply_payment_news('pi_cs_first', 'evt_dispute_3', 'charge.dispute.closed',
  dispute => '{"id": "dp_won", "amount": 199, "currency": "usd", "reason": "fraudulent", "status": "won", "closed": true}'))$$);
select is(tests.usd(), '[0, 175, 0, 0, 175]'::jsonb, 'a dispute won gives the share back, once');

-- A sale refunded before it settles never reaches the available balance.
select tests.remember('second order', $$select tests.paid_order('second track', 'cs_second')$$);
select is(tests.usd(), '[175, 175, 0, 0, 350]'::jsonb, 'a second sale is pending beside the first');
update public.order_lines set refunded_at = now() where order_id = tests.id('second order');
select is(tests.usd(), '[0, 175, 0, 0, 175]'::jsonb, 'its refund takes it back from what is pending');

-- A lost dispute debits the share for good.
select tests.remember('third order', $$select tests.paid_order('third track', 'cs_third')$$);
select tests.days_pass();
select tests.through_marketplace($$select to_jsonb(public.apply_payment_news('pi_cs_third', 'evt_dispute_4', 'charge.dispute.closed',
  dispute => '{"id": "dp_lost", "amount": 199, "currency": "usd", "reason": "fraudulent", "status": "lost", "closed": true}'))$$);
select is(tests.usd(), '[0, 175, 0, 0, 175]'::jsonb, 'a lost dispute takes the share away');

-- The dashboard, analytics and Payments count the same revenue.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
select is(
  jsonb_build_array(
    (public.artist_dashboard() -> 'stats' -> 'revenue' ->> 'total')::numeric,
    (select sum((d ->> 'revenue')::numeric) from jsonb_array_elements(public.artist_analytics(7) -> 'days') d),
    (select (b ->> 'earned')::numeric / 100 from jsonb_array_elements(public.artist_payouts() -> 'balances') b)),
  '[1.75, 1.75, 1.75]'::jsonb,
  'the dashboard, analytics and Payments agree to the cent');
select is(
  (select jsonb_agg(public.studio_catalog() -> 'release_sales' -> t.release_id::text order by t.title)
   from public.tracks t where t.id in (tests.id('track'), tests.id('second track'), tests.id('third track'))),
  '[{"sales": 0, "revenue": 0}, {"sales": 0, "revenue": 0}, {"sales": 1, "revenue": 1.75}]'::jsonb,
  'each release shows its sales and revenue, less what was refunded or lost in a dispute');
select is(
  (select sum((d ->> 'sales')::integer) from jsonb_array_elements(public.artist_analytics(7) -> 'days') d),
  (select sum((s.value ->> 'sales')::integer) from jsonb_each(public.studio_catalog() -> 'release_sales') s),
  'analytics counts the sales Your Tracks counts: three sold, one refunded, one lost in a dispute');
select set_config('request.jwt.claims', '', true);

-- Below the threshold ($50) nothing is paid; above it, "Withdraw now" pays the whole available balance.
select is(tests.through_marketplace($$select coalesce(jsonb_agg(p.id), '[]') from public.withdraw_now() p$$), '[]'::jsonb,
  'nothing is withdrawn below the threshold');
select tests.remember('big order', $$select tests.paid_order('big track', 'cs_big')$$);
select tests.days_pass();
select is(tests.usd(), '[0, 5455, 0, 0, 5455]'::jsonb, 'a $60 sale takes the balance past the threshold');
select is(tests.through_marketplace($$select jsonb_agg(jsonb_build_array(p.amount_cents, p.recipient, p.requested_by)) from public.withdraw_now() p$$),
  '[[5455, "owner@tests.example", "artist"]]'::jsonb,
  'Withdraw now pays the available balance to the artist''s PayPal email');
select is(tests.through_marketplace($$select coalesce(jsonb_agg(p.id), '[]') from public.withdraw_now() p$$), '[]'::jsonb,
  'asked again while it is on its way, nothing more is started');
select is(tests.usd(), '[0, 0, 0, 5455, 5455]'::jsonb, 'a payout on its way moves the balance to paid out');

-- Failed, the money is back and the scheduled job tries again a day later.
update public.artist_payout_settings set payment_settings = payment_settings || '{"auto_withdraw": true}'
where artist_id = tests.id('artist');
select tests.through_marketplace($$select to_jsonb(public.payout_settled((select id from public.payouts), false, 'Receiver is unregistered'))$$);
select is(tests.usd(), '[0, 5455, 0, 0, 5455]'::jsonb, 'a failed payout gives the balance back');
select is(tests.through_marketplace($$select count(*)::integer from public.payouts_to_send()$$), '0'::jsonb,
  'the job waits a day after a payout failed');
update public.payouts set settled_at = now() - interval '25 hours';
select is(tests.through_marketplace($$select jsonb_agg(jsonb_build_array(p.amount_cents, p.requested_by)) from public.payouts_to_send() p$$),
  '[[5455, "schedule"]]'::jsonb,
  'then the job pays the balance again');
select is(tests.through_marketplace($$select jsonb_agg(p.amount_cents) from public.payouts_to_send() p$$), '[5455]'::jsonb,
  'run again, the job starts nothing more and answers the payout still on its way');

-- Banned, an artist is paid nothing: what was not sent yet fails, and the money stays in the balance.
update auth.users set banned_until = now() + interval '1 day' where id = tests.id('artist');
select is(tests.through_marketplace($$select count(*)::integer from public.payouts_to_send()$$), '0'::jsonb,
  'a banned artist''s payouts stop');
select is(
  (select jsonb_agg(jsonb_build_array(p.state, p.failure) order by p.created_at) from public.payouts p),
  '[["failed", "Receiver is unregistered"], ["failed", "Payouts stop while the account is banned."]]'::jsonb,
  'each payout''s outcome is kept with its reason');

-- The administrators' figures: what was sold and Crate's part, the payouts that failed, who needs to act.
select is(
  (select jsonb_build_array(c -> 'gross', c -> 'crate', c -> 'refunded', c -> 'failed_count', c -> 'due')
   from jsonb_array_elements(tests.through_marketplace($$select public.admin_money(30)$$, 'admin') -> 'currencies') c
   where c ->> 'currency' = 'USD'),
  '[6597, 768, 199, 2, 5455]'::jsonb,
  'administrators see gross sales, Crate''s part, refunds, failed payouts and what is due');
select is(
  (select jsonb_agg(jsonb_build_array(n ->> 'artist_name', n -> 'available', n ->> 'failure'))
   from jsonb_array_elements(tests.through_marketplace($$select public.admin_money(30)$$, 'admin') -> 'attention') n),
  '[["Owner", 5455, "Payouts stop while the account is banned."]]'::jsonb,
  'and the artists whose newest payout failed with money waiting');
select * from finish();
rollback;
