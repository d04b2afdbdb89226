-- Fulfilment: the payment provider's word on a checkout applied once (apply_checkout), an order paid and
-- its purchases made once however often the news comes (fulfil_order), the return page's read, a paid
-- order's files made, and merch sent. A payment's consequences outside this file: the artists' shares
-- credited (18_ledger.sql), the artists' notices (19_notifications.sql), the mails (17_mail.sql).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The payment provider's events taken, each once: a second delivery of one is acknowledged and does
-- nothing. Recorded in the transaction that applies it, so an event whose work failed is taken again.
create table private.payment_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);

revoke all on table private.payment_events from public, anon, authenticated;

-- An order paid: its purchases made, once, however often this is asked (the webhook and the return page
-- both ask, in either order, as often as they are delivered). A track line is its track; an album line is
-- each of its tracks out by now that the buyer does not own yet (as priced_cart priced it), the line's
-- total divided between them by their prices (the cents that do not divide evenly going to the first); a
-- track whose day comes later is given then (give_released_album_tracks, 13). The buyer follows the order's artists where
-- they chose to. Its merch is sold from the hold its checkout kept, to the address the payment collected;
-- merch the stock no longer covers (its hold lapsed or was ended, and others bought it meanwhile) is not
-- sold twice: its line is marked undeliverable, for the marketplace to refund at once. So is a line priced
-- with a discount code whose uses were taken meanwhile (its checkout was ended or lapsed, and its use went
-- to another order): a code is never paid more often than its maxUses, whenever the payment lands.
-- What follows its writes: the order made `paid` credits each line's artist share to the ledger
-- (trigger credit_paid_orders, 18_ledger.sql) and tells each artist of the sale in the site
-- (orders_notify_sale, 19_notifications.sql); each purchase made takes its track's artist
-- (fill_purchase_artist, 05_fan.sql), counts in the analytics' roll-ups (roll_up_new_purchases,
-- 07_analytics.sql) and reaches the artist's live dashboard (Realtime, 10_realtime.sql); each artist now
-- followed counts the follower (count_follower, 05_fan.sql) and is told (followers_notify_artist). The
-- receipt and each artist's "you sold" are written here as mails (queue_order_mails, 17_mail.sql), which
-- the Worker queues; the files to make are asked for next (prepare_order_files, below).
create or replace function private.fulfil_order(paid public.orders, payment_intent text, country text, shipping_address jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Its merch read again against the stock, locked as open_order locks it, so two late payments for the
  -- last one are weighed one after the other. A line is sent whole or refunded whole.
  perform 1 from public.merch m
  where m.id in (select l.item_id from public.order_lines l where l.order_id = paid.id and l.kind = 'merch')
  order by m.id
  for update;
  insert into private.undeliverable_lines (line_id)
  select l.id from public.order_lines l
  where l.order_id = paid.id and l.kind = 'merch' and l.refunded_at is null and private.merch_left(l.item_id, paid.id) < l.quantity
  on conflict (line_id) do nothing;
  -- Its discount codes read again against their uses, the stores locked as open_order locks them (after the
  -- merch, as there), so a payment and a checkout pricing the last use are weighed one after the other. A
  -- use held by another order (paid, settling, or open and payable: code_uses, as priced_cart counts) while
  -- this one's checkout was ended, or had lapsed, is that order's: this order's lines with the code are
  -- refunded whole. A code since removed, or with no maxUses now, bounds nothing.
  perform 1 from public.store_settings s
  where s.artist_id in (select l.artist_id from public.order_lines l where l.order_id = paid.id and l.discount_code is not null)
  order by s.artist_id
  for update;
  insert into private.undeliverable_lines (line_id)
  select l.id from public.order_lines l
  join public.store_settings s on s.artist_id = l.artist_id
  cross join lateral (
    select (d ->> 'maxUses')::integer as max_uses
    from jsonb_array_elements(s.discounts) d
    where lower(btrim(d ->> 'code')) = lower(btrim(l.discount_code)) and jsonb_typeof(d -> 'maxUses') = 'number'
    limit 1
  ) code
  where l.order_id = paid.id and l.refunded_at is null and l.discount_code is not null
    and private.code_uses(l.artist_id, l.discount_code, paid.id) >= code.max_uses
  on conflict (line_id) do nothing;
  update public.orders o
  set state = 'paid', paid_at = now(), payment_intent = fulfil_order.payment_intent,
    country = case when fulfil_order.country ~ '^[A-Z]{2}$' then fulfil_order.country end,
    shipping_address = case when paid.ship_to is not null and jsonb_typeof(fulfil_order.shipping_address) = 'object'
      then fulfil_order.shipping_address end
  where o.id = paid.id;
  with tracks as (
    select l.id as line_id, l.total_cents, t.id as track_id, t.price,
      row_number() over (partition by l.id order by t.track_number nulls last, t.created_at, t.id) as n,
      sum(t.price) over (partition by l.id) as line_price
    from public.order_lines l
    join public.tracks t on (l.kind = 'track' and t.id = l.item_id) or (l.kind = 'album' and t.release_id = l.item_id)
    where l.order_id = paid.id and t.release_date <= current_date
      -- A line being refunded gives nothing meanwhile.
      and not exists (select 1 from private.undeliverable_lines u where u.line_id = l.id)
      -- A gift is its recipient's, once claimed (claim_gift, 17_gifts.sql), never the giver's.
      and not exists (select 1 from public.gifts g where g.order_line_id = l.id)
      and (paid.buyer_id is null or not exists (
        select 1 from public.purchases p where p.track_id = t.id and p.user_id = paid.buyer_id))
  ),
  shares as (
    select s.*, floor(s.total_cents * s.price / nullif(s.line_price, 0))::integer as cents
    from tracks s
  )
  insert into public.purchases (amount, track_id, user_id, order_line_id, country)
  select (s.cents + case when s.n = 1 then s.total_cents - sum(s.cents) over (partition by s.line_id) else 0 end) / 100.0,
    s.track_id, paid.buyer_id, s.line_id, case when fulfil_order.country ~ '^[A-Z]{2}$' then fulfil_order.country end
  from shares s;
  -- What was bought leaves the buyer's cart.
  delete from public.cart_lines c
  using public.order_lines l
  where l.order_id = paid.id and c.user_id = paid.buyer_id and c.kind = l.kind and c.item_id = l.item_id;
  if paid.follow_artists and paid.buyer_id is not null then
    insert into public.followers (artist_id, fan_id)
    select distinct l.artist_id, paid.buyer_id from public.order_lines l
    where l.order_id = paid.id and l.artist_id <> paid.buyer_id
    on conflict (artist_id, fan_id) do nothing;
  end if;
  perform private.queue_order_mails(paid.id);
  perform private.mail_due_gifts(paid.id);
end
$$;

revoke execute on function private.fulfil_order(public.orders, text, text, jsonb) from public, anon, authenticated;

-- An order's lines marked undeliverable and not refunded yet: the refunds the marketplace still owes.
create or replace function private.refunds_owed(order_id uuid)
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(l.id order by l.id), '{}')
  from private.undeliverable_lines u join public.order_lines l on l.id = u.line_id
  where l.order_id = refunds_owed.order_id and l.refunded_at is null
$$;

revoke execute on function private.refunds_owed(uuid) from public, anon, authenticated;

-- What the payment provider said about a checkout (`paid`, `pending`, `failed`, `expired`), applied to its
-- order through the marketplace alone: a payment fulfils it (once); a failed or lapsed checkout closes an
-- order not paid. `event_id`: the provider's event, taken once (a second delivery changes nothing); null
-- when the return page asks, having asked the provider itself. `order_id`: the checkout's metadata's.
-- `shipping_address`: where the payment says its merch goes.
-- Answers {order_id, state, buyer_id, mails, refunds} (`mails`: the order's mails not sent yet, for the
-- Worker to queue, a repeated event's too, so a queue that failed once loses nothing; `refunds`: its lines
-- paid for but undeliverable and not refunded yet, which the Worker refunds at once, likewise), or null for
-- a checkout no order has (nothing is recorded then).
-- What follows its writes: a payment's, through fulfil_order (above, which names its triggers). `pending`,
-- `failed` and `expired` fire no trigger: the ledger, the notices and the mail wait for `paid`; an order
-- failed or expired lets its holds go (merch_left and code_uses count open orders alone).
create or replace function private.apply_checkout(
  checkout_session text, outcome text, payment_intent text, country text, event_id text, event_type text, order_id uuid,
  shipping_address jsonb, tax jsonb
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_order public.orders;
begin
  perform private.require_marketplace_request();
  if apply_checkout.outcome not in ('paid', 'pending', 'failed', 'expired') then
    raise exception 'unknown checkout outcome %', apply_checkout.outcome using errcode = '22023';
  end if;
  -- Its order, by the checkout it keeps, or (news that came before the order kept it) by the order id the
  -- checkout's metadata carries. Locked, so the same news at once is applied one after the other.
  select * into found_order from public.orders o
  where o.checkout_session = apply_checkout.checkout_session
    or (o.id = apply_checkout.order_id and o.checkout_session is null)
  for update;
  if not found then
    -- Not one of ours: nothing recorded.
    return null;
  end if;
  if found_order.checkout_session is null then
    update public.orders o set checkout_session = apply_checkout.checkout_session where o.id = found_order.id;
  end if;
  if apply_checkout.event_id is not null then
    insert into private.payment_events (id, type) values (apply_checkout.event_id, coalesce(apply_checkout.event_type, ''))
    on conflict (id) do nothing;
    if not found then
      return jsonb_build_object('duplicate', true, 'mails', to_jsonb(private.unsent_mails(found_order.id)),
        'refunds', to_jsonb(private.refunds_owed(found_order.id)));
    end if;
  end if;
  if found_order.state <> 'paid' then
    if apply_checkout.outcome = 'paid' then
      if apply_checkout.tax is not null then
        perform private.record_order_tax(found_order.id, apply_checkout.tax);
      end if;
      perform private.fulfil_order(found_order, apply_checkout.payment_intent, apply_checkout.country,
        apply_checkout.shipping_address);
      found_order.state := 'paid';
    elsif apply_checkout.outcome = 'pending' and found_order.state = 'open' then
      update public.orders o set state = 'pending' where o.id = found_order.id;
      found_order.state := 'pending';
    elsif apply_checkout.outcome in ('failed', 'expired') then
      update public.orders o set state = apply_checkout.outcome where o.id = found_order.id;
      found_order.state := apply_checkout.outcome;
    end if;
  end if;
  return jsonb_build_object('order_id', found_order.id, 'state', found_order.state, 'buyer_id', found_order.buyer_id,
    'mails', to_jsonb(private.unsent_mails(found_order.id)), 'refunds', to_jsonb(private.refunds_owed(found_order.id)));
end
$$;

revoke execute on function private.apply_checkout(text, text, text, text, text, text, uuid, jsonb, jsonb) from public;

grant execute on function private.apply_checkout(text, text, text, text, text, text, uuid, jsonb, jsonb) to anon, authenticated;

create or replace function public.apply_checkout(
  checkout_session text, outcome text, payment_intent text default null, country text default null,
  event_id text default null, event_type text default null, order_id uuid default null, shipping_address jsonb default null,
  tax jsonb default null
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.apply_checkout(apply_checkout.checkout_session, apply_checkout.outcome, apply_checkout.payment_intent,
    apply_checkout.country, apply_checkout.event_id, apply_checkout.event_type, apply_checkout.order_id,
    apply_checkout.shipping_address, apply_checkout.tax)
$$;

revoke execute on function public.apply_checkout(text, text, text, text, text, text, uuid, jsonb, jsonb) from public;

grant execute on function public.apply_checkout(text, text, text, text, text, text, uuid, jsonb, jsonb) to anon, authenticated;

-- The return page's read: the caller's order of a checkout, with what it bought (each line's item and
-- total) and whether it is paid. Null for a checkout that is not the caller's.
create or replace function public.checkout_order(checkout_session text)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'id', o.id, 'state', o.state, 'currency', o.currency, 'total', o.total_cents, 'email', o.buyer_email,
    'waived_withdrawal', o.waived_withdrawal, 'ship_to', o.ship_to, 'taxes', private.order_taxes(o.id),
    'lines', (
      select jsonb_agg(jsonb_build_object('kind', l.kind, 'item_id', l.item_id, 'title', l.title, 'quantity', l.quantity, 'total', l.total_cents,
          -- A gift's recipient (17_gifts.sql): the line is theirs to claim, not the buyer's to download.
          'gift_for', (select g.recipient_email from public.gifts g where g.order_line_id = l.id)) order by l.title)
      from public.order_lines l where l.order_id = o.id))
  from public.orders o
  where o.checkout_session = checkout_order.checkout_session and o.buyer_id = (select auth.uid())
$$;

revoke execute on function public.checkout_order(text) from public;

grant execute on function public.checkout_order(text) to authenticated;

comment on function public.checkout_order(text) is
  'Runs as its caller: the return page''s read of the caller''s own order, as row-level security lets them.';

-- The checkout of an open order its buyer came back from without paying (the payment page's way back names
-- the order), through the marketplace alone, which ends it with the provider: what the order held (the
-- last of a merch item, a code's last use) is let go at once rather than when the checkout lapses. Only the
-- buyer's own: a signed-in buyer's, or a guest's that the marketplace names in `X-Guest-Order` (guest_order),
-- having checked the way back was the one their checkout was given. Null for anyone else's order, and for
-- one paid, closed or with no checkout to end.
create or replace function private.checkout_to_end(order_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  return (select o.checkout_session from public.orders o
    where o.id = checkout_to_end.order_id and o.state = 'open' and o.checkout_session not like 'free\_%'
      and (o.buyer_id = (select auth.uid()) or (o.guest and o.buyer_id is null and o.id = (select private.guest_order()))));
end
$$;

revoke execute on function private.checkout_to_end(uuid) from public;

grant execute on function private.checkout_to_end(uuid) to anon, authenticated;

create or replace function public.checkout_to_end(order_id uuid)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select private.checkout_to_end(checkout_to_end.order_id)
$$;

revoke execute on function public.checkout_to_end(uuid) from public;

grant execute on function public.checkout_to_end(uuid) to anon, authenticated;

-- A paid order's files made (through the marketplace alone, as it applies the payment): the MP3 of each
-- track the order gave, so a download is ready soon after paying. Never for an order not paid: opening
-- checkouts makes no one's files outside the hourly bound. Answers the tracks whose file the media queue
-- must make (those made already, or being made, are not asked again).
create or replace function private.prepare_order_files(order_id uuid)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  asked uuid[] := '{}';
  wanted record;
begin
  perform private.require_marketplace_request();
  for wanted in
    select distinct t.id, t.file_url
    from public.orders o
    join public.order_lines l on l.order_id = o.id
    join public.purchases p on p.order_line_id = l.id
    join public.tracks t on t.id = p.track_id
    where o.id = prepare_order_files.order_id and o.state = 'paid' and nullif(t.file_url, '') is not null
  loop
    -- Asked by the marketplace, not the buyer: it counts toward no one's hourly bound of files to make.
    if private.request_made_file(wanted.id, 'mp3', wanted.file_url, null) then
      asked := asked || wanted.id;
    end if;
  end loop;
  return asked;
end
$$;

revoke execute on function private.prepare_order_files(uuid) from public;

grant execute on function private.prepare_order_files(uuid) to anon, authenticated;

create or replace function public.prepare_order_files(order_id uuid)
returns uuid[]
language sql
security invoker
set search_path = ''
as $$
  select private.prepare_order_files(prepare_order_files.order_id)
$$;

revoke execute on function public.prepare_order_files(uuid) from public;

grant execute on function public.prepare_order_files(uuid) to anon, authenticated;

-- Merch to send: an artist's paid merch lines (not refunded), those to ship first then the newest, with the
-- address the payment collected (the line's artist alone reads it), at most 100.
create or replace function private.merch_orders()
returns table (
  line_id uuid, order_reference text, paid_at timestamptz, title text, quantity integer, currency text, total integer,
  ship_to text, shipping_address jsonb, shipped_at timestamptz, tracking text
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.id, private.order_reference(o.id), o.paid_at, l.title, l.quantity, o.currency, l.total_cents, o.ship_to, o.shipping_address,
    l.shipped_at, l.tracking
  from public.order_lines l
  join public.orders o on o.id = l.order_id
  where l.artist_id = (select auth.uid()) and l.kind = 'merch' and o.state = 'paid' and l.refunded_at is null
  order by l.shipped_at is not null, o.paid_at desc, l.id
  limit 100
$$;

revoke execute on function private.merch_orders() from public;

grant execute on function private.merch_orders() to authenticated;

create or replace function public.merch_orders()
returns table (
  line_id uuid, order_reference text, paid_at timestamptz, title text, quantity integer, currency text, total integer,
  ship_to text, shipping_address jsonb, shipped_at timestamptz, tracking text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.merch_orders()
$$;

revoke execute on function public.merch_orders() from public;

grant execute on function public.merch_orders() to authenticated;

-- A merch line sent by its artist (active, through the marketplace, which queues the mail), once: with its
-- tracking number, taken out of the item's stock, and the buyer told. Answers the mails not sent yet; 42501
-- for anyone but the line's artist, 22023 for a line not paid, refunded or not merch.
-- What follows its writes: the buyer's notice in the site (trigger order_lines_notify_shipped,
-- 19_notifications.sql); the "on its way" mail is written here.
create or replace function private.mark_shipped(line_id uuid, tracking text)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  line public.order_lines;
begin
  perform private.require_marketplace_request();
  select * into line from public.order_lines l where l.id = mark_shipped.line_id for update;
  if not found or line.artist_id is distinct from (select auth.uid()) or not private.is_active_user() then
    raise exception 'only the line''s artist sends it' using errcode = '42501';
  end if;
  if line.kind <> 'merch' or line.refunded_at is not null
      or not exists (select 1 from public.orders o where o.id = line.order_id and o.state = 'paid') then
    raise exception 'line % is not merch paid for', line.id using errcode = '22023';
  end if;
  if line.shipped_at is null then
    update public.order_lines l set shipped_at = now(), tracking = nullif(btrim(mark_shipped.tracking), '')
    where l.id = line.id;
    update public.merch m set stock = greatest(m.stock - line.quantity, 0) where m.id = line.item_id and m.stock is not null;
    insert into private.mails (kind, recipient, order_id, order_line_id)
    select 'shipped', o.buyer_email, o.id, line.id from public.orders o where o.id = line.order_id;
  end if;
  return private.unsent_mails(line.order_id);
end
$$;

revoke execute on function private.mark_shipped(uuid, text) from public;

grant execute on function private.mark_shipped(uuid, text) to authenticated;

create or replace function public.mark_shipped(line_id uuid, tracking text default null)
returns uuid[]
language sql
security invoker
set search_path = ''
as $$
  select private.mark_shipped(mark_shipped.line_id, mark_shipped.tracking)
$$;

revoke execute on function public.mark_shipped(uuid, text) from public;

grant execute on function public.mark_shipped(uuid, text) to authenticated;
