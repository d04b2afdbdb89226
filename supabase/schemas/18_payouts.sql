-- Payouts: an artist's available balance sent by PayPal once per balance due (payouts_to_send,
-- withdraw_now), or each paid line's share transferred to their Stripe account, settled when the provider
-- says (payout_sent, payout_unclaimed while PayPal waits for the artist to claim it, payout_settled), and a transfer taken back when its line is refunded. The table and
-- the ledger entries a payout writes are in 18_ledger.sql.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- A payout of an artist's whole available balance in `currency`, where it is at or above their
-- threshold (whole units of the currency) and none is on its way: the payout and its debit, in one
-- transaction. Null when none is due. Two at once start one (payouts_one_sending_idx).
-- What follows its writes: no trigger fires; it writes the payout's debit in the ledger itself.
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
-- What follows its writes: no trigger fires; it writes the payout's debit in the ledger itself.
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

-- A payout the provider took (its payout's id, `provider_id`), through the marketplace alone; with what it
-- sent when it converted the amount (a Stripe transfer in the platform's settlement currency: that
-- currency, the amount in it, the charge's exchange rate).
-- What follows its writes: nothing fires; the payout is settled when the provider says (payout_settled).
create or replace function private.payout_sent(payout_id uuid, provider_id text, sent_currency text, sent_amount_cents integer,
  exchange_rate numeric)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.payouts p set provider_id = payout_sent.provider_id, sent_currency = upper(payout_sent.sent_currency),
    sent_amount_cents = payout_sent.sent_amount_cents, exchange_rate = payout_sent.exchange_rate
  where p.id = payout_sent.payout_id and p.state = 'sending';
end
$$;

revoke execute on function private.payout_sent(uuid, text, text, integer, numeric) from public;

grant execute on function private.payout_sent(uuid, text, text, integer, numeric) to anon, authenticated;

create or replace function public.payout_sent(payout_id uuid, provider_id text, sent_currency text default null,
  sent_amount_cents integer default null, exchange_rate numeric default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.payout_sent(payout_sent.payout_id, payout_sent.provider_id, payout_sent.sent_currency,
    payout_sent.sent_amount_cents, payout_sent.exchange_rate)
$$;

revoke execute on function public.payout_sent(uuid, text, text, integer, numeric) from public;

grant execute on function public.payout_sent(uuid, text, text, integer, numeric) to anon, authenticated;

-- A payout the provider holds for its artist to claim (PayPal's UNCLAIMED: no PayPal account at that
-- address; `since`, when PayPal processed it, starts their 30 days), through the marketplace alone, once.
-- It stays `sending` and its ledger debit stands: the money is with PayPal, not back in the balance, until
-- it is claimed (paid) or returned (failed: settle_payout).
-- What follows its writes: nothing fires; the Payments page shows the days left to claim it, the Admin
-- Dashboard lists it (admin_money), and the job keeps asking after it.
create or replace function private.payout_unclaimed(payout_id uuid, since timestamptz)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.payouts p set unclaimed_at = payout_unclaimed.since
  where p.id = payout_unclaimed.payout_id and p.state = 'sending' and p.provider_id is not null and p.unclaimed_at is null;
end
$$;

revoke execute on function private.payout_unclaimed(uuid, timestamptz) from public;

grant execute on function private.payout_unclaimed(uuid, timestamptz) to anon, authenticated;

create or replace function public.payout_unclaimed(payout_id uuid, since timestamptz)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.payout_unclaimed(payout_unclaimed.payout_id, payout_unclaimed.since)
$$;

revoke execute on function public.payout_unclaimed(uuid, timestamptz) from public;

grant execute on function public.payout_unclaimed(uuid, timestamptz) to anon, authenticated;

-- A payout's outcome, once: paid, or failed with the provider's reason (its amount back to the balance).
-- What follows its writes: no trigger fires; a failed payout's amount goes back to the ledger here. No
-- mail: the artist reads it on the Payments page, administrators in admin_money (18_admin_money.sql).
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

-- The provider's word on a payout, through the marketplace alone. What follows its writes: settle_payout's
-- (above).
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
-- What follows its writes: no trigger fires; the amount comes back to the ledger here.
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
