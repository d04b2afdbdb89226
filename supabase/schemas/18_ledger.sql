-- The artists' money: one ledger every figure of it comes from, and the payouts that move it to them. A
-- sale credits its artist's share; a refund debits it; a dispute holds it until it closes (a lost one
-- then debits it); a payout moves it out (one that failed gives it back). Written by the database alone:
-- triggers as orders are paid, refunded and disputed, and the payout functions, which run through the
-- marketplace. Artists read their own entries and payouts, administrators every one. Balances are sums of
-- the ledger, never a stored counter.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Days from a payment until its money settles with the payment provider (Stripe's standard schedule for
-- a new platform is 7): until then an artist's share of it is pending, so a refund or dispute in those
-- days takes it back before anyone is paid.
create or replace function private.settlement_days()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 7
$$;

revoke execute on function private.settlement_days() from public, anon, authenticated;

-- A payout: an artist's available balance in one currency sent to them by PayPal (to their PayPal email as
-- it was then), or one paid line's share transferred to their Stripe account (out of the sale's charge).
-- `sending` until the provider says it arrived (`paid`) or not (`failed`, with the provider's reason; the
-- money goes back to the balance and a later payout tries again). A transfer whose line was refunded
-- afterwards is reversed: the money comes back from the artist's Stripe account.
create table public.payouts (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  currency text not null check (private.is_currency(currency)),
  amount_cents integer not null check (amount_cents > 0),
  method text not null check (method in ('paypal', 'stripe')),
  recipient text not null,
  -- Who asked: the scheduled job (automatic withdrawals) or the artist (Withdraw now).
  requested_by text not null check (requested_by in ('schedule', 'artist')),
  state text not null default 'sending' check (state in ('sending', 'paid', 'failed')),
  -- The provider's payout (a PayPal payout batch), once it took it.
  provider_id text,
  failure text,
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  -- A Stripe transfer's line, the sale's payment and what the transfer says (its order and item).
  order_line_id uuid references public.order_lines (id) on delete set null,
  payment_intent text,
  description text,
  reversed_at timestamptz,
  reversal_id text
);

alter table public.payouts enable row level security;

create index payouts_artist_id_created_at_idx on public.payouts (artist_id, created_at desc);

-- One PayPal payout on its way per artist and currency, and one live transfer per line: two runs of the
-- job at once start each once.
create unique index payouts_one_sending_idx on public.payouts (artist_id, currency) where state = 'sending' and method = 'paypal';

create unique index payouts_one_transfer_per_line_idx on public.payouts (order_line_id)
  where method = 'stripe' and state <> 'failed';

revoke all on public.payouts from anon, authenticated;

grant select on public.payouts to authenticated;

create policy "Artists read their own payouts, administrators every one" on public.payouts
  for select to authenticated using (artist_id = (select auth.uid()) or (select public.is_admin()));

-- The ledger. Credits are positive and debits negative; each entry names its artist and currency, and
-- the order line (with its release or merch item), dispute or payout it comes from. `available_at`: when
-- it counts toward the available balance (a sale's once its payment settles; a refund or dispute of a
-- sale still pending, with it; anything else at once).
create table public.ledger_entries (
  id bigint generated always as identity primary key,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  currency text not null check (private.is_currency(currency)),
  kind text not null check (
    kind in ('sale', 'refund', 'dispute_hold', 'dispute_release', 'dispute_loss', 'payout', 'payout_return')),
  amount_cents integer not null,
  order_line_id uuid references public.order_lines (id) on delete cascade,
  release_id uuid references public.releases (id) on delete set null,
  merch_id uuid references public.merch (id) on delete set null,
  dispute_id text references public.order_disputes (id) on delete cascade,
  payout_id uuid references public.payouts (id) on delete cascade,
  available_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  constraint ledger_entries_credit check (kind not in ('sale', 'dispute_release', 'payout_return') or amount_cents >= 0),
  constraint ledger_entries_debit check (kind not in ('refund', 'dispute_hold', 'dispute_loss', 'payout') or amount_cents <= 0),
  constraint ledger_entries_line check (kind in ('payout', 'payout_return') or order_line_id is not null),
  constraint ledger_entries_payout check ((kind in ('payout', 'payout_return')) = (payout_id is not null))
);

alter table public.ledger_entries enable row level security;

-- Each line's sale and refund once, and each dispute's hold, release and loss of it once.
create unique index ledger_entries_line_once_idx on public.ledger_entries (order_line_id, kind, coalesce(dispute_id, ''))
  where order_line_id is not null;

-- A payout's debit and its return once.
create unique index ledger_entries_payout_once_idx on public.ledger_entries (payout_id, kind) where payout_id is not null;

-- Balances and revenue by artist and currency, over time.
create index ledger_entries_artist_id_currency_created_at_idx on public.ledger_entries (artist_id, currency, created_at);

create index ledger_entries_release_id_idx on public.ledger_entries (release_id) where release_id is not null;

create index ledger_entries_merch_id_idx on public.ledger_entries (merch_id) where merch_id is not null;

create index ledger_entries_dispute_id_idx on public.ledger_entries (dispute_id) where dispute_id is not null;

revoke all on public.ledger_entries from anon, authenticated;

grant select on public.ledger_entries to authenticated;

create policy "Artists read their own ledger, administrators every one" on public.ledger_entries
  for select to authenticated using (artist_id = (select auth.uid()) or (select public.is_admin()));

-- A paid order's lines credited to their artists when it was paid: each its share, pending for the
-- settlement days.
create or replace function private.credit_sales()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.ledger_entries (artist_id, currency, kind, amount_cents, order_line_id, release_id, merch_id, available_at,
    created_at)
  select l.artist_id, new.currency, 'sale', l.artist_share_cents, l.id, coalesce(l.release_id, t.release_id), l.merch_id,
    coalesce(new.paid_at, now()) + make_interval(days => private.settlement_days()), coalesce(new.paid_at, now())
  from public.order_lines l
  left join public.tracks t on t.id = l.track_id
  where l.order_id = new.id
  on conflict do nothing;
  return null;
end
$$;

revoke execute on function private.credit_sales() from public, anon, authenticated;

create trigger credit_paid_orders
  after update of state on public.orders
  for each row when (new.state = 'paid' and old.state is distinct from 'paid')
  execute function private.credit_sales();

-- An entry that takes back (or gives back) some of a line's sale: dated with the sale while it is still
-- pending, so a sale refunded before it settles never reaches the available balance.
create or replace function private.debit_line(line_id uuid, kind text, amount integer, dispute_id text)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.ledger_entries (artist_id, currency, kind, amount_cents, order_line_id, release_id, merch_id, dispute_id,
    available_at)
  select s.artist_id, s.currency, debit_line.kind, debit_line.amount, s.order_line_id, s.release_id, s.merch_id,
    debit_line.dispute_id, greatest(now(), s.available_at)
  from public.ledger_entries s
  where s.order_line_id = debit_line.line_id and s.kind = 'sale'
  on conflict do nothing
$$;

revoke execute on function private.debit_line(uuid, text, integer, text) from public, anon, authenticated;

-- A refunded line's share debited from its artist.
create or replace function private.debit_refunds()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.debit_line(new.id, 'refund', -new.artist_share_cents, null);
  return null;
end
$$;

revoke execute on function private.debit_refunds() from public, anon, authenticated;

create trigger debit_refunded_lines
  after update of refunded_at on public.order_lines
  for each row when (new.refunded_at is not null and old.refunded_at is null)
  execute function private.debit_refunds();

-- A dispute holds the shares of its order's lines not refunded; once closed the hold is released, and a
-- lost dispute (the money went back to the buyer) debits them.
create or replace function private.hold_disputes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  line record;
begin
  for line in
    select l.id, l.artist_share_cents from public.order_lines l
    join public.ledger_entries s on s.order_line_id = l.id and s.kind = 'sale'
    where l.order_id = new.order_id and (l.refunded_at is null
      or exists (select 1 from public.ledger_entries h where h.dispute_id = new.id and h.order_line_id = l.id))
  loop
    perform private.debit_line(line.id, 'dispute_hold', -line.artist_share_cents, new.id);
    if new.closed_at is not null then
      perform private.debit_line(line.id, 'dispute_release', line.artist_share_cents, new.id);
      if new.status = 'lost' then
        perform private.debit_line(line.id, 'dispute_loss', -line.artist_share_cents, new.id);
      end if;
    end if;
  end loop;
  return null;
end
$$;

revoke execute on function private.hold_disputes() from public, anon, authenticated;

create trigger hold_order_disputes
  after insert or update of status, closed_at on public.order_disputes
  for each row execute function private.hold_disputes();

-- An artist's balances, per currency, as sums of their ledger: `pending` (not settled yet), `available`
-- (settled, less what disputes hold and what was paid out), `held` (in open disputes), `paid_out` (sent,
-- less what came back) and `earned` (their shares of sales, less refunds and lost disputes). Pending and
-- available together are everything the ledger owes them.
create or replace function private.balances(artist uuid)
returns table (currency text, pending integer, available integer, held integer, paid_out integer, earned integer)
language sql
stable
security definer
set search_path = ''
as $$
  select e.currency,
    coalesce(sum(e.amount_cents) filter (where e.available_at > now()), 0)::integer,
    coalesce(sum(e.amount_cents) filter (where e.available_at <= now()), 0)::integer,
    (-coalesce(sum(e.amount_cents) filter (where e.kind in ('dispute_hold', 'dispute_release')), 0))::integer,
    (-coalesce(sum(e.amount_cents) filter (where e.kind in ('payout', 'payout_return')), 0))::integer,
    coalesce(sum(e.amount_cents) filter (where e.kind in ('sale', 'refund', 'dispute_loss')), 0)::integer
  from public.ledger_entries e
  where e.artist_id = balances.artist
  group by e.currency
  order by e.currency
$$;

revoke execute on function private.balances(uuid) from public, anon, authenticated;

-- A release's or merch item's sales as the studio shows them: {sales, revenue} of the caller's ledger in
-- their currency (lines sold less those refunded or lost in a dispute; their share less the same, in units).
create or replace function private.item_sales(release_id uuid, merch_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'sales', count(*) filter (where e.kind = 'sale') - count(*) filter (where e.kind in ('refund', 'dispute_loss')),
    'revenue', coalesce(sum(e.amount_cents) filter (where e.kind in ('sale', 'refund', 'dispute_loss')), 0) / 100.0)
  from public.ledger_entries e
  where e.artist_id = (select auth.uid()) and e.currency = private.artist_currency((select auth.uid()))
    and (e.release_id = item_sales.release_id or e.merch_id = item_sales.merch_id)
$$;

revoke execute on function private.item_sales(uuid, uuid) from public;

grant execute on function private.item_sales(uuid, uuid) to authenticated;

-- The Payments page's read: the caller's balances, their payouts (newest first, at most 20) and when the
-- next automatic one comes (the scheduled job's next run, where a balance is at or above the threshold).
create or replace function private.artist_payouts()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'settlement_days', private.settlement_days(),
    'balances', coalesce((select jsonb_agg(to_jsonb(b)) from private.balances((select auth.uid())) b), '[]'),
    'payouts', coalesce((
      select jsonb_agg(jsonb_build_object('id', p.id, 'currency', p.currency, 'amount', p.amount_cents, 'method', p.method,
          'recipient', p.recipient, 'requested_by', p.requested_by, 'state', p.state, 'failure', p.failure,
          'created_at', p.created_at, 'settled_at', p.settled_at, 'description', p.description,
          'reversed_at', p.reversed_at) order by p.created_at desc)
      from (
        select * from public.payouts p where p.artist_id = (select auth.uid()) order by p.created_at desc limit 20
      ) p), '[]'))
$$;

revoke execute on function private.artist_payouts() from public;

grant execute on function private.artist_payouts() to authenticated;

create or replace function public.artist_payouts()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.artist_payouts()
$$;

revoke execute on function public.artist_payouts() from public;

grant execute on function public.artist_payouts() to authenticated;

-- A payout of an artist's whole available balance in `currency`, where it is at or above their
-- threshold (whole units of the currency) and none is on its way: the payout and its debit, in one
-- transaction. Null when none is due. Two at once start one (payouts_one_sending_idx).
create or replace function private.start_payout(artist uuid, currency text, requested_by text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.artist_payout_settings;
  due integer;
  started uuid;
begin
  select * into settings from public.artist_payout_settings s where s.artist_id = start_payout.artist;
  select b.available into due from private.balances(start_payout.artist) b where b.currency = start_payout.currency;
  if settings.artist_id is null or settings.payout_method <> 'paypal' or due is null
      or due < (settings.payment_settings ->> 'withdraw_threshold')::numeric * 100 then
    return null;
  end if;
  insert into public.payouts (artist_id, currency, amount_cents, method, recipient, requested_by)
  values (start_payout.artist, start_payout.currency, due, 'paypal', settings.paypal_email, start_payout.requested_by)
  on conflict do nothing
  returning id into started;
  if started is not null then
    insert into public.ledger_entries (artist_id, currency, kind, amount_cents, payout_id)
    values (start_payout.artist, start_payout.currency, 'payout', -due, started);
  end if;
  return started;
end
$$;

revoke execute on function private.start_payout(uuid, text, text) from public, anon, authenticated;

-- Transfers to an artist's Stripe account (ready to take them): one per paid line whose share is available
-- (settled, not refunded, not lost in a dispute nor its order in an open one, not transferred yet, and
-- sold after their last PayPal payout, which paid what came before), oldest first while their available
-- balance covers it; each with its debit, in one transaction. Answers how many it started. Two at once
-- start each line once (payouts_one_transfer_per_line_idx).
create or replace function private.start_transfers(artist uuid, requested_by text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.artist_payout_settings;
  balance record;
  line record;
  covered integer;
  started uuid;
  count integer := 0;
begin
  select * into settings from public.artist_payout_settings s where s.artist_id = start_transfers.artist;
  if settings.artist_id is null or settings.payout_method <> 'stripe' or not settings.stripe_ready then
    return 0;
  end if;
  for balance in select b.currency, b.available from private.balances(start_transfers.artist) b loop
    covered := balance.available;
    for line in
      select s.order_line_id, s.amount_cents, o.payment_intent,
        'Crate order ' || upper(left(o.id::text, 8)) || ': ' || l.title as description
      from public.ledger_entries s
      join public.order_lines l on l.id = s.order_line_id
      join public.orders o on o.id = l.order_id
      where s.artist_id = start_transfers.artist and s.kind = 'sale' and s.currency = balance.currency
        and s.available_at <= now() and s.amount_cents > 0 and l.refunded_at is null and o.payment_intent is not null
        and not exists (select 1 from public.order_disputes d where d.order_id = o.id and d.closed_at is null)
        and not exists (select 1 from public.ledger_entries x where x.order_line_id = s.order_line_id and x.kind = 'dispute_loss')
        and not exists (select 1 from public.payouts p where p.order_line_id = s.order_line_id and p.state <> 'failed')
        and s.created_at > coalesce((
          select max(p.created_at) from public.payouts p
          where p.artist_id = start_transfers.artist and p.method = 'paypal' and p.currency = balance.currency
            and p.state <> 'failed'), '-infinity')
      order by s.created_at, s.id
    loop
      exit when line.amount_cents > covered;
      insert into public.payouts (artist_id, currency, amount_cents, method, recipient, requested_by, order_line_id,
        payment_intent, description)
      values (start_transfers.artist, balance.currency, line.amount_cents, 'stripe', settings.stripe_account,
        start_transfers.requested_by, line.order_line_id, line.payment_intent, line.description)
      on conflict do nothing
      returning id into started;
      if started is not null then
        insert into public.ledger_entries (artist_id, currency, kind, amount_cents, payout_id)
        values (start_transfers.artist, balance.currency, 'payout', -line.amount_cents, started);
        covered := covered - line.amount_cents;
        count := count + 1;
      end if;
    end loop;
  end loop;
  return count;
end
$$;

revoke execute on function private.start_transfers(uuid, text) from public, anon, authenticated;

-- What an artist is paid while their account is banned: nothing. Their payouts not sent yet fail.
create or replace function private.stop_banned_payouts()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  stopped uuid;
begin
  for stopped in
    select p.id from public.payouts p
    join private.account_bans b on b.user_id = p.artist_id and b.banned_until > now()
    where p.state = 'sending' and p.provider_id is null
  loop
    perform private.settle_payout(stopped, false, 'Payouts stop while the account is banned.');
  end loop;
end
$$;

revoke execute on function private.stop_banned_payouts() from public, anon, authenticated;

-- The scheduled job's first step, through the marketplace alone: a payout started for each balance due
-- to an artist with automatic withdrawals on (not banned; not within a day of a payout of theirs that
-- failed, which is then tried again), and every payout on its way answered, the new and any a run that
-- was stopped half way left, for the job to send (each once: the provider takes the payout's id as its
-- idempotency key) or to ask after.
create or replace function private.payouts_to_send()
returns setof public.payouts
language plpgsql
security definer
set search_path = ''
as $$
declare
  due record;
begin
  perform private.require_marketplace_request();
  perform private.stop_banned_payouts();
  for due in
    select distinct e.artist_id, e.currency
    from public.artist_payout_settings s
    join public.ledger_entries e on e.artist_id = s.artist_id
    where s.payout_method = 'paypal' and (s.payment_settings ->> 'auto_withdraw')::boolean
      and not exists (select 1 from private.account_bans b where b.user_id = s.artist_id and b.banned_until > now())
      and not exists (select 1 from public.payouts f where f.artist_id = s.artist_id and f.currency = e.currency
        and f.state = 'failed' and f.settled_at > now() - interval '1 day')
  loop
    perform private.start_payout(due.artist_id, due.currency, 'schedule');
  end loop;
  -- An artist paid through Stripe has each settled sale transferred as it settles.
  for due in
    select s.artist_id from public.artist_payout_settings s
    where s.payout_method = 'stripe' and s.stripe_ready
      and not exists (select 1 from private.account_bans b where b.user_id = s.artist_id and b.banned_until > now())
      and not exists (select 1 from public.payouts f where f.artist_id = s.artist_id and f.method = 'stripe'
        and f.state = 'failed' and f.settled_at > now() - interval '1 day')
  loop
    perform private.start_transfers(due.artist_id, 'schedule');
  end loop;
  return query select * from public.payouts p where p.state = 'sending' order by p.created_at limit 500;
end
$$;

revoke execute on function private.payouts_to_send() from public;

grant execute on function private.payouts_to_send() to anon, authenticated;

create or replace function public.payouts_to_send()
returns setof public.payouts
language sql
security invoker
set search_path = ''
as $$
  select * from private.payouts_to_send()
$$;

revoke execute on function public.payouts_to_send() from public;

grant execute on function public.payouts_to_send() to anon, authenticated;

-- "Withdraw now": the caller's available balances at or above their threshold paid out by PayPal, or their
-- settled sales transferred to Stripe, through the marketplace (which then sends them), for an artist in
-- good standing. Answers the payouts started.
create or replace function private.withdraw_now()
returns setof public.payouts
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  balance record;
  started uuid;
  all_started uuid[] := '{}';
begin
  perform private.require_marketplace_request();
  if not exists (select 1 from public.artist_profiles a where a.id = me) or not private.is_active_user() then
    raise exception 'only an artist in good standing withdraws' using errcode = '42501';
  end if;
  for balance in select b.currency from private.balances(me) b loop
    started := private.start_payout(me, balance.currency, 'artist');
    if started is not null then
      all_started := all_started || started;
    end if;
  end loop;
  if private.start_transfers(me, 'artist') > 0 then
    all_started := all_started || array(
      select p.id from public.payouts p where p.artist_id = me and p.method = 'stripe' and p.state = 'sending');
  end if;
  return query select * from public.payouts p where p.id = any (all_started);
end
$$;

revoke execute on function private.withdraw_now() from public;

grant execute on function private.withdraw_now() to authenticated;

create or replace function public.withdraw_now()
returns setof public.payouts
language sql
security invoker
set search_path = ''
as $$
  select * from private.withdraw_now()
$$;

revoke execute on function public.withdraw_now() from public;

grant execute on function public.withdraw_now() to authenticated;

-- A payout the provider took (its payout's id, `provider_id`), through the marketplace alone.
create or replace function private.payout_sent(payout_id uuid, provider_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.payouts p set provider_id = payout_sent.provider_id
  where p.id = payout_sent.payout_id and p.state = 'sending';
end
$$;

revoke execute on function private.payout_sent(uuid, text) from public;

grant execute on function private.payout_sent(uuid, text) to anon, authenticated;

create or replace function public.payout_sent(payout_id uuid, provider_id text)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.payout_sent(payout_sent.payout_id, payout_sent.provider_id)
$$;

revoke execute on function public.payout_sent(uuid, text) from public;

grant execute on function public.payout_sent(uuid, text) to anon, authenticated;

-- A payout's outcome, once: paid, or failed with the provider's reason (its amount back to the balance).
create or replace function private.settle_payout(payout_id uuid, paid boolean, failure text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settled public.payouts;
begin
  update public.payouts p
  set state = case when settle_payout.paid then 'paid' else 'failed' end, settled_at = now(),
    failure = case when not settle_payout.paid then left(coalesce(settle_payout.failure, 'The payout failed.'), 500) end
  where p.id = settle_payout.payout_id and p.state = 'sending'
  returning * into settled;
  if settled.id is not null and not settle_payout.paid then
    insert into public.ledger_entries (artist_id, currency, kind, amount_cents, payout_id)
    values (settled.artist_id, settled.currency, 'payout_return', settled.amount_cents, settled.id);
  end if;
end
$$;

revoke execute on function private.settle_payout(uuid, boolean, text) from public, anon, authenticated;

-- The provider's word on a payout, through the marketplace alone.
create or replace function private.payout_settled(payout_id uuid, paid boolean, failure text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  perform private.settle_payout(payout_settled.payout_id, payout_settled.paid, payout_settled.failure);
end
$$;

revoke execute on function private.payout_settled(uuid, boolean, text) from public;

grant execute on function private.payout_settled(uuid, boolean, text) to anon, authenticated;

create or replace function public.payout_settled(payout_id uuid, paid boolean, failure text default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.payout_settled(payout_settled.payout_id, payout_settled.paid, payout_settled.failure)
$$;

revoke execute on function public.payout_settled(uuid, boolean, text) from public;

grant execute on function public.payout_settled(uuid, boolean, text) to anon, authenticated;

-- Payouts settled in a period (the administrators' figures).
create index payouts_settled_at_idx on public.payouts (settled_at) where settled_at is not null;

-- The administrators' figures of the last `days` days (7, 30, 90 or 365), per currency: gross sales (what
-- paid lines cost their buyers), Crate's part of them (less what was refunded), refunds, payouts paid (a
-- reversed transfer not among them) and failed; and as they stand now: what is due to artists (their
-- available balances), open disputes. With them, the artists whose payout details need their attention:
-- money available and their newest payout failed, or who chose Stripe and their account is not ready (at
-- most 50 each). Administrators alone (42501 for anyone else).
create or replace function private.admin_money(days integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since timestamptz := now() - make_interval(days => admin_money.days);
begin
  if not public.is_admin() then
    raise exception 'administrators alone read the marketplace''s figures' using errcode = '42501';
  end if;
  if days is null or days not in (7, 30, 90, 365) then
    raise exception 'period must be 7, 30, 90 or 365 days' using errcode = '22023';
  end if;
  return jsonb_build_object(
    'currencies', coalesce((
      select jsonb_agg(jsonb_build_object('currency', c.currency,
          'gross', coalesce(s.gross, 0), 'crate', coalesce(s.crate, 0), 'refunded', coalesce(s.refunded, 0),
          'paid_out', coalesce(p.paid_out, 0), 'failed', coalesce(p.failed, 0), 'failed_count', coalesce(p.failed_count, 0),
          'due', coalesce(d.due, 0), 'disputed', coalesce(x.disputed, 0), 'dispute_count', coalesce(x.dispute_count, 0))
        order by c.currency)
      from (
        select o.currency from public.orders o where o.state = 'paid' and o.paid_at >= since
        union select p.currency from public.payouts p where p.settled_at >= since
        union select e.currency from public.ledger_entries e where e.available_at <= now()
        union select x.currency from public.order_disputes x where x.closed_at is null
      ) c
      left join (
        select o.currency, sum(l.total_cents) as gross, sum(l.crate_cents) filter (where l.refunded_at is null) as crate,
          sum(l.total_cents) filter (where l.refunded_at is not null) as refunded
        from public.orders o join public.order_lines l on l.order_id = o.id
        where o.state = 'paid' and o.paid_at >= since
        group by o.currency
      ) s on s.currency = c.currency
      left join (
        -- A reversed transfer came back from the artist: not paid out.
        select p.currency, sum(p.amount_cents) filter (where p.state = 'paid' and p.reversed_at is null) as paid_out,
          sum(p.amount_cents) filter (where p.state = 'failed') as failed, count(*) filter (where p.state = 'failed') as failed_count
        from public.payouts p where p.settled_at >= since
        group by p.currency
      ) p on p.currency = c.currency
      left join (
        select b.currency, sum(greatest(b.available, 0)) as due
        from (
          select e.artist_id, e.currency, sum(e.amount_cents) as available
          from public.ledger_entries e where e.available_at <= now()
          group by e.artist_id, e.currency
        ) b
        group by b.currency
      ) d on d.currency = c.currency
      left join (
        select x.currency, sum(x.amount_cents) as disputed, count(*) as dispute_count
        from public.order_disputes x where x.closed_at is null
        group by x.currency
      ) x on x.currency = c.currency), '[]'),
    'attention', coalesce((
      select jsonb_agg(jsonb_build_object('artist_id', n.artist_id, 'artist_name', n.artist_name, 'currency', n.currency,
          'available', n.available, 'failure', n.failure, 'failed_at', n.failed_at) order by n.failed_at desc nulls first)
      from (
        (select f.artist_id, a.artist_name, f.currency, b.available, f.failure, f.settled_at as failed_at
        from (
          select distinct on (p.artist_id, p.currency) p.artist_id, p.currency, p.state, p.failure, p.settled_at
          from public.payouts p
          order by p.artist_id, p.currency, p.created_at desc, p.settled_at desc nulls first
        ) f
        join public.artist_profiles a on a.id = f.artist_id
        cross join lateral private.balances(f.artist_id) b
        where f.state = 'failed' and b.currency = f.currency and b.available > 0
        order by f.settled_at desc
        limit 50)
        union all
        -- Stripe chosen, and the account not ready: nothing can be paid until its details are in.
        (select s.artist_id, a.artist_name, b.currency, b.available, 'Their Stripe account needs details', null
        from public.artist_payout_settings s
        join public.artist_profiles a on a.id = s.artist_id
        cross join lateral private.balances(s.artist_id) b
        where s.payout_method = 'stripe' and not s.stripe_ready and b.available > 0
        limit 50)
      ) n), '[]'));
end
$$;

revoke execute on function private.admin_money(integer) from public;

grant execute on function private.admin_money(integer) to authenticated;

create or replace function public.admin_money(days integer default 30)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.admin_money(admin_money.days)
$$;

revoke execute on function public.admin_money(integer) from public;

grant execute on function public.admin_money(integer) to authenticated;

-- The caller's Stripe account (Connect, Express) as the marketplace made it for them, through the
-- marketplace alone, for an artist in good standing, with the account's password (private.password_is_right,
-- as change_paypal_email asks it): a stolen session would connect its own bank. A wrong password changes
-- nothing and answers {"wrong_password": true}. With no account (''), nothing changes and the one connected is
-- answered ({"account": … or null}): the password checked before the artist goes on to its onboarding, or
-- before Stripe makes a new one. With one, it replaces the one connected (so a connection made by someone
-- else is undone by connecting another), not ready until Stripe says so; transfers already started keep
-- the account they were made for (`payouts.recipient`). The account's own address is told (private.mails,
-- kind 'stripe_connected'): {"account": the new one, "mail": its id} for the marketplace to queue.
create or replace function private.connect_stripe(account text, password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  wanted text := nullif(btrim(connect_stripe.account), '');
  connected text;
  address text;
  notice uuid;
begin
  perform private.require_marketplace_request();
  if not exists (select 1 from public.artist_payout_settings s where s.artist_id = me) or not private.is_active_user() then
    raise exception 'only an artist in good standing connects Stripe' using errcode = '42501';
  end if;
  if not private.password_is_right(connect_stripe.password) then
    return jsonb_build_object('wrong_password', true);
  end if;
  select s.stripe_account into connected from public.artist_payout_settings s where s.artist_id = me;
  if wanted is null or wanted = connected then
    return jsonb_build_object('account', connected, 'mail', null);
  end if;
  update public.artist_payout_settings s set stripe_account = wanted, stripe_ready = false
  where s.artist_id = me;
  select u.email into address from auth.users u where u.id = me;
  if private.is_email(address) then
    insert into private.mails (kind, recipient) values ('stripe_connected', address) returning id into notice;
  end if;
  return jsonb_build_object('account', wanted, 'mail', notice);
end
$$;

revoke execute on function private.connect_stripe(text, text) from public;

grant execute on function private.connect_stripe(text, text) to authenticated;

create or replace function public.connect_stripe(account text, password text)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.connect_stripe(connect_stripe.account, connect_stripe.password)
$$;

revoke execute on function public.connect_stripe(text, text) from public;

grant execute on function public.connect_stripe(text, text) to authenticated;

-- What Stripe says of a connected account (`account.updated`, or the return from its onboarding), through
-- the marketplace alone: whether it takes transfers. Answers whether an artist has that account.
create or replace function private.stripe_account_updated(account text, ready boolean)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.artist_payout_settings s set stripe_ready = stripe_account_updated.ready
  where s.stripe_account = stripe_account_updated.account;
  return found;
end
$$;

revoke execute on function private.stripe_account_updated(text, boolean) from public;

grant execute on function private.stripe_account_updated(text, boolean) to anon, authenticated;

create or replace function public.stripe_account_updated(account text, ready boolean)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.stripe_account_updated(stripe_account_updated.account, stripe_account_updated.ready)
$$;

revoke execute on function public.stripe_account_updated(text, boolean) from public;

grant execute on function public.stripe_account_updated(text, boolean) to anon, authenticated;

-- Transfers to take back, through the marketplace alone: those paid whose line was refunded since (at most 500).
create or replace function private.transfers_to_reverse()
returns setof public.payouts
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  return query
  select p.* from public.payouts p
  join public.order_lines l on l.id = p.order_line_id
  where p.method = 'stripe' and p.state = 'paid' and p.reversed_at is null and l.refunded_at is not null
  order by l.refunded_at
  limit 500;
end
$$;

revoke execute on function private.transfers_to_reverse() from public;

grant execute on function private.transfers_to_reverse() to anon, authenticated;

create or replace function public.transfers_to_reverse()
returns setof public.payouts
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.transfers_to_reverse()
$$;

revoke execute on function public.transfers_to_reverse() from public;

grant execute on function public.transfers_to_reverse() to anon, authenticated;

-- A transfer reversed (Stripe's reversal), through the marketplace alone, once: its amount back in the
-- ledger, as the refund took the sale's share.
create or replace function private.transfer_reversed(payout_id uuid, reversal_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  reversed public.payouts;
begin
  perform private.require_marketplace_request();
  update public.payouts p set reversed_at = now(), reversal_id = transfer_reversed.reversal_id
  where p.id = transfer_reversed.payout_id and p.method = 'stripe' and p.state = 'paid' and p.reversed_at is null
  returning * into reversed;
  if reversed.id is not null then
    insert into public.ledger_entries (artist_id, currency, kind, amount_cents, payout_id)
    values (reversed.artist_id, reversed.currency, 'payout_return', reversed.amount_cents, reversed.id);
  end if;
end
$$;

revoke execute on function private.transfer_reversed(uuid, text) from public;

grant execute on function private.transfer_reversed(uuid, text) to anon, authenticated;

create or replace function public.transfer_reversed(payout_id uuid, reversal_id text)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.transfer_reversed(transfer_reversed.payout_id, transfer_reversed.reversal_id)
$$;

revoke execute on function public.transfer_reversed(uuid, text) from public;

grant execute on function public.transfer_reversed(uuid, text) to anon, authenticated;
