-- What the payment provider says beyond an order's outcome (17_fulfilment.sql applies that): what each
-- paid payment added to Crate's balance (its settlement, for the books), and the provider's events the
-- webhook could not apply, kept for administrators until one delivery of each is applied.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

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
