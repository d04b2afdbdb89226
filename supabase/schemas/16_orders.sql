-- Selling: the cart a signed-in fan keeps, what a cart costs (read from the catalog and the store's
-- settings, never from a form), the orders Crate sells as the seller of record with each artist's share on
-- its lines, and their fulfilment once the payment provider (Stripe) says the money is there: purchases,
-- made once however often the news comes. Orders are written by the marketplace alone (the Worker's
-- secret), which talks to Stripe; buyers and artists read their own.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- A signed-in fan's cart: what they mean to buy, and, where the item lets fans pay more, what they chose
-- to pay (in the artist's currency's cents, for one; null: the price). A download is bought once; merch
-- by the `quantity` (at most 10). A visitor's cart is a cookie until they sign in, when it joins this
-- one. At most 50 lines.
create table public.cart_lines (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null check (kind in ('track', 'album', 'merch')),
  item_id uuid not null,
  amount_cents integer check (amount_cents between 0 and 100000),
  created_at timestamptz not null default now(),
  quantity integer not null default 1 check (quantity between 1 and 10),
  constraint cart_lines_one_download check (kind = 'merch' or quantity = 1),
  primary key (user_id, kind, item_id)
);

alter table public.cart_lines enable row level security;

revoke all on public.cart_lines from anon, authenticated;

grant select, insert (user_id, kind, item_id, amount_cents, quantity), update (amount_cents, quantity), delete on public.cart_lines to authenticated;

create policy "Users read their own cart" on public.cart_lines
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users add to their own cart" on public.cart_lines
  for insert to authenticated with check (user_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users change their own cart" on public.cart_lines
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users empty their own cart" on public.cart_lines
  for delete to authenticated using (user_id = (select auth.uid()));

-- At most 50 lines a cart; two adds at once wait for each other, so neither passes the bound.
create or replace function private.limit_cart_lines()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtext('cart:' || new.user_id::text));
  if (select count(*) from public.cart_lines c where c.user_id = new.user_id) >= 50 then
    raise exception 'a cart holds at most 50 lines' using errcode = '54000';
  end if;
  return new;
end
$$;

revoke execute on function private.limit_cart_lines() from public;

create trigger cart_lines_limit
  before insert on public.cart_lines
  for each row execute function private.limit_cart_lines();

-- Lines put into the caller's cart ([{kind, id, amount, quantity}]): new ones added, ones it holds given
-- the new amount and quantity. A visitor's cart joins their account's this way when they sign in. As the caller (row-level
-- security decides); answers how many lines the cart then holds.
create or replace function public.add_to_cart(lines jsonb)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  line record;
begin
  for line in
    select l.value ->> 'kind' as kind, (l.value ->> 'id')::uuid as id,
      case when jsonb_typeof(l.value -> 'amount') = 'number' then (l.value ->> 'amount')::integer end as amount,
      case when jsonb_typeof(l.value -> 'quantity') = 'number' then (l.value ->> 'quantity')::integer else 1 end as quantity
    from jsonb_array_elements(case when jsonb_typeof(add_to_cart.lines) = 'array' then add_to_cart.lines else '[]' end) l
  loop
    update public.cart_lines c set amount_cents = line.amount, quantity = line.quantity
    where c.user_id = (select auth.uid()) and c.kind = line.kind and c.item_id = line.id;
    if not found then
      insert into public.cart_lines (kind, item_id, amount_cents, quantity) values (line.kind, line.id, line.amount, line.quantity);
    end if;
  end loop;
  return (select count(*)::integer from public.cart_lines c where c.user_id = (select auth.uid()));
end
$$;

revoke execute on function public.add_to_cart(jsonb) from public;

grant execute on function public.add_to_cart(jsonb) to authenticated;

-- The caller's cart as priced_cart and open_order take it.
create or replace function private.cart_of(buyer uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('kind', c.kind, 'id', c.item_id, 'amount', c.amount_cents, 'quantity', c.quantity)
      order by c.created_at, c.item_id), '[]')
  from public.cart_lines c
  where c.user_id = cart_of.buyer
$$;

revoke execute on function private.cart_of(uuid) from public;

-- Visitors too: price_cart names it for them as well (they pass their lines, so it never runs for them),
-- and a function's right to run is checked where it is named.
grant execute on function private.cart_of(uuid) to anon, authenticated;

-- A store's discount codes as their keys (trimmed, in lower case): what a typed code is looked up by.
create or replace function private.discount_code_keys(discounts jsonb)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select coalesce(array_agg(lower(btrim(d ->> 'code'))), '{}')
  from jsonb_array_elements(case when jsonb_typeof(discounts) = 'array' then discounts else '[]' end) d
$$;

-- Finding the store a typed code belongs to, among every artist's.
create index store_settings_discount_codes_idx on public.store_settings using gin (private.discount_code_keys(discounts));

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
      where l.merch_id = m.id and l.refunded_at is null and l.shipped_at is null
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

-- What a cart costs the buyer, line by line, from the catalog alone: `lines` as the cart holds them
-- ([{kind, id, amount, quantity}], amount in cents for one or null; at most 50), `codes` as the buyer
-- typed them, `ship_to` the country merch is sent to. Each line: its item, artist and currency (the
-- artist's), its price (`minimum`, for one), what the buyer pays for one (`unit`: the price, or more where
-- the item lets fans pay more), how many (`quantity`), their price (`amount`), the code's and the bundle's
-- discounts, the shipping (merch: the item's price to its own country or elsewhere, for each one), the
-- total, the artist's share (88% of a digital line and 92% of merch, of the price after discounts, rounded
-- to the cent, and all of the shipping, which the artist pays) and Crate's part (the rest, so the two make
-- the total exactly), where fans may pay more the artist's pricing tiers at or above the price (`tiers`,
-- presets), merch's units `left` (null: no count kept), and a `problem` that keeps it from being bought:
-- - unavailable: not (or no longer) for sale: unknown, unreleased, or its artist banned;
-- - yours: the buyer's own; owned: bought already (every track of an album);
-- - quantity: a download other than one, or merch other than 1 to 10; sold_out: fewer left than asked;
-- - ship_to: merch with no country to ship it to yet;
-- - below_minimum, above_maximum (1,000), fixed_price (more than the price where fans may not pay more).
-- A code takes its percentage off its artist's lines where that artist has it active and in date; each
-- typed code says what it did for its artist's lines in the cart (applied, inactive, used_up, expired),
-- and reads as `unknown` (no artist named) where the cart has no line of its artist. The artist's
-- bundle discount takes its percentage off what is left of their releases (albums and singles) and merch
-- when the cart holds two or more of them. Security definer: store settings are their artist's alone to read.
create or replace function private.priced_cart(lines jsonb, codes text[], buyer uuid, ship_to text default null)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with wanted as (
    select l.ordinality::integer as n, l.value ->> 'kind' as kind,
      case when l.value ->> 'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        then (l.value ->> 'id')::uuid end as id,
      case when jsonb_typeof(l.value -> 'amount') = 'number' then round((l.value ->> 'amount')::numeric)::integer end as amount,
      case when jsonb_typeof(l.value -> 'quantity') = 'number'
        then least(greatest(round((l.value ->> 'quantity')::numeric), -1), 1000)::integer else 1 end as quantity
    from jsonb_array_elements(case when jsonb_typeof(priced_cart.lines) = 'array' then priced_cart.lines else '[]' end)
      with ordinality l
    where l.ordinality <= 50
  ),
  -- Each line's item as the catalog has it: a track, an album with its released tracks, or merch.
  items as (
    select w.n, w.kind, w.id, w.amount, w.quantity,
      coalesce(t.artist_id, r.artist_id, m.artist_id) as artist_id,
      coalesce(t.title, r.title, m.title) as title,
      coalesce(t.artwork_small_url, t.artwork_url, lead.artwork_small_url, lead.artwork_url, m.image_small_url, m.image_url) as artwork_url,
      case when w.kind = 'track' then single.kind = 'single' else true end as is_release,
      (round(coalesce(t.price, r.price, album.price, m.price) * 100))::integer as minimum,
      coalesce(t.allow_pay_more, lead.allow_pay_more, m.allow_pay_more, false) as allow_pay_more,
      case when w.kind = 'track' then t.release_date <= current_date when w.kind = 'album' then album.released > 0
        else m.id is not null end as released,
      case when w.kind = 'track' then array[t.id] else album.track_ids end as track_ids,
      case when m.id is not null then private.merch_left(m.id) end as units_left,
      case when m.id is not null then round(
        case when m.ships_from = priced_cart.ship_to then m.shipping_home else m.shipping_elsewhere end * 100)::integer * w.quantity
        else 0 end as shipping
    from wanted w
    left join public.merch m on w.kind = 'merch' and m.id = w.id
    left join public.tracks t on w.kind = 'track' and t.id = w.id
    left join public.releases single on single.id = t.release_id
    left join public.releases r on w.kind = 'album' and r.id = w.id and r.kind = 'album'
    left join lateral (
      select count(*) filter (where a.release_date <= current_date) as released,
        sum(a.price) filter (where a.release_date <= current_date) as price,
        array_agg(a.id) as track_ids
      from public.tracks a where a.release_id = r.id
    ) album on r.id is not null
    left join lateral (
      select a.artwork_url, a.artwork_small_url, a.allow_pay_more
      from public.tracks a where a.release_id = r.id
      order by a.track_number nulls last, a.created_at, a.id limit 1
    ) lead on r.id is not null
  ),
  judged as (
    select i.*, p.artist_name, private.artist_currency(i.artist_id) as currency,
      coalesce(i.amount, i.minimum) as unit,
      coalesce(i.amount, i.minimum) * greatest(i.quantity, 0) as paid,
      case
        when i.artist_id is null or not coalesce(i.released, false)
          or i.artist_id = any ((select private.banned_accounts())::uuid[]) then 'unavailable'
        when i.artist_id = priced_cart.buyer then 'yours'
        when i.kind <> 'merch' and priced_cart.buyer is not null and not exists (
          select 1 from unnest(i.track_ids) as owned (id)
          where not exists (select 1 from public.purchases b where b.track_id = owned.id and b.user_id = priced_cart.buyer))
          then 'owned'
        when i.quantity not between 1 and case when i.kind = 'merch' then 10 else 1 end then 'quantity'
        when i.units_left < i.quantity then 'sold_out'
        when i.kind = 'merch' and priced_cart.ship_to is null then 'ship_to'
        when coalesce(i.amount, i.minimum) < i.minimum then 'below_minimum'
        when coalesce(i.amount, i.minimum) > 100000 then 'above_maximum'
        when coalesce(i.amount, i.minimum) > i.minimum and not i.allow_pay_more then 'fixed_price'
      end as problem
    from items i
    left join public.artist_profiles p on p.id = i.artist_id
  ),
  typed as (
    select distinct lower(btrim(c)) as key, btrim(c) as code
    from unnest(coalesce(priced_cart.codes, '{}')) c
    where btrim(c) <> ''
    limit 10
  ),
  -- Each typed code in the stores of the cart's artists (or any other's).
  found as (
    select t.key, t.code, s.artist_id, d ->> 'code' as stored,
      (d ->> 'percentage')::integer as percentage,
      (d ->> 'active')::boolean as active,
      nullif(d ->> 'validUntil', '')::date as valid_until,
      exists (select 1 from judged j where j.artist_id = s.artist_id and j.problem is null) as in_cart,
      -- A code with a number of uses: the orders that took it (code_uses).
      case when jsonb_typeof(d -> 'maxUses') = 'number' then (d ->> 'maxUses')::integer end as max_uses,
      case when jsonb_typeof(d -> 'maxUses') = 'number' then private.code_uses(s.artist_id, t.key) end as used
    from typed t
    join public.store_settings s on private.discount_code_keys(s.discounts) @> array[t.key]
    cross join lateral jsonb_array_elements(s.discounts) d
    where lower(btrim(d ->> 'code')) = t.key
  ),
  applied as (
    select distinct on (f.artist_id) f.artist_id, f.key, f.stored as code, f.percentage
    from found f
    where f.in_cart and f.active and (f.valid_until is null or f.valid_until >= current_date)
      and (f.max_uses is null or f.used < f.max_uses)
    order by f.artist_id, f.percentage desc
  ),
  bundles as (
    select j.artist_id, (s.bundling ->> 'discountPercentage')::integer as percentage,
      count(*) filter (where j.is_release and j.problem is null) >= 2 as applies
    from judged j
    join public.store_settings s on s.artist_id = j.artist_id and (s.bundling ->> 'enabled')::boolean
    group by j.artist_id, s.bundling
  ),
  discounted as (
    select j.*, a.code as discount_code,
      case when j.problem is null then round(j.paid * coalesce(a.percentage, 0) / 100.0)::integer else 0 end as code_discount
    from judged j
    left join applied a on a.artist_id = j.artist_id
  ),
  totalled as (
    select d.*,
      case when d.problem is null and d.is_release and b.applies
        then round((d.paid - d.code_discount) * b.percentage / 100.0)::integer else 0 end as bundle_discount
    from discounted d
    left join bundles b on b.artist_id = d.artist_id
  ),
  -- The artist's share of the price after discounts (88% of a download, 92% of merch), and the shipping.
  shared as (
    select t.*, t.paid - t.code_discount - t.bundle_discount + t.shipping as total,
      round((t.paid - t.code_discount - t.bundle_discount) * case when t.kind = 'merch' then 0.92 else 0.88 end)::integer
        + t.shipping as artist_share
    from totalled t
  )
  select jsonb_build_object(
    'lines', coalesce((
      select jsonb_agg(jsonb_build_object(
          'n', t.n, 'kind', t.kind, 'id', t.id, 'title', t.title, 'artwork_url', t.artwork_url,
          'artist_id', t.artist_id, 'artist_name', t.artist_name, 'currency', t.currency,
          'minimum', t.minimum, 'allow_pay_more', t.allow_pay_more, 'unit', t.unit, 'quantity', t.quantity,
          'amount', t.paid, 'units_left', t.units_left, 'shipping', t.shipping,
          -- Where fans may pay more, the artist's pricing tiers at or above the price: presets to choose from,
          -- each with what the artist says it gives.
          'tiers', case when t.allow_pay_more and t.problem is distinct from 'unavailable' then coalesce((
            select jsonb_agg(jsonb_build_object('name', tier ->> 'name', 'amount', round((tier ->> 'price')::numeric * 100)::integer,
                'description', nullif(btrim(tier ->> 'description'), ''))
              order by (tier ->> 'price')::numeric)
            from public.store_settings s, jsonb_array_elements(s.pricing_tiers) tier
            where s.artist_id = t.artist_id and round((tier ->> 'price')::numeric * 100) >= t.minimum), '[]') else '[]' end,
          'discount_code', t.discount_code, 'code_discount', t.code_discount, 'bundle_discount', t.bundle_discount,
          'total', t.total, 'artist_share', t.artist_share, 'crate_part', t.total - t.artist_share,
          'problem', t.problem)
        order by t.n)
      from shared t), '[]'),
    'codes', coalesce((
      select jsonb_agg(jsonb_build_object(
          'code', t.code,
          -- Only a code of an artist with a line in the cart is named: any other reads as unknown, so
          -- typing codes tells no one which exist, whose they are or what they take off.
          'artist_name', (select p.artist_name from found f join public.artist_profiles p on p.id = f.artist_id
            where f.key = t.key and f.in_cart
            order by f.artist_id in (select a.artist_id from applied a where a.key = t.key) desc, f.artist_id limit 1),
          'status', case
            when exists (select 1 from applied a where a.key = t.key) then 'applied'
            when exists (select 1 from found f where f.key = t.key and f.in_cart and not f.active) then 'inactive'
            when exists (select 1 from found f where f.key = t.key and f.in_cart and f.used >= f.max_uses
                and (f.valid_until is null or f.valid_until >= current_date)) then 'used_up'
            when exists (select 1 from found f where f.key = t.key and f.in_cart) then 'expired'
            else 'unknown'
          end)
        order by t.code)
      from typed t), '[]'),
    'bundles', coalesce((
      select jsonb_agg(jsonb_build_object('artist_id', b.artist_id, 'percentage', b.percentage, 'applies', b.applies))
      from bundles b), '[]')
  )
$$;

revoke execute on function private.priced_cart(jsonb, text[], uuid, text) from public;

grant execute on function private.priced_cart(jsonb, text[], uuid, text) to anon, authenticated;

-- The discount codes typed, by whom (`account:<id>`, or `address:<address>`: the marketplace names the
-- client's, and every other caller of the API is the one address `api`) and when, for the last 10 minutes
-- alone: what the limit on typing codes counts. A code is counted once a window, however often the cart
-- holding it is priced.
create table private.discount_code_tries (
  typist text not null,
  key text not null,
  tried_at timestamptz not null default now(),
  primary key (typist, key)
);

create index discount_code_tries_tried_at_idx on private.discount_code_tries (tried_at);

revoke all on private.discount_code_tries from anon, authenticated;

-- The codes typed (their first 10 different ones, case and spaces aside), each with whether it may be
-- answered: at most 30 different codes in 10 minutes an account, and 60 an address (`address`, as
-- resolved by the caller; null: none, for a checkout a guest opens past its security check), so no one
-- guesses their way to codes. A code counted in the window already is answered again.
create or replace function private.codes_within_limit(codes text[], address text)
returns table (code text, answered boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  typed record;
begin
  if not exists (select 1 from unnest(coalesce(codes_within_limit.codes, '{}')) c where btrim(c) <> '') then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtext('discount code tries'));
  delete from private.discount_code_tries t where t.tried_at < now() - interval '10 minutes';
  for typed in
    select k.key, k.first_typed
    from (
      select lower(btrim(c.value)) as key, min(c.n) as first_typed
      from unnest(codes_within_limit.codes) with ordinality as c (value, n)
      where btrim(c.value) <> ''
      group by 1
    ) k
    order by k.first_typed
    limit 10
  loop
    if not exists (
      select 1
      from (values ('account:' || me::text, 30), ('address:' || codes_within_limit.address, 60)) as w (typist, most)
      where w.typist is not null
        and not exists (select 1 from private.discount_code_tries t where t.typist = w.typist and t.key = typed.key)
        and (select count(*) from private.discount_code_tries t where t.typist = w.typist) >= w.most
    ) then
      insert into private.discount_code_tries (typist, key)
      select w.typist, typed.key
      from (values ('account:' || me::text), ('address:' || codes_within_limit.address)) as w (typist)
      where w.typist is not null
      on conflict do nothing;
      return query select c.value, true from unnest(codes_within_limit.codes) as c (value) where lower(btrim(c.value)) = typed.key;
    else
      return query select c.value, false from unnest(codes_within_limit.codes) as c (value) where lower(btrim(c.value)) = typed.key;
    end if;
  end loop;
end
$$;

revoke execute on function private.codes_within_limit(text[], text) from public;

grant execute on function private.codes_within_limit(text[], text) to anon, authenticated;

-- The cart page's read: what `lines` cost the caller (priced_cart), whoever asks; without `lines`, the
-- signed-in caller's own cart (one read for the page). Codes typed past the limit (codes_within_limit;
-- `address`: the client's, believed from the marketplace alone) are not looked up, and each says
-- `too_many`.
create or replace function public.price_cart(
  lines jsonb default null, codes text[] default '{}', ship_to text default null, address text default null
)
returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  limited jsonb := (
    select coalesce(jsonb_agg(jsonb_build_object('code', l.code, 'answered', l.answered)), '[]')
    from private.codes_within_limit(price_cart.codes, case
      when private.is_marketplace_request() then coalesce(nullif(btrim(price_cart.address), ''), 'unknown')
      else 'api' end) l);
  priced jsonb := private.priced_cart(coalesce(price_cart.lines, private.cart_of((select auth.uid())), '[]'),
    (select coalesce(array_agg(l ->> 'code'), '{}') from jsonb_array_elements(limited) l where (l -> 'answered')::boolean),
    (select auth.uid()), price_cart.ship_to);
begin
  return priced || jsonb_build_object('codes', (
    select coalesce(jsonb_agg(c order by c ->> 'code'), '[]')
    from (
      select c from jsonb_array_elements(priced -> 'codes') c
      union all
      select distinct on (lower(btrim(l ->> 'code')))
        jsonb_build_object('code', btrim(l ->> 'code'), 'artist_name', null, 'status', 'too_many')
      from jsonb_array_elements(limited) l
      where not (l -> 'answered')::boolean
    ) answers (c)));
end
$$;

revoke execute on function public.price_cart(jsonb, text[], text, text) from public;

grant execute on function public.price_cart(jsonb, text[], text, text) to anon, authenticated;

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
  shipping_address jsonb
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
-- exactly). The item's title is kept as sold.
create table public.order_lines (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  kind text not null check (kind in ('track', 'album', 'merch')),
  track_id uuid references public.tracks (id) on delete set null,
  release_id uuid references public.releases (id) on delete set null,
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
  merch_id uuid references public.merch (id) on delete set null,
  quantity integer not null default 1 check (quantity between 1 and 10),
  shipping_cents integer not null default 0 check (shipping_cents >= 0),
  -- Merch sent by its artist (its stock then counts it gone), with the carrier's tracking number if given.
  shipped_at timestamptz,
  tracking text check (char_length(tracking) <= 100),
  constraint order_lines_total check (total_cents = amount_cents - code_discount_cents - bundle_discount_cents + shipping_cents),
  constraint order_lines_shares check (artist_share_cents + crate_cents = total_cents)
);

alter table public.order_lines enable row level security;

create index order_lines_order_id_idx on public.order_lines (order_id);

create index order_lines_artist_id_idx on public.order_lines (artist_id);

create index order_lines_track_id_idx on public.order_lines (track_id);

create index order_lines_release_id_idx on public.order_lines (release_id);

-- What merch orders sold or hold (merch_left).
create index order_lines_merch_id_idx on public.order_lines (merch_id) where merch_id is not null;

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

create index purchases_order_line_id_idx on public.purchases (order_line_id);

-- The payment provider's events taken, each once: a second delivery of one is acknowledged and does
-- nothing. Recorded in the transaction that applies it, so an event whose work failed is taken again.
create table private.payment_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);

revoke all on table private.payment_events from public, anon, authenticated;

-- The address each visitor's checkout was opened from (as the edge gave it to the marketplace), so an
-- address holds only so many open checkouts at once (open_order). Kept apart from the order, which its
-- buyer reads.
create table private.checkout_addresses (
  order_id uuid primary key references public.orders (id) on delete cascade,
  address text not null check (char_length(address) <= 100)
);

create index checkout_addresses_address_idx on private.checkout_addresses (address);

revoke all on table private.checkout_addresses from public, anon, authenticated;

-- Lines paid for that cannot be delivered as sold (their checkout had lapsed, or a newer checkout of the
-- buyer's had ended it, before the payment landed): merch the stock could no longer cover, or a line priced
-- with a discount code whose uses went to other orders meanwhile. Refunded at once by the marketplace
-- (line_to_refund lets it), which apply_checkout hands them to until they are.
create table private.undeliverable_lines (
  line_id uuid primary key references public.order_lines (id) on delete cascade,
  found_at timestamptz not null default now()
);

revoke all on table private.undeliverable_lines from public, anon, authenticated;

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
-- refused (54000, hint `merch held`, the item's title as its detail).
create or replace function private.open_order(
  lines jsonb, codes text[], currency text, follow_artists boolean, waived_withdrawal boolean, email text, ship_to text,
  address text
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
      where ol.merch_id = mine.id and o.state = 'open' and o.created_at > now() - private.checkout_lasts()
        and ((buyer is not null and o.buyer_id = buyer) or (from_address is not null and exists (
          select 1 from private.checkout_addresses a where a.order_id = o.id and a.address = from_address)))), 0) > 10
  order by m.title, m.id
  limit 1;
  if held_past is not null then
    raise exception 'at most 10 of one item are held at once by one buyer''s checkouts'
      using errcode = '54000', hint = 'merch held', detail = held_past;
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
    order_id, artist_id, kind, track_id, release_id, merch_id, title, quantity, amount_cents, discount_code,
    code_discount_cents, bundle_discount_cents, shipping_cents, total_cents, artist_share_cents, crate_cents)
  select made.id, (l ->> 'artist_id')::uuid, l ->> 'kind',
    case when l ->> 'kind' = 'track' then (l ->> 'id')::uuid end,
    case when l ->> 'kind' = 'album' then (l ->> 'id')::uuid end,
    case when l ->> 'kind' = 'merch' then (l ->> 'id')::uuid end,
    l ->> 'title', (l ->> 'quantity')::integer, (l ->> 'amount')::integer, l ->> 'discount_code',
    (l ->> 'code_discount')::integer, (l ->> 'bundle_discount')::integer, (l ->> 'shipping')::integer,
    (l ->> 'total')::integer, (l ->> 'artist_share')::integer, (l ->> 'crate_part')::integer
  from jsonb_array_elements(chosen) l
  order by (l ->> 'n')::integer;
  return jsonb_build_object(
    'order_id', made.id,
    'currency', made.currency,
    'total', made.total_cents,
    'email', made.buyer_email,
    'ship_to', made.ship_to,
    'expires_at', floor(extract(epoch from made.created_at + private.checkout_lasts()))::bigint,
    'ended', to_jsonb(ended),
    'lines', (select jsonb_agg(jsonb_build_object('title', l ->> 'title', 'artist_name', l ->> 'artist_name',
        'quantity', (l ->> 'quantity')::integer, 'shipping', (l ->> 'shipping')::integer,
        'total', (l ->> 'total')::integer, 'n', (l ->> 'n')::integer) order by (l ->> 'n')::integer)
      from jsonb_array_elements(chosen) l));
end
$$;

revoke execute on function private.open_order(jsonb, text[], text, boolean, boolean, text, text, text) from public;

grant execute on function private.open_order(jsonb, text[], text, boolean, boolean, text, text, text) to anon, authenticated;

create or replace function public.open_order(
  lines jsonb default null, codes text[] default '{}', currency text default null, follow_artists boolean default true,
  waived_withdrawal boolean default false, email text default null, ship_to text default null, address text default null
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.open_order(open_order.lines, open_order.codes, open_order.currency, open_order.follow_artists,
    open_order.waived_withdrawal, open_order.email, open_order.ship_to, open_order.address)
$$;

revoke execute on function public.open_order(jsonb, text[], text, boolean, boolean, text, text, text) from public;

grant execute on function public.open_order(jsonb, text[], text, boolean, boolean, text, text, text) to anon, authenticated;

-- The payment provider's checkout opened for an order (its id), through the marketplace alone.
create or replace function private.attach_checkout(order_id uuid, checkout_session text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.orders o set checkout_session = attach_checkout.checkout_session
  where o.id = attach_checkout.order_id and o.state = 'open' and o.checkout_session is null;
  if not found then
    raise exception 'order % has its checkout already, or is closed', attach_checkout.order_id using errcode = '22023';
  end if;
end
$$;

revoke execute on function private.attach_checkout(uuid, text) from public;

grant execute on function private.attach_checkout(uuid, text) to anon, authenticated;

create or replace function public.attach_checkout(order_id uuid, checkout_session text)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.attach_checkout(attach_checkout.order_id, attach_checkout.checkout_session)
$$;

revoke execute on function public.attach_checkout(uuid, text) from public;

grant execute on function public.attach_checkout(uuid, text) to anon, authenticated;

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
  where m.id in (select l.merch_id from public.order_lines l where l.order_id = paid.id)
  order by m.id
  for update;
  insert into private.undeliverable_lines (line_id)
  select l.id from public.order_lines l
  where l.order_id = paid.id and l.refunded_at is null and private.merch_left(l.merch_id, paid.id) < l.quantity
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
    join public.tracks t on t.id = l.track_id or (l.kind = 'album' and t.release_id = l.release_id)
    where l.order_id = paid.id and t.release_date <= current_date
      -- A line being refunded gives nothing meanwhile.
      and not exists (select 1 from private.undeliverable_lines u where u.line_id = l.id)
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
  where l.order_id = paid.id and c.user_id = paid.buyer_id and c.kind = l.kind
    and c.item_id = coalesce(l.track_id, l.release_id, l.merch_id);
  if paid.follow_artists and paid.buyer_id is not null then
    insert into public.followers (artist_id, fan_id)
    select distinct l.artist_id, paid.buyer_id from public.order_lines l
    where l.order_id = paid.id and l.artist_id <> paid.buyer_id
    on conflict (artist_id, fan_id) do nothing;
  end if;
  perform private.queue_order_mails(paid.id);
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
create or replace function private.apply_checkout(
  checkout_session text, outcome text, payment_intent text, country text, event_id text, event_type text, order_id uuid,
  shipping_address jsonb
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

revoke execute on function private.apply_checkout(text, text, text, text, text, text, uuid, jsonb) from public;

grant execute on function private.apply_checkout(text, text, text, text, text, text, uuid, jsonb) to anon, authenticated;

create or replace function public.apply_checkout(
  checkout_session text, outcome text, payment_intent text default null, country text default null,
  event_id text default null, event_type text default null, order_id uuid default null, shipping_address jsonb default null
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.apply_checkout(apply_checkout.checkout_session, apply_checkout.outcome, apply_checkout.payment_intent,
    apply_checkout.country, apply_checkout.event_id, apply_checkout.event_type, apply_checkout.order_id,
    apply_checkout.shipping_address)
$$;

revoke execute on function public.apply_checkout(text, text, text, text, text, text, uuid, jsonb) from public;

grant execute on function public.apply_checkout(text, text, text, text, text, text, uuid, jsonb) to anon, authenticated;

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
    'waived_withdrawal', o.waived_withdrawal, 'ship_to', o.ship_to,
    'lines', (
      select jsonb_agg(jsonb_build_object('kind', l.kind, 'track_id', l.track_id, 'release_id', l.release_id,
          'title', l.title, 'quantity', l.quantity, 'total', l.total_cents) order by l.title)
      from public.order_lines l where l.order_id = o.id))
  from public.orders o
  where o.checkout_session = checkout_order.checkout_session and o.buyer_id = (select auth.uid())
$$;

revoke execute on function public.checkout_order(text) from public;

grant execute on function public.checkout_order(text) to authenticated;

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

-- A line refunded: its purchases removed (the download is refused from then on, and the analytics' roll-ups
-- take the sale back), its share no longer the artist's, and the buyer told by mail.
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
-- administrator; or, whoever asks, the marketplace for a line paid for but undeliverable, which it refunds
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
      or exists (select 1 from private.undeliverable_lines u where u.line_id = line.id)) then
    raise exception 'only the line''s artist or an administrator refunds it' using errcode = '42501';
  end if;
  select * into sold from public.orders o where o.id = line.order_id;
  if sold.state <> 'paid' then
    raise exception 'order % is not paid', sold.id using errcode = '22023';
  end if;
  return jsonb_build_object('line_id', line.id, 'payment_intent', sold.payment_intent,
    'total', line.total_cents, 'currency', sold.currency, 'refunded', line.refunded_at is not null);
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

create index orders_payment_intent_idx on public.orders (payment_intent);

-- What the payment provider said about a payment after it was made, applied once per event through the
-- marketplace alone: `refunded` (the charge's refunded total: a whole refund made in the provider's
-- dashboard refunds every line not refunded yet; the app's own refunds are recorded as they are made), or
-- a dispute opened or closed (`dispute`: {id, amount, currency, reason, status, closed}). Answers the
-- order's mails not sent yet; null for a payment no order has.
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
  if apply_payment_news.refunded is not null and apply_payment_news.refunded >= sold.total_cents then
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

create index orders_paid_at_idx on public.orders (paid_at desc) where state = 'paid';

-- An order as the artists of its lines name it: the first 8 characters of its id, in capitals (as the
-- buyer's receipt prints it, formatOrderReference): enough to match a parcel to a receipt, never the id.
create or replace function private.order_reference(order_id uuid)
returns text
language sql
immutable
set search_path = ''
as $$
  select upper(left(order_reference.order_id::text, 8))
$$;

revoke execute on function private.order_reference(uuid) from public;

grant execute on function private.order_reference(uuid) to anon, authenticated;

-- Sales as the studio's Payments page (and its CSV) and the administrators' dashboard list them: the lines
-- of paid orders, newest first, an artist's own (an administrator's: every artist's, with the buyer's email,
-- which artists do not see), at most `how_many` (1,000) after the first `skip`; with `item`, those of one
-- release (a track bought alone counts for its release) or merch item. Each names its item (`item_id`).
create or replace function private.sales(how_many integer, item uuid, skip integer)
returns table (
  line_id uuid, order_reference text, paid_at timestamptz, kind text, title text, artist_name text, currency text,
  amount integer, discount integer, total integer, artist_share integer, country text, refunded_at timestamptz,
  buyer_email text, item_id uuid, quantity integer, shipping integer
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.id, private.order_reference(o.id), o.paid_at, l.kind, l.title, a.artist_name, o.currency, l.amount_cents,
    l.code_discount_cents + l.bundle_discount_cents, l.total_cents, l.artist_share_cents, o.country, l.refunded_at,
    case when (select public.is_admin()) then o.buyer_email end,
    coalesce(l.release_id, t.release_id, l.merch_id), l.quantity, l.shipping_cents
  from public.order_lines l
  join public.orders o on o.id = l.order_id
  join public.artist_profiles a on a.id = l.artist_id
  left join public.tracks t on t.id = l.track_id
  where o.state = 'paid' and (l.artist_id = (select auth.uid()) or (select public.is_admin()))
    and (sales.item is null or sales.item in (l.release_id, l.merch_id, t.release_id))
  order by o.paid_at desc, l.id
  offset greatest(coalesce(sales.skip, 0), 0)
  limit least(greatest(sales.how_many, 1), 1000)
$$;

revoke execute on function private.sales(integer, uuid, integer) from public;

grant execute on function private.sales(integer, uuid, integer) to authenticated;

create or replace function public.sales(how_many integer default 50, item uuid default null, skip integer default 0)
returns table (
  line_id uuid, order_reference text, paid_at timestamptz, kind text, title text, artist_name text, currency text,
  amount integer, discount integer, total integer, artist_share integer, country text, refunded_at timestamptz,
  buyer_email text, item_id uuid, quantity integer, shipping integer
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.sales(sales.how_many, sales.item, sales.skip)
$$;

revoke execute on function public.sales(integer, uuid, integer) from public;

grant execute on function public.sales(integer, uuid, integer) to authenticated;

-- What the caller has sold (their releases and merch with a paid line), for the Payments page's filter:
-- each item once, by title, at most 500.
create or replace function private.sold_items()
returns table (item_id uuid, title text, kind text)
language sql
stable
security definer
set search_path = ''
as $$
  select i.item_id, coalesce(r.title, m.title), case when m.id is not null then 'merch' else r.kind end
  from (
    select distinct coalesce(l.release_id, t.release_id, l.merch_id) as item_id
    from public.order_lines l
    join public.orders o on o.id = l.order_id
    left join public.tracks t on t.id = l.track_id
    where l.artist_id = (select auth.uid()) and o.state = 'paid'
  ) i
  left join public.releases r on r.id = i.item_id
  left join public.merch m on m.id = i.item_id
  where coalesce(r.title, m.title) is not null
  order by coalesce(r.title, m.title), i.item_id
  limit 500
$$;

revoke execute on function private.sold_items() from public;

grant execute on function private.sold_items() to authenticated;

create or replace function public.sold_items()
returns table (item_id uuid, title text, kind text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.sold_items()
$$;

revoke execute on function public.sold_items() from public;

grant execute on function public.sold_items() to authenticated;

-- Guests: a visitor buys with an email alone. The purchases of a guest's order belong to no account until
-- an account with that email takes it through the receipt link (join_guest_order). The receipt carries
-- that link, signed by the Worker and good for 30 days in any browser; the marketplace vouches for its
-- holder by naming the order in `X-Guest-Order` beside its secret. Nobody else can name one.
create or replace function private.guest_order()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  named text := nullif(current_setting('request.headers', true), '')::json ->> 'x-guest-order';
begin
  if named is null or named !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      or not private.is_marketplace_request() then
    return null;
  end if;
  return named::uuid;
end
$$;

revoke execute on function private.guest_order() from public;

grant execute on function private.guest_order() to anon, authenticated;

-- Whether the guest order the marketplace names bought the track (and it is not refunded: a refund takes
-- the purchase away).
create or replace function private.guest_bought(track_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select private.guest_order()) is not null and exists (
    select 1 from public.purchases p
    join public.order_lines l on l.id = p.order_line_id
    join public.orders o on o.id = l.order_id
    where p.track_id = guest_bought.track_id and o.id = (select private.guest_order()) and o.guest)
$$;

revoke execute on function private.guest_bought(uuid) from public;

grant execute on function private.guest_bought(uuid) to anon, authenticated;

-- The receipt link's page: the guest order the marketplace names, paid, with what it bought (each line's
-- item, total, whether refunded, and the masters it bought, for the formats on offer). Null for anything else.
create or replace function private.guest_receipt()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', o.id, 'currency', o.currency, 'total', o.total_cents, 'paid_at', o.paid_at, 'email', o.buyer_email,
    'waived_withdrawal', o.waived_withdrawal, 'ship_to', o.ship_to,
    'lines', (
      select jsonb_agg(jsonb_build_object('id', l.id, 'kind', l.kind, 'track_id', l.track_id, 'release_id', l.release_id,
          'title', l.title, 'artist_name', a.artist_name, 'quantity', l.quantity, 'total', l.total_cents,
          'refunded', l.refunded_at is not null,
          -- The masters it bought, for the formats on offer (none: nothing to download).
          'masters', coalesce((select jsonb_agg(jsonb_build_object('format', t.master_format, 'mp3_kbps', t.mp3_kbps))
            from public.purchases p join public.tracks t on t.id = p.track_id
            where p.order_line_id = l.id and t.master_format is not null), '[]'))
        order by l.title, l.id)
      from public.order_lines l join public.artist_profiles a on a.id = l.artist_id
      where l.order_id = o.id))
  from public.orders o
  where o.id = (select private.guest_order()) and o.guest and o.state = 'paid'
$$;

revoke execute on function private.guest_receipt() from public;

grant execute on function private.guest_receipt() to anon, authenticated;

-- A guest back on the return page: the paid guest order of exactly this checkout (the id the payment
-- provider put in the return address, or a free order's random one: nothing an artist of a line can read),
-- with what it bought, for the receipt link the page hands on. Through the marketplace alone; null for
-- anything else, so an order's id (which artists of its lines see) never leads to its receipt.
create or replace function private.guest_checkout_order(checkout_session text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', o.id, 'paid_at', o.paid_at,
    'lines', (select jsonb_agg(jsonb_build_object('track_id', l.track_id, 'release_id', l.release_id))
      from public.order_lines l where l.order_id = o.id))
  from public.orders o
  where (select private.is_marketplace_request()) and o.checkout_session = guest_checkout_order.checkout_session
    and o.guest and o.state = 'paid'
$$;

revoke execute on function private.guest_checkout_order(text) from public;

grant execute on function private.guest_checkout_order(text) to anon, authenticated;

create or replace function public.guest_checkout_order(checkout_session text)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.guest_checkout_order(guest_checkout_order.checkout_session)
$$;

revoke execute on function public.guest_checkout_order(text) from public;

grant execute on function public.guest_checkout_order(text) to anon, authenticated;

create or replace function public.guest_receipt()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.guest_receipt()
$$;

revoke execute on function public.guest_receipt() from public;

grant execute on function public.guest_receipt() to anon, authenticated;

-- A guest order taken into the signed-in account whose email is the order's and confirmed, by the holder of
-- its mailed receipt link (the marketplace names the order, having checked the link is the one the receipt
-- mail carries): the link was mailed to that address, which proves it as a confirmation would (sign-ups are
-- not confirmed by mail here, so an account's email alone proves nothing).
-- The order and its purchases become the account's (but for tracks it owns already). Answers whether it
-- joined; 42501 for a visitor or a banned account.
create or replace function private.join_guest_order()
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  joined uuid;
begin
  perform private.require_marketplace_request();
  if me is null or not private.is_active_user() then
    raise exception 'a guest order joins a signed-in account in good standing' using errcode = '42501';
  end if;
  update public.orders o set buyer_id = me
  where o.id = (select private.guest_order()) and o.guest and o.state = 'paid' and o.buyer_id is null
    and lower(o.buyer_email) = (select lower(u.email) from auth.users u where u.id = me and u.email_confirmed_at is not null)
  returning o.id into joined;
  if joined is null then
    return false;
  end if;
  update public.purchases p set user_id = me
  from public.order_lines l
  where p.order_line_id = l.id and l.order_id = joined and p.user_id is null
    and not exists (select 1 from public.purchases mine where mine.user_id = me and mine.track_id = p.track_id);
  return true;
end
$$;

revoke execute on function private.join_guest_order() from public;

grant execute on function private.join_guest_order() to authenticated;

create or replace function public.join_guest_order()
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.join_guest_order()
$$;

revoke execute on function public.join_guest_order() from public;

grant execute on function public.join_guest_order() to authenticated;


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

-- The artists' merch lines, by artist (merch_orders).
create index order_lines_artist_id_merch_idx on public.order_lines (artist_id) where kind = 'merch';

-- A merch line sent by its artist (active, through the marketplace, which queues the mail), once: with its
-- tracking number, taken out of the item's stock, and the buyer told. Answers the mails not sent yet; 42501
-- for anyone but the line's artist, 22023 for a line not paid, refunded or not merch.
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
    update public.merch m set stock = greatest(m.stock - line.quantity, 0) where m.id = line.merch_id and m.stock is not null;
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
