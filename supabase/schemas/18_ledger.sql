-- The artists' money: one ledger every figure of it comes from. A sale credits its artist's share; a
-- refund debits it; a dispute holds it until it closes (a lost one then debits it); a payout moves it out
-- (one that failed gives it back). Written by the database alone: triggers as orders are paid, refunded
-- and disputed, and the payout functions (18_payouts.sql), which run through the marketplace. The payouts
-- table sits here, as the ledger's entries name it. Artists read their own entries and payouts,
-- administrators every one. Balances are sums of the ledger, never a stored counter.
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
  reversal_id text,
  -- What the provider sent when it had to convert the amount (a Stripe transfer is made in the platform's
  -- settlement currency, out of the sale's charge): that currency, the amount in it, and the charge's rate
  -- (sent = amount × rate). None when it paid in the payout's own currency.
  sent_currency text check (sent_currency ~ '^[A-Z]{3}$'),
  sent_amount_cents integer check (sent_amount_cents > 0),
  exchange_rate numeric check (exchange_rate > 0),
  -- PayPal's word that the payout waits for its artist to claim it (UNCLAIMED: no PayPal account at that
  -- address), as the time PayPal processed it: the money is with PayPal, the payout stays `sending`, until
  -- it is claimed (`paid`) or PayPal returns it after 30 days (`failed`).
  unclaimed_at timestamptz,
  check ((sent_currency is null) = (sent_amount_cents is null) and (sent_currency is null) = (exchange_rate is null))
);

alter table public.payouts enable row level security;

create index payouts_artist_id_created_at_idx on public.payouts (artist_id, created_at desc);

-- One PayPal payout on its way per artist and currency, and one live transfer per line: two runs of the
-- job at once start each once.
create unique index payouts_one_sending_idx on public.payouts (artist_id, currency) where state = 'sending' and method = 'paypal';

-- The payouts waiting to be claimed at PayPal, as the Admin Dashboard lists them (admin_money).
create index payouts_unclaimed_idx on public.payouts (unclaimed_at) where state = 'sending' and unclaimed_at is not null;

create unique index payouts_one_transfer_per_line_idx on public.payouts (order_line_id)
  where method = 'stripe' and state <> 'failed';

revoke all on public.payouts from anon, authenticated;

grant select on public.payouts to authenticated;

create policy "Artists read their own payouts, administrators every one" on public.payouts
  for select to authenticated using (artist_id = (select auth.uid()) or (select public.is_admin()));

-- The ledger. Credits are positive and debits negative; each entry names its artist and currency, and
-- the order line (with what its sale counts under: sold_under), dispute or payout it comes from. `available_at`: when
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
  item_id uuid references public.sellables (id) on delete set null,
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

create index ledger_entries_item_id_idx on public.ledger_entries (item_id) where item_id is not null;

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
  insert into public.ledger_entries (artist_id, currency, kind, amount_cents, order_line_id, item_id, available_at, created_at)
  select l.artist_id, new.currency, 'sale', l.artist_share_cents, l.id, private.sold_under(l.kind, l.item_id),
    coalesce(new.paid_at, now()) + make_interval(days => private.settlement_days()), coalesce(new.paid_at, now())
  from public.order_lines l
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
  insert into public.ledger_entries (artist_id, currency, kind, amount_cents, order_line_id, item_id, dispute_id, available_at)
  select s.artist_id, s.currency, debit_line.kind, debit_line.amount, s.order_line_id, s.item_id, debit_line.dispute_id,
    greatest(now(), s.available_at)
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
create or replace function private.item_sales(item_id uuid)
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
    and e.item_id = item_sales.item_id
$$;

revoke execute on function private.item_sales(uuid) from public;

grant execute on function private.item_sales(uuid) to authenticated;

-- The Payments page's read: the caller's balances, their payouts (newest first, at most 20; one waiting to
-- be claimed at PayPal with the time it started waiting) and when the next automatic one comes (the scheduled job's next run, where a balance is at or above the threshold).
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
          'reversed_at', p.reversed_at, 'sent_currency', p.sent_currency, 'sent_amount', p.sent_amount_cents,
          'exchange_rate', p.exchange_rate, 'unclaimed_at', p.unclaimed_at) order by p.created_at desc)
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

-- Payouts settled in a period (the administrators' figures).
create index payouts_settled_at_idx on public.payouts (settled_at) where settled_at is not null;
