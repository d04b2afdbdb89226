-- Orders: what Crate sells as the seller of record, with each artist's share on its lines, opened for a
-- cart (open_order) and handed to the payment provider's checkout (attach_checkout), and what an open
-- checkout holds meanwhile (merch, a code's uses) until it is paid or lapses. Orders are written by the
-- marketplace alone (the Worker's secret), which talks to the provider; buyers read their own. What a
-- payment does to an order is in 17_fulfilment.sql, refunds and disputes in 17_refunds.sql.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- How long an order's checkout can be paid, from when the order opens: the one bound every hold reads.
-- The payment provider's session is opened a moment after its order and lapses at the time open_order
-- answers (its shortest, 30 minutes from the session's opening, and a minute for opening it), so the hold
-- ends when the last payment it could take becomes impossible, and not later.
create or replace function private.checkout_lasts()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '31 minutes'
$$;

revoke execute on function private.checkout_lasts() from public;

grant execute on function private.checkout_lasts() to anon, authenticated;

-- The smallest payment a card takes through Stripe in each of the catalog's currencies, in cents (Stripe's
-- "Minimum and maximum charge amounts": USD 0.50, EUR 0.50, GBP 0.30): a checkout for less (a discount
-- took most of it) is refused here, before the provider refuses it with a generic error. Free is free.
create or replace function private.minimum_charge_cents(currency text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case upper(minimum_charge_cents.currency) when 'GBP' then 30 else 50 end
$$;

revoke execute on function private.minimum_charge_cents(text) from public;

-- How many of a merch item are left to sell (null: its artist keeps no count): its stock less what paid or
-- settling orders bought and was not sent yet (a refund gives it back; a shipment took it out of the stock)
-- and what checkouts still open hold, while they can be paid (checkout_lasts). Never below 0, even where the
-- artist lowered the stock under what was sold. `besides`: an order whose own lines are not counted (what is
-- left for it, as its payment lands). Security definer: orders are their buyers' to read.
create or replace function private.merch_left(merch_id uuid, besides uuid default null)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when m.stock is not null then greatest(m.stock - coalesce((
      select sum(l.quantity)::integer
      from public.order_lines l
      join public.orders o on o.id = l.order_id
      where l.kind = 'merch' and l.item_id = m.id and l.refunded_at is null and l.shipped_at is null
        and o.id is distinct from merch_left.besides
        -- A line paid for that the stock could not cover takes nothing: it is being refunded.
        and not exists (select 1 from private.undeliverable_lines u where u.line_id = l.id)
        and (o.state in ('paid', 'pending') or (o.state = 'open' and o.created_at > now() - private.checkout_lasts()))), 0), 0) end
  from public.merch m
  where m.id = merch_left.merch_id
$$;

revoke execute on function private.merch_left(uuid, uuid) from public;

grant execute on function private.merch_left(uuid, uuid) to anon, authenticated;

-- How many orders took an artist's discount code (`code`, as typed): paid, settling, or still at their
-- payment while it can be paid (checkout_lasts), the buyer's own too (each checkout holds a use until it is
-- paid, lapses or fails, so one buyer's checkouts side by side cannot each take the last one); a line
-- refunded, or being refunded (undeliverable), gives its use back. `besides`: an order not counted (what
-- is left for it, as its payment lands). What a code's maxUses is weighed against, by priced_cart as a
-- cart is priced and by fulfil_order as a payment lands. Security definer: orders are their buyers' to read.
create or replace function private.code_uses(artist_id uuid, code text, besides uuid default null)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(distinct l.order_id)::integer
  from public.order_lines l
  join public.orders o on o.id = l.order_id
  where l.artist_id = code_uses.artist_id and lower(l.discount_code) = lower(btrim(code_uses.code)) and l.refunded_at is null
    and o.id is distinct from code_uses.besides
    and not exists (select 1 from private.undeliverable_lines u where u.line_id = l.id)
    and (o.state in ('paid', 'pending') or (o.state = 'open' and o.created_at > now() - private.checkout_lasts()))
$$;

revoke execute on function private.code_uses(uuid, text, uuid) from public;

grant execute on function private.code_uses(uuid, text, uuid) to anon, authenticated;

-- An order: what one checkout sells, in one currency. Crate is the seller; each line keeps its artist's
-- share. `open` until the buyer pays (`paid`), or the payment is still settling (`pending`: a bank
-- transfer), fails (`failed`) or its checkout lapses (`expired`).
create table public.orders (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid references auth.users (id) on delete set null,
  buyer_email text not null check (private.is_email(buyer_email)),
  -- Bought by a visitor with an email alone: its receipt link stays theirs after it joins an account.
  guest boolean not null default false,
  currency text not null check (private.is_currency(currency)),
  total_cents integer not null check (total_cents >= 0),
  state text not null default 'open' check (state in ('open', 'pending', 'paid', 'failed', 'expired')),
  -- The payment provider's checkout (a Stripe Checkout Session id) and, once paid, its payment.
  checkout_session text unique,
  payment_intent text,
  -- Who took the money: the payment provider the checkout was opened with, by its name in the app's
  -- registry (app/lib/providers/payments.server.ts), which a refund goes back through. None for a free
  -- order (a code took all of it), which no one was paid for.
  provider text check (provider ~ '^[a-z][a-z0-9_]*$'),
  -- Whether the buyer follows the order's artists once it is paid (the checkout's checkbox).
  follow_artists boolean not null default true,
  -- The buyer asked for the downloads at once, giving up the 14-day right to withdraw that EU law gives
  -- (the checkout's checkbox); the receipt repeats it.
  waived_withdrawal boolean not null default false,
  -- The buyer's country as the payment gave it (ISO 3166-1 alpha-2).
  country text check (country ~ '^[A-Z]{2}$'),
  created_at timestamptz not null default now(),
  paid_at timestamptz,
  -- Where its merch goes: the country chosen in the cart (its shipping was priced for it, and the payment
  -- takes an address there alone), and the address the payment collected.
  ship_to text check (ship_to ~ '^[A-Z]{2}$'),
  shipping_address jsonb,
  -- The tax the payment added on top of its total (Crate is the seller and collects it where the buyer is;
  -- prices are before tax), as its lines keep it: what the buyer paid is total_cents + tax_cents.
  tax_cents integer not null default 0 check (tax_cents >= 0)
);

alter table public.orders enable row level security;

create index orders_buyer_id_created_at_idx on public.orders (buyer_id, created_at desc);

-- Guests' free orders by email, for their hourly bound (open_order).
create index orders_free_guest_email_idx on public.orders (lower(buyer_email), created_at) where guest and total_cents = 0;

revoke all on public.orders from anon, authenticated;

grant select on public.orders to authenticated;

-- Buyers read their own orders, administrators every one (refunds, disputes): one policy, as the linter
-- asks (two permissive ones for a role are both evaluated on every row).
create policy "Buyers read their own orders, administrators all" on public.orders
  for select to authenticated using (buyer_id = (select auth.uid()) or (select public.is_admin()));

-- An order's line: one track or album, or a quantity of merch, its price as sold, the discounts taken off,
-- merch's shipping, the total, and how the total divides between the artist and Crate (their sum,
-- exactly). What it sold is named as the cart names it, by kind and id: an item of that kind
-- (03_sellables.sql), whatever the kind. The item's title is kept as sold, and stays with the line if the
-- item is deleted (its id then goes).
create table public.order_lines (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  kind text not null check (kind in ('track', 'album', 'merch', 'membership')),
  item_id uuid,
  title text not null,
  amount_cents integer not null check (amount_cents >= 0),
  discount_code text,
  code_discount_cents integer not null default 0 check (code_discount_cents >= 0),
  bundle_discount_cents integer not null default 0 check (bundle_discount_cents >= 0),
  total_cents integer not null check (total_cents >= 0),
  artist_share_cents integer not null check (artist_share_cents >= 0),
  crate_cents integer not null check (crate_cents >= 0),
  -- Refunded (by its artist or an administrator, or wholly in the payment provider's dashboard): its
  -- purchases are gone and its share is no longer the artist's. The provider's refund, where money went back.
  refunded_at timestamptz,
  refund_id text,
  quantity integer not null default 1 check (quantity between 1 and 10),
  shipping_cents integer not null default 0 check (shipping_cents >= 0),
  -- Merch sent by its artist (its stock then counts it gone), with the carrier's tracking number if given.
  shipped_at timestamptz,
  tracking text check (char_length(tracking) <= 100),
  -- Its place in its order (1, 2, …), as the checkout listed the lines to the payment provider.
  position integer,
  -- The tax on it (its share of the shipping's too), as the payment provider worked it out where the buyer
  -- is: the amount, the rate in percent, the tax's name ("VAT", "GST") and the country it is owed to. Its
  -- total is before tax; its refund gives both back.
  tax_cents integer not null default 0 check (tax_cents >= 0),
  tax_rate numeric check (tax_rate between 0 and 100),
  tax_name text check (char_length(tax_name) <= 50),
  tax_country text check (tax_country ~ '^[A-Z]{2}$'),
  constraint order_lines_total check (total_cents = amount_cents - code_discount_cents - bundle_discount_cents + shipping_cents),
  constraint order_lines_shares check (artist_share_cents + crate_cents = total_cents),
  constraint order_lines_item_id_kind_fkey foreign key (item_id, kind)
    references public.sellables (id, kind) on delete set null (item_id)
);

alter table public.order_lines enable row level security;

-- Lines whose tax was given back, by the day, for the administrators' tax report (tax_collected).
create index order_lines_refunded_tax_idx on public.order_lines (refunded_at) where tax_cents > 0 and refunded_at is not null;

create index order_lines_order_id_idx on public.order_lines (order_id);

create index order_lines_artist_id_idx on public.order_lines (artist_id);

-- What sold an item, or holds it (merch_left).
create index order_lines_item_id_idx on public.order_lines (item_id);

-- A code's uses, counted per artist (priced_cart).
create index order_lines_artist_id_discount_code_idx on public.order_lines (artist_id, lower(discount_code))
  where discount_code is not null;

revoke all on public.order_lines from anon, authenticated;

grant select on public.order_lines to authenticated;

-- Artists read their lines through the functions that list them (sales, merch_orders), which name an order
-- by its short reference alone: never its id, which the return page once took as a guest's receipt.
-- Administrators read every line (refunds, disputes), in the same policy.
create policy "Buyers read their orders' lines, administrators all" on public.order_lines
  for select to authenticated
  using ((select public.is_admin())
    or exists (select 1 from public.orders o where o.id = order_lines.order_id and o.buyer_id = (select auth.uid())));

-- A purchase made by a paid order keeps its line (a code's has none).
alter table public.purchases add column order_line_id uuid references public.order_lines (id) on delete set null;

-- A line's purchases; each of its tracks given once (the release-day job run twice at once gives a
-- pre-order's track once).
create unique index purchases_line_track_once on public.purchases (order_line_id, track_id);

create index orders_payment_intent_idx on public.orders (payment_intent);

create index orders_paid_at_idx on public.orders (paid_at desc) where state = 'paid';

-- The artists' merch lines, by artist (merch_orders).
create index order_lines_artist_id_merch_idx on public.order_lines (artist_id) where kind = 'merch';

-- The address each visitor's checkout was opened from (as the edge gave it to the marketplace), so an
-- address holds only so many open checkouts at once (open_order). Kept apart from the order, which its
-- buyer reads.
create table private.checkout_addresses (
  order_id uuid primary key references public.orders (id) on delete cascade,
  address text not null check (char_length(address) <= 100)
);

create index checkout_addresses_address_idx on private.checkout_addresses (address);

revoke all on table private.checkout_addresses from public, anon, authenticated;

-- An order for the caller's cart lines in `currency` (`lines`, or without them the signed-in caller's own
-- cart; its other currencies pay in checkouts of their own; without a currency, the lines' own), priced by
-- priced_cart, through the marketplace alone (which then opens its checkout with the
-- payment provider). Answers the order and its lines, or {problems} naming the lines that cannot be
-- bought (nothing is written then). `email`: where a guest's receipt goes; a signed-in buyer's is their
-- account's. `ship_to`: the country its merch goes to. Merch is held for the order from here on, while its
-- checkout can be paid (`expires_at`, when the payment provider ends it: checkout_lasts): two checkouts for
-- the last ones open one after the other, and the second is told what is left. So that no one holds
-- everything by opening checkouts again and again, a signed-in buyer's new checkout ends their earlier open
-- ones (their holds go back at once; `ended` names their checkouts, for the marketplace to end with the
-- provider too), and an address (`address`: the client's, as the edge gave it to the marketplace; none
-- locally) holds at most 3 open checkouts at once: the next is refused (54000) until one is paid, closed
-- or lapses. Nor does one buyer hold much of an item: at most 10 units of one merch item are held at once
-- across an account's, or an address's, open checkouts (this one's included); past that the checkout is
-- refused (54000, hint `merch held`, the item's title as its detail). A total under the currency's
-- minimum charge (but free) is refused too (54000, hint `minimum charge`, the currency as its detail).
-- What follows its writes: no trigger fires. An order counts for the ledger, the notices and the mail once
-- it is paid (fulfil_order, 17_fulfilment.sql); what it holds is counted where it is read (merch_left,
-- code_uses, above). `gift`: {email, message, send_on}: every line is a gift to that address (checked by
-- check_gift, 17_gifts.sql: downloads alone, from an account), kept as its gift row.
create or replace function private.open_order(
  lines jsonb, codes text[], currency text, follow_artists boolean, waived_withdrawal boolean, email text, ship_to text,
  address text, gift jsonb
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  buyer uuid := (select auth.uid());
  wanted jsonb;
  priced jsonb;
  chosen jsonb;
  paying text;
  made public.orders;
  from_address text := nullif(btrim(open_order.address), '');
  ended text[] := '{}';
  problems jsonb;
  held_past text;
begin
  perform private.require_marketplace_request();
  if buyer is not null and not private.is_active_user() then
    raise exception 'a banned account buys nothing' using errcode = '42501';
  end if;
  wanted := coalesce(open_order.lines, private.cart_of(buyer), '[]');
  -- One checkout opens at a time per account and per address, so two at once count each other.
  if buyer is not null then
    perform pg_advisory_xact_lock(hashtext('checkout:' || buyer::text));
  end if;
  if from_address is not null then
    perform pg_advisory_xact_lock(hashtext('checkout address:' || from_address));
  end if;
  -- A new order that cannot be made (problems) undoes this block: the buyer's earlier checkouts stand then.
  begin
    -- The buyer's earlier open checkouts end here, before this one is priced: what they held is this one's
    -- to take. Those that can still be paid are the marketplace's to end with the provider.
    if buyer is not null then
      with closed as (
        update public.orders o set state = 'expired'
        where o.buyer_id = buyer and o.state = 'open'
        returning o.checkout_session, o.created_at)
      select coalesce(array_agg(c.checkout_session order by c.created_at), '{}') into ended
      from closed c
      where c.checkout_session not like 'free\_%' and c.created_at > now() - private.checkout_lasts();
    end if;
    if from_address is not null and (
        select count(*) from private.checkout_addresses a join public.orders o on o.id = a.order_id
        where a.address = from_address and o.state = 'open' and o.created_at > now() - private.checkout_lasts()) >= 3 then
      raise exception 'an address holds at most 3 open checkouts' using errcode = '54000';
    end if;
    -- The merch it holds, locked (in one order, so two carts never wait for each other): what is left is
    -- then read after the order before this one holds its share.
    perform 1 from public.merch m
    where m.id in (
      select (l ->> 'id')::uuid from jsonb_array_elements(case when jsonb_typeof(wanted) = 'array' then wanted else '[]' end) l
      where l ->> 'kind' = 'merch' and l ->> 'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
    order by m.id
    for update;
    -- The stores whose codes were typed, locked too: a code's last use goes to one order, and the next is
    -- priced once that one holds it.
    perform 1 from public.store_settings s
    where private.discount_code_keys(s.discounts) && (select array_agg(lower(btrim(c))) from unnest(coalesce(open_order.codes, '{}')) c)
    order by s.artist_id
    for update;
    -- Codes past the account's or the address's limit on typing them are not looked up here either, so
    -- checking out (the payment page's total) tells no more of a code than the cart does.
    priced := private.priced_cart(wanted,
      (select coalesce(array_agg(l.code), '{}') from private.codes_within_limit(open_order.codes, from_address) l where l.answered),
      buyer, open_order.ship_to);
    -- Without a currency, the lines' own (a single item bought at once).
    paying := coalesce(open_order.currency, (select l ->> 'currency' from jsonb_array_elements(priced -> 'lines') l limit 1));
    select coalesce(jsonb_agg(l), '[]') into chosen
    from jsonb_array_elements(priced -> 'lines') l
    where l ->> 'currency' = paying or l ->> 'problem' is not null;
    if jsonb_array_length(chosen) = 0 then
      raise exception 'nothing in the cart is priced in %', paying using errcode = '22023';
    end if;
    if exists (select 1 from jsonb_array_elements(chosen) l where l ->> 'problem' is not null) then
      problems := (
        select jsonb_agg(jsonb_build_object('n', l -> 'n', 'title', l -> 'title', 'problem', l -> 'problem'))
        from jsonb_array_elements(chosen) l where l ->> 'problem' is not null);
      raise exception 'some lines cannot be bought' using errcode = 'CR001';
    end if;
  exception
    when sqlstate 'CR001' then
      return jsonb_build_object('problems', problems);
  end;
  -- So that one visitor cannot hold an item for everyone else (three checkouts from one address once held
  -- 25 of a CD): what this checkout holds of each merch item, with what the account's and the address's
  -- other open, payable checkouts hold of it, is at most 10. (A signed-in buyer's earlier checkouts ended
  -- above, so theirs is this one's alone, however many lines name the item.) Refused, the earlier
  -- checkouts stand.
  select m.title into held_past
  from (
    select (l ->> 'id')::uuid as id, sum((l ->> 'quantity')::integer) as quantity
    from jsonb_array_elements(chosen) l
    where l ->> 'kind' = 'merch'
    group by 1
  ) mine
  join public.merch m on m.id = mine.id
  where mine.quantity + coalesce((
      select sum(ol.quantity)
      from public.order_lines ol
      join public.orders o on o.id = ol.order_id
      where ol.kind = 'merch' and ol.item_id = mine.id and o.state = 'open' and o.created_at > now() - private.checkout_lasts()
        and ((buyer is not null and o.buyer_id = buyer) or (from_address is not null and exists (
          select 1 from private.checkout_addresses a where a.order_id = o.id and a.address = from_address)))), 0) > 10
  order by m.title, m.id
  limit 1;
  if held_past is not null then
    raise exception 'at most 10 of one item are held at once by one buyer''s checkouts'
      using errcode = '54000', hint = 'merch held', detail = held_past;
  end if;
  if open_order.gift is not null then
    perform private.check_gift(open_order.gift, chosen, buyer);
  end if;
  if buyer is null and not coalesce(private.is_email(open_order.email), false) then
    raise exception 'a guest buys with an email address' using errcode = '22023';
  end if;
  -- A guest's free order (a code took all of it) is paid at once and mails its receipt: so that nobody
  -- sends receipts to any address at will, at most 3 an hour go to one email and 10 an hour come from one
  -- client address.
  if buyer is null and (select coalesce(sum((l ->> 'total')::integer), 0) from jsonb_array_elements(chosen) l) = 0 and (
      (select count(*) from public.orders o
        where o.guest and o.total_cents = 0 and lower(o.buyer_email) = lower(btrim(open_order.email))
          and o.created_at > now() - interval '1 hour') >= 3
      or (from_address is not null and (select count(*) from private.checkout_addresses a join public.orders o on o.id = a.order_id
        where a.address = from_address and o.guest and o.total_cents = 0 and o.created_at > now() - interval '1 hour') >= 10)) then
    raise exception 'too many free orders from this guest' using errcode = '54000', hint = 'free guest orders';
  end if;
  if (select sum((l ->> 'total')::integer) from jsonb_array_elements(chosen) l) between 1 and private.minimum_charge_cents(paying) - 1 then
    raise exception 'a payment is at least the currency''s minimum charge' using errcode = '54000', hint = 'minimum charge', detail = paying;
  end if;
  insert into public.orders (buyer_id, buyer_email, guest, currency, total_cents, follow_artists, waived_withdrawal, ship_to)
  values (
    buyer,
    coalesce((select u.email from auth.users u where u.id = buyer), open_order.email),
    buyer is null,
    paying,
    (select sum((l ->> 'total')::integer) from jsonb_array_elements(chosen) l),
    open_order.follow_artists,
    open_order.waived_withdrawal,
    case when exists (select 1 from jsonb_array_elements(chosen) l where l ->> 'kind' = 'merch') then open_order.ship_to end)
  returning * into made;
  if from_address is not null then
    insert into private.checkout_addresses (order_id, address) values (made.id, left(from_address, 100));
  end if;
  insert into public.order_lines (
    order_id, artist_id, kind, item_id, title, quantity, amount_cents, discount_code,
    code_discount_cents, bundle_discount_cents, shipping_cents, total_cents, artist_share_cents, crate_cents, position)
  select made.id, (l ->> 'artist_id')::uuid, l ->> 'kind', (l ->> 'id')::uuid, l ->> 'title', (l ->> 'quantity')::integer, (l ->> 'amount')::integer, l ->> 'discount_code',
    (l ->> 'code_discount')::integer, (l ->> 'bundle_discount')::integer, (l ->> 'shipping')::integer,
    (l ->> 'total')::integer, (l ->> 'artist_share')::integer, (l ->> 'crate_part')::integer,
    row_number() over (order by (l ->> 'n')::integer)
  from jsonb_array_elements(chosen) l
  order by (l ->> 'n')::integer;
  -- A gift: each line is one, for the same recipient (check_gift checked it above).
  if open_order.gift is not null then
    insert into public.gifts (order_line_id, giver_id, recipient_email, message, send_on)
    select l.id, buyer, btrim(open_order.gift ->> 'email'), nullif(btrim(open_order.gift ->> 'message'), ''),
      (open_order.gift ->> 'send_on')::date
    from public.order_lines l where l.order_id = made.id;
  end if;
  return jsonb_build_object(
    'order_id', made.id,
    'currency', made.currency,
    'total', made.total_cents,
    'email', made.buyer_email,
    'ship_to', made.ship_to,
    'expires_at', floor(extract(epoch from made.created_at + private.checkout_lasts()))::bigint,
    'ended', to_jsonb(ended),
    'lines', (select jsonb_agg(jsonb_build_object('kind', l ->> 'kind', 'title', l ->> 'title', 'artist_name', l ->> 'artist_name',
        'quantity', (l ->> 'quantity')::integer, 'shipping', (l ->> 'shipping')::integer,
        'total', (l ->> 'total')::integer, 'n', (l ->> 'n')::integer) order by (l ->> 'n')::integer)
      from jsonb_array_elements(chosen) l));
end
$$;

revoke execute on function private.open_order(jsonb, text[], text, boolean, boolean, text, text, text, jsonb) from public;

grant execute on function private.open_order(jsonb, text[], text, boolean, boolean, text, text, text, jsonb) to anon, authenticated;

create or replace function public.open_order(
  lines jsonb default null, codes text[] default '{}', currency text default null, follow_artists boolean default true,
  waived_withdrawal boolean default false, email text default null, ship_to text default null, address text default null,
  gift jsonb default null
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.open_order(open_order.lines, open_order.codes, open_order.currency, open_order.follow_artists,
    open_order.waived_withdrawal, open_order.email, open_order.ship_to, open_order.address, open_order.gift)
$$;

revoke execute on function public.open_order(jsonb, text[], text, boolean, boolean, text, text, text, jsonb) from public;

grant execute on function public.open_order(jsonb, text[], text, boolean, boolean, text, text, text, jsonb) to anon, authenticated;

-- The payment provider's checkout opened for an order (its id, and the provider's name: none for a free
-- order), through the marketplace alone.
-- What follows its writes: nothing fires; the checkout is how the payment's news finds the order.
create or replace function private.attach_checkout(order_id uuid, checkout_session text, provider text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.orders o set checkout_session = attach_checkout.checkout_session, provider = attach_checkout.provider
  where o.id = attach_checkout.order_id and o.state = 'open' and o.checkout_session is null;
  if not found then
    raise exception 'order % has its checkout already, or is closed', attach_checkout.order_id using errcode = '22023';
  end if;
end
$$;

revoke execute on function private.attach_checkout(uuid, text, text) from public;

grant execute on function private.attach_checkout(uuid, text, text) to anon, authenticated;

create or replace function public.attach_checkout(order_id uuid, checkout_session text, provider text default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.attach_checkout(attach_checkout.order_id, attach_checkout.checkout_session, attach_checkout.provider)
$$;

revoke execute on function public.attach_checkout(uuid, text, text) from public;

grant execute on function public.attach_checkout(uuid, text, text) to anon, authenticated;
