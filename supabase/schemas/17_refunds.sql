-- Refunds and disputes: a paid line refunded (by its artist, an administrator, or the marketplace for a
-- line it cannot deliver), and what the payment provider says after a payment (a refund made in its
-- dashboard, a dispute opened or closed). The ledger's debits and holds follow by trigger (18_ledger.sql).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Lines paid for that cannot be delivered as sold (their checkout had lapsed, or a newer checkout of the
-- buyer's had ended it, before the payment landed): merch the stock could no longer cover, or a line priced
-- with a discount code whose uses went to other orders meanwhile. Refunded at once by the marketplace
-- (line_to_refund lets it), which apply_checkout hands them to until they are.
create table private.undeliverable_lines (
  line_id uuid primary key references public.order_lines (id) on delete cascade,
  found_at timestamptz not null default now()
);

revoke all on table private.undeliverable_lines from public, anon, authenticated;

-- A line refunded: its purchases removed (the download is refused from then on, and the analytics' roll-ups
-- take the sale back), its share no longer the artist's, and the buyer told by mail.
-- What follows its writes: the line's share debited from its artist's ledger (trigger
-- debit_refunded_lines, 18_ledger.sql; a Stripe transfer made of it is then taken back,
-- transfers_to_reverse in 18_payouts.sql); its purchases' removal taken out of the analytics' roll-ups
-- (roll_up_removed_purchases, 07_analytics.sql). The refund mail is written here.
create or replace function private.mark_refunded(line_id uuid, refund_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.order_lines l set refunded_at = now(), refund_id = mark_refunded.refund_id
  where l.id = mark_refunded.line_id and l.refunded_at is null;
  if not found then
    -- Refunded already (Stripe's charge.refunded may come first, naming no refund): keep the refund's id.
    update public.order_lines l set refund_id = mark_refunded.refund_id
    where l.id = mark_refunded.line_id and l.refund_id is null and mark_refunded.refund_id is not null;
    return;
  end if;
  delete from public.purchases p where p.order_line_id = mark_refunded.line_id;
  insert into private.mails (kind, recipient, order_id, order_line_id)
  select 'refund', o.buyer_email, o.id, l.id
  from public.order_lines l join public.orders o on o.id = l.order_id
  where l.id = mark_refunded.line_id;
end
$$;

revoke execute on function private.mark_refunded(uuid, text) from public, anon, authenticated;

-- A line of a paid order, locked, when the caller may refund it (its artist, not banned, or an
-- administrator; the giver of an unclaimed gift; or, whoever asks, the marketplace for a line paid for but undeliverable, which it refunds
-- as the payment lands); raises 42501 otherwise, and 22023 for an order not paid.
create or replace function private.line_to_refund(line_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  line public.order_lines;
  sold public.orders;
begin
  perform private.require_marketplace_request();
  select * into line from public.order_lines l where l.id = line_to_refund.line_id for update;
  if not found or not ((line.artist_id = (select auth.uid()) and private.is_active_user()) or public.is_admin()
      or exists (select 1 from private.undeliverable_lines u where u.line_id = line.id)
      -- The giver of a gift not claimed yet (a claimed one is its recipient's).
      or (private.is_active_user() and exists (select 1 from public.gifts g
        where g.order_line_id = line.id and g.giver_id = (select auth.uid()) and g.claimed_at is null))) then
    raise exception 'only the line''s artist or an administrator refunds it' using errcode = '42501';
  end if;
  select * into sold from public.orders o where o.id = line.order_id;
  if sold.state <> 'paid' then
    raise exception 'order % is not paid', sold.id using errcode = '22023';
  end if;
  -- A giver's refund of their gift: no claim lands while the provider refunds it (claim_gift, 17_gifts.sql).
  update public.gifts g set refund_asked_at = now()
  where g.order_line_id = line.id and g.giver_id = (select auth.uid()) and g.claimed_at is null and line.refunded_at is null;
  return jsonb_build_object('line_id', line.id, 'payment_intent', sold.payment_intent, 'provider', sold.provider,
    -- What its buyer paid for it, tax included: all of it goes back.
    'total', line.total_cents + line.tax_cents, 'currency', sold.currency, 'refunded', line.refunded_at is not null);
end
$$;

revoke execute on function private.line_to_refund(uuid) from public;

grant execute on function private.line_to_refund(uuid) to anon, authenticated;

-- What refunding a line takes, through the marketplace (which makes the provider's refund): the payment,
-- the amount, whether it is refunded already.
create or replace function public.line_to_refund(line_id uuid)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.line_to_refund(line_to_refund.line_id)
$$;

revoke execute on function public.line_to_refund(uuid) from public;

grant execute on function public.line_to_refund(uuid) to anon, authenticated;

-- A refund made (`refund_id`: the provider's; null when nothing was paid), recorded by the marketplace
-- for the line's artist or an administrator, or for an undeliverable line (line_to_refund says who may).
-- Answers the order's mails not sent yet, for the Worker to queue.
-- What follows its writes: mark_refunded's (above).
create or replace function private.record_refund(line_id uuid, refund_id text)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  line jsonb := private.line_to_refund(record_refund.line_id);
begin
  perform private.mark_refunded((line ->> 'line_id')::uuid, record_refund.refund_id);
  return private.unsent_mails((select l.order_id from public.order_lines l where l.id = (line ->> 'line_id')::uuid));
end
$$;

revoke execute on function private.record_refund(uuid, text) from public;

grant execute on function private.record_refund(uuid, text) to anon, authenticated;

create or replace function public.record_refund(line_id uuid, refund_id text default null)
returns uuid[]
language sql
security invoker
set search_path = ''
as $$
  select private.record_refund(record_refund.line_id, record_refund.refund_id)
$$;

revoke execute on function public.record_refund(uuid, text) from public;

grant execute on function public.record_refund(uuid, text) to anon, authenticated;

-- A payment's disputes (chargebacks) as the provider reports them, for administrators: open until closed
-- (won or lost). Written by the marketplace alone.
create table public.order_disputes (
  id text primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  amount_cents integer not null check (amount_cents >= 0),
  currency text not null check (private.is_currency(currency)),
  reason text not null,
  status text not null,
  opened_at timestamptz not null default now(),
  closed_at timestamptz
);

alter table public.order_disputes enable row level security;

create index order_disputes_order_id_idx on public.order_disputes (order_id);

create index order_disputes_open_idx on public.order_disputes (opened_at desc) where closed_at is null;

revoke all on public.order_disputes from anon, authenticated;

grant select on public.order_disputes to authenticated;

create policy "Administrators read disputes" on public.order_disputes
  for select to authenticated using ((select public.is_admin()));

-- What the payment provider said about a payment after it was made, applied once per event through the
-- marketplace alone: `refunded` (the charge's refunded total: a whole refund made in the provider's
-- dashboard refunds every line not refunded yet; the app's own refunds are recorded as they are made), or
-- a dispute opened or closed (`dispute`: {id, amount, currency, reason, status, closed}). Answers the
-- order's mails not sent yet; null for a payment no order has.
-- What follows its writes: a whole refund's, line by line, are mark_refunded's (above); a dispute opened
-- holds the order's shares in the ledger, and one lost debits them (trigger hold_order_disputes,
-- 18_ledger.sql).
create or replace function private.apply_payment_news(
  payment_intent text, event_id text, event_type text, refunded integer, refund_id text, dispute jsonb
)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  sold public.orders;
  line record;
begin
  perform private.require_marketplace_request();
  select * into sold from public.orders o where o.payment_intent = apply_payment_news.payment_intent and o.state = 'paid'
  for update;
  if not found then
    return null;
  end if;
  insert into private.payment_events (id, type) values (apply_payment_news.event_id, apply_payment_news.event_type)
  on conflict (id) do nothing;
  if not found then
    return private.unsent_mails(sold.id);
  end if;
  if apply_payment_news.refunded is not null and apply_payment_news.refunded >= sold.total_cents + sold.tax_cents then
    for line in select l.id from public.order_lines l where l.order_id = sold.id and l.refunded_at is null loop
      perform private.mark_refunded(line.id, apply_payment_news.refund_id);
    end loop;
  end if;
  if apply_payment_news.dispute is not null then
    insert into public.order_disputes (id, order_id, amount_cents, currency, reason, status, closed_at)
    values (dispute ->> 'id', sold.id, (dispute ->> 'amount')::integer, upper(dispute ->> 'currency'),
      coalesce(dispute ->> 'reason', 'general'), dispute ->> 'status',
      case when (dispute ->> 'closed')::boolean then now() end)
    on conflict (id) do update set status = excluded.status,
      closed_at = coalesce(public.order_disputes.closed_at, excluded.closed_at);
  end if;
  return private.unsent_mails(sold.id);
end
$$;

revoke execute on function private.apply_payment_news(text, text, text, integer, text, jsonb) from public;

grant execute on function private.apply_payment_news(text, text, text, integer, text, jsonb) to anon, authenticated;

create or replace function public.apply_payment_news(
  payment_intent text, event_id text, event_type text, refunded integer default null, refund_id text default null,
  dispute jsonb default null
)
returns uuid[]
language sql
security invoker
set search_path = ''
as $$
  select private.apply_payment_news(apply_payment_news.payment_intent, apply_payment_news.event_id,
    apply_payment_news.event_type, apply_payment_news.refunded, apply_payment_news.refund_id, apply_payment_news.dispute)
$$;

revoke execute on function public.apply_payment_news(text, text, text, integer, text, jsonb) from public;

grant execute on function public.apply_payment_news(text, text, text, integer, text, jsonb) to anon, authenticated;
