-- What the payment provider says beyond an order's outcome (17_fulfilment.sql applies that): the tax a paid
-- order's payment collected (apply_checkout keeps it), what each paid payment added to Crate's balance (its
-- settlement, for the books), and the provider's events the webhook could not apply, kept for
-- administrators until one delivery of each is applied.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The tax a paid order's payment collected, kept on its lines once as the payment provider worked it out:
-- `tax` is `{ included, lines: [{ amount, rate, name, country }], shipping: { amount, rate, name, country } }`,
-- its lines in the order the checkout listed them (order_lines.position); the shipping's tax shared between
-- the merch lines by their shipping, the cents that do not divide evenly going to the first. Added on top,
-- the lines stand as priced; `included` in the prices, each line's price and shipping lose their tax, so
-- that a line's total is before tax whichever way (what its buyer paid is total + tax), and its artist's
-- share is again their percent of its price after discounts, and all its shipping. The order keeps the sum,
-- and its total before tax. What follows its writes: nothing fires (the order is paid after).
create or replace function private.record_order_tax(order_id uuid, tax jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  shipping jsonb := record_order_tax.tax -> 'shipping';
  shipping_tax integer := coalesce((record_order_tax.tax -> 'shipping' ->> 'amount')::integer, 0);
  included boolean := coalesce((record_order_tax.tax ->> 'included')::boolean, false);
begin
  with items as (
    select t.position, t.item
    from jsonb_array_elements(record_order_tax.tax -> 'lines') with ordinality as t (item, position)
  ),
  parts as (
    select l.id, l.position, l.shipping_cents,
      case when l.shipping_cents > 0 and shipping_tax > 0
        then floor(shipping_tax::numeric * l.shipping_cents / sum(l.shipping_cents) filter (where l.shipping_cents > 0) over ())::integer
        else 0 end as shipping_part
    from public.order_lines l
    where l.order_id = record_order_tax.order_id
  ),
  taxed as (
    select p.id, coalesce((i.item ->> 'amount')::integer, 0) as item_tax,
      p.shipping_part + case when p.shipping_cents > 0 and p.position = min(p.position) filter (where p.shipping_cents > 0) over ()
        then shipping_tax - sum(p.shipping_part) over () else 0 end as shipping_tax,
      nullif(i.item ->> 'rate', '')::numeric as rate, i.item ->> 'name' as name, i.item ->> 'country' as country
    from parts p
    left join items i on i.position = p.position
  )
  update public.order_lines l
  set tax_cents = t.item_tax + t.shipping_tax,
    tax_rate = case when t.item_tax > 0 then t.rate when t.shipping_tax > 0 then (shipping ->> 'rate')::numeric end,
    tax_name = case when t.item_tax > 0 then t.name when t.shipping_tax > 0 then shipping ->> 'name' end,
    tax_country = case when t.item_tax > 0 then t.country when t.shipping_tax > 0 then shipping ->> 'country' end,
    amount_cents = l.amount_cents - case when included then t.item_tax else 0 end,
    shipping_cents = l.shipping_cents - case when included then t.shipping_tax else 0 end,
    total_cents = l.total_cents - case when included then t.item_tax + t.shipping_tax else 0 end,
    artist_share_cents = case when included
      then round((l.amount_cents - t.item_tax - l.code_discount_cents - l.bundle_discount_cents)
        * private.artist_share_percent(l.kind) / 100.0)::integer + l.shipping_cents - t.shipping_tax
      else l.artist_share_cents end,
    crate_cents = case when included
      then (l.total_cents - t.item_tax - t.shipping_tax) - (round((l.amount_cents - t.item_tax - l.code_discount_cents
        - l.bundle_discount_cents) * private.artist_share_percent(l.kind) / 100.0)::integer + l.shipping_cents - t.shipping_tax)
      else l.crate_cents end
  from taxed t
  where l.id = t.id and t.item_tax + t.shipping_tax > 0;
  update public.orders o
  set tax_cents = (select coalesce(sum(l.tax_cents), 0) from public.order_lines l where l.order_id = o.id),
    total_cents = (select coalesce(sum(l.total_cents), 0) from public.order_lines l where l.order_id = o.id)
  where o.id = record_order_tax.order_id;
end
$$;

revoke execute on function private.record_order_tax(uuid, jsonb) from public, anon, authenticated;

-- An order's taxes as its receipt lists them: one per tax, country and rate ("VAT (DE) 19%"), with its amount.
-- Runs as its caller: the reads that list it (a buyer's return page, a guest's receipt, a mail) decide whose.
create or replace function private.order_taxes(order_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('name', t.tax_name, 'country', t.tax_country, 'rate', t.tax_rate, 'amount', t.amount)
    order by t.tax_country, t.tax_name, t.tax_rate), '[]')
  from (
    select l.tax_name, l.tax_country, l.tax_rate, sum(l.tax_cents) as amount
    from public.order_lines l
    where l.order_id = order_taxes.order_id and l.tax_cents > 0
    group by l.tax_name, l.tax_country, l.tax_rate
  ) t
$$;

revoke execute on function private.order_taxes(uuid) from public;

grant execute on function private.order_taxes(uuid) to anon, authenticated;

-- What a paid order's payment added to the platform's balance, as the provider's balance transaction says:
-- in the platform's settlement currency, its amount, the provider's fee and the rate the charge was
-- converted at (null when it was charged in that currency). Kept apart from the order, which its buyer
-- reads: the fee and the rate are Crate's books, not the buyer's.
create table private.order_settlements (
  order_id uuid primary key references public.orders (id) on delete cascade,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  amount_cents integer not null,
  fee_cents integer not null,
  exchange_rate numeric check (exchange_rate > 0),
  recorded_at timestamptz not null default now()
);

revoke all on table private.order_settlements from public, anon, authenticated;

-- A paid order's settlement (above), found by its payment, through the marketplace alone; once (the webhook's
-- news of a payment may come again). What follows its writes: nothing fires.
create or replace function private.payment_settled(payment_intent text, currency text, amount_cents integer, fee_cents integer,
  exchange_rate numeric)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  insert into private.order_settlements (order_id, currency, amount_cents, fee_cents, exchange_rate)
  select o.id, upper(payment_settled.currency), payment_settled.amount_cents, payment_settled.fee_cents,
    payment_settled.exchange_rate
  from public.orders o
  where o.payment_intent = payment_settled.payment_intent and o.state = 'paid'
  on conflict (order_id) do nothing;
end
$$;

revoke execute on function private.payment_settled(text, text, integer, integer, numeric) from public;

grant execute on function private.payment_settled(text, text, integer, integer, numeric) to anon, authenticated;

create or replace function public.payment_settled(payment_intent text, currency text, amount_cents integer, fee_cents integer,
  exchange_rate numeric default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.payment_settled(payment_settled.payment_intent, payment_settled.currency, payment_settled.amount_cents,
    payment_settled.fee_cents, payment_settled.exchange_rate)
$$;

revoke execute on function public.payment_settled(text, text, integer, integer, numeric) from public;

grant execute on function public.payment_settled(text, text, integer, integer, numeric) to anon, authenticated;

-- The provider's events the webhook could not apply, each with its last error, kept for administrators
-- (the Admin Dashboard's "Needs a person", "Apply again") until one delivery of it is applied: the provider
-- sends a failed event again for days (Stripe: up to three), after which only a person applies it. The
-- connected account an event is about (Connect's), to ask the provider for it again.
create table private.failed_payment_events (
  event_id text primary key,
  provider text not null check (provider ~ '^[a-z][a-z0-9_]*$'),
  event_type text not null,
  account text,
  failure text not null,
  attempts integer not null default 1,
  first_failed_at timestamptz not null default now(),
  last_failed_at timestamptz not null default now()
);

revoke all on table private.failed_payment_events from public, anon, authenticated;

-- The Admin Dashboard lists them newest first.
create index failed_payment_events_last_failed_at_idx on private.failed_payment_events (last_failed_at desc);

-- How applying one of the provider's events went, through the marketplace alone: failed, kept with its
-- error (once per event, counting the attempts); applied (no failure), forgotten.
-- What follows its writes: nothing fires.
create or replace function private.payment_event_outcome(provider text, event_id text, event_type text, account text, failure text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  if payment_event_outcome.failure is null then
    delete from private.failed_payment_events f where f.event_id = payment_event_outcome.event_id;
    return;
  end if;
  insert into private.failed_payment_events (event_id, provider, event_type, account, failure)
  values (left(payment_event_outcome.event_id, 255), payment_event_outcome.provider, left(payment_event_outcome.event_type, 255),
    left(payment_event_outcome.account, 255), left(payment_event_outcome.failure, 500))
  on conflict on constraint failed_payment_events_pkey do update
  set failure = excluded.failure, attempts = private.failed_payment_events.attempts + 1, last_failed_at = now();
end
$$;

revoke execute on function private.payment_event_outcome(text, text, text, text, text) from public;

grant execute on function private.payment_event_outcome(text, text, text, text, text) to anon, authenticated;

create or replace function public.payment_event_outcome(provider text, event_id text, event_type text, account text default null,
  failure text default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.payment_event_outcome(payment_event_outcome.provider, payment_event_outcome.event_id,
    payment_event_outcome.event_type, payment_event_outcome.account, payment_event_outcome.failure)
$$;

revoke execute on function public.payment_event_outcome(text, text, text, text, text) from public;

grant execute on function public.payment_event_outcome(text, text, text, text, text) to anon, authenticated;

-- The events not applied, for administrators alone: how many, and the newest 50.
create or replace function private.failed_payment_events()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'administrators alone read the payment events not applied' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'count', (select count(*) from private.failed_payment_events),
    'events', coalesce((
      select jsonb_agg(to_jsonb(f) order by f.last_failed_at desc)
      from (select * from private.failed_payment_events f order by f.last_failed_at desc limit 50) f), '[]'));
end
$$;

revoke execute on function private.failed_payment_events() from public;

grant execute on function private.failed_payment_events() to authenticated;

create or replace function public.failed_payment_events()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.failed_payment_events()
$$;

revoke execute on function public.failed_payment_events() from public;

grant execute on function public.failed_payment_events() to authenticated;

-- An administrator's "Apply again" of an event listed as not applied, through the marketplace (which then
-- asks its provider for it and applies it): its provider and the account it is about, the ask written to
-- the audit log. Null for an event not listed (applied since, or never failed): nothing to apply again.
create or replace function private.payment_event_to_apply(event_id text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  listed private.failed_payment_events;
begin
  perform private.require_marketplace_request();
  if not public.is_admin() then
    raise exception 'administrators alone apply a payment event again' using errcode = '42501';
  end if;
  select * into listed from private.failed_payment_events f where f.event_id = payment_event_to_apply.event_id;
  if not found then
    return null;
  end if;
  insert into public.audit_log (actor_id, actor_email, action, summary)
  values ((select auth.uid()), (select auth.jwt()) ->> 'email', 'payment_event.apply_again',
    listed.event_type || ' ' || listed.event_id);
  return jsonb_build_object('provider', listed.provider, 'account', listed.account);
end
$$;

revoke execute on function private.payment_event_to_apply(text) from public;

grant execute on function private.payment_event_to_apply(text) to anon, authenticated;

create or replace function public.payment_event_to_apply(event_id text)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.payment_event_to_apply(payment_event_to_apply.event_id)
$$;

revoke execute on function public.payment_event_to_apply(text) from public;

grant execute on function public.payment_event_to_apply(text) to anon, authenticated;
