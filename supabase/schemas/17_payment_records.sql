-- What the payment provider says beyond an order's outcome (17_fulfilment.sql applies that): the tax a paid
-- order's payment collected (apply_checkout keeps it), what each paid payment added to Crate's balance (its
-- settlement, for the books), and the provider's events the webhook could not apply, kept for
-- administrators until one delivery of each is applied.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The tax a paid order's payment collected, kept on its lines once as the payment provider worked it out:
-- `tax` is `{ included, lines: [{ amount, rate, name, country }], shipping: { amount, rate, name, country } }`,
-- its lines in the order the checkout listed them (order_lines.position; an order whose lines cannot be
-- matched so, opened before they kept their place, shares its lines' tax by their prices). The shipping's
-- tax is shared between the merch lines by their shipping, the cents that do not divide evenly going to the
-- last. Added on top, the lines stand as priced; `included` in the prices, each line's price, discounts and
-- shipping are taken back to before tax (its discounts in proportion), so a line's total is before tax
-- whichever way (what its buyer paid is total + tax), and its artist's share is again their percent of its
-- price after discounts, and all its shipping, as priced_cart works it out. The order keeps the sum, and its
-- total before tax. What follows its writes: nothing fires (the order is paid after).
create or replace function private.record_order_tax(order_id uuid, tax jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  given jsonb := coalesce(record_order_tax.tax -> 'lines', '[]');
  shipping jsonb := record_order_tax.tax -> 'shipping';
  shipping_tax integer := coalesce((record_order_tax.tax -> 'shipping' ->> 'amount')::integer, 0);
  included boolean := coalesce((record_order_tax.tax ->> 'included')::boolean, false);
  items_tax integer := (select coalesce(sum((t ->> 'amount')::integer), 0) from jsonb_array_elements(given) t);
  by_place boolean;
  prices integer;
  postage integer;
  merch_lines integer;
  line record;
  item jsonb;
  item_tax integer;
  items_left integer := items_tax;
  line_shipping_tax integer;
  shipping_left integer := shipping_tax;
  merch_seen integer := 0;
  paid integer;
  net integer;
  code_discount integer;
  bundle_discount integer;
  postage_net integer;
begin
  select count(*) = jsonb_array_length(given) and count(*) filter (where l.position is null) = 0,
    coalesce(sum(l.total_cents - l.shipping_cents), 0), coalesce(sum(l.shipping_cents), 0), count(*) filter (where l.shipping_cents > 0)
  into by_place, prices, postage, merch_lines
  from public.order_lines l where l.order_id = record_order_tax.order_id;
  for line in
    select l.*, row_number() over (order by l.position nulls last, l.id) as n, count(*) over () as lines
    from public.order_lines l where l.order_id = record_order_tax.order_id
    order by l.position nulls last, l.id
  loop
    if by_place then
      item := given -> (line.position - 1);
      item_tax := coalesce((item ->> 'amount')::integer, 0);
    else
      item := (select t from jsonb_array_elements(given) t where (t ->> 'amount')::integer > 0 limit 1);
      item_tax := case when line.n = line.lines then items_left
        else floor(items_tax::numeric * (line.total_cents - line.shipping_cents) / nullif(prices, 0))::integer end;
      item_tax := coalesce(item_tax, 0);
      items_left := items_left - item_tax;
    end if;
    line_shipping_tax := 0;
    if line.shipping_cents > 0 then
      merch_seen := merch_seen + 1;
      line_shipping_tax := case when merch_seen = merch_lines then shipping_left
        else floor(shipping_tax::numeric * line.shipping_cents / postage)::integer end;
      shipping_left := shipping_left - line_shipping_tax;
    end if;
    continue when item_tax + line_shipping_tax = 0;
    paid := line.amount_cents - line.code_discount_cents - line.bundle_discount_cents;
    net := paid - case when included then item_tax else 0 end;
    code_discount := case when included and paid > 0 then round(line.code_discount_cents::numeric * net / paid)::integer
      else line.code_discount_cents end;
    bundle_discount := case when included and paid > 0 then round(line.bundle_discount_cents::numeric * net / paid)::integer
      else line.bundle_discount_cents end;
    postage_net := line.shipping_cents - case when included then line_shipping_tax else 0 end;
    if item_tax = 0 then
      item := shipping;
    end if;
    update public.order_lines l
    set tax_cents = item_tax + line_shipping_tax, tax_rate = (item ->> 'rate')::numeric, tax_name = item ->> 'name',
      tax_country = item ->> 'country', amount_cents = net + code_discount + bundle_discount, code_discount_cents = code_discount,
      bundle_discount_cents = bundle_discount, shipping_cents = postage_net, total_cents = net + postage_net,
      artist_share_cents = case when included then round(net * private.artist_share_percent(line.kind) / 100.0)::integer + postage_net
        else l.artist_share_cents end,
      crate_cents = case when included then net + postage_net
        - (round(net * private.artist_share_percent(line.kind) / 100.0)::integer + postage_net) else l.crate_cents end
    where l.id = line.id;
  end loop;
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
