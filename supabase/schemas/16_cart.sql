-- The cart and its price: the cart a signed-in fan keeps, and what a cart costs, read from the catalog and
-- the store's settings, never from a form (prices, pay-more, discount codes with the limit on typing them,
-- bundles, shipping, each artist's share). The orders a cart becomes are in 16_orders.sql.
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

-- At most 50 lines a cart.
create trigger cart_lines_limit
  before insert on public.cart_lines
  for each row execute function private.limit_per_owner('user_id', '50', 'a cart holds at most 50 lines');

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

comment on function public.add_to_cart(jsonb) is
  'Runs as its caller: it writes the caller''s own cart, as row-level security lets them.';

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

-- The artist's share of a line's price after discounts, in percent, by the kind of thing it sells: 88 of a
-- download (a track or an album), 92 of merch. Written here alone: the app states the same
-- (app/lib/constants.ts `artistShare`), which tests/integration/limits.test.ts holds to this.
create or replace function private.artist_share_percent(kind text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case when artist_share_percent.kind = 'merch' then 92 else 88 end
$$;

revoke execute on function private.artist_share_percent(text) from public, anon, authenticated;

-- What a cart costs the buyer, line by line, from the catalog alone: `lines` as the cart holds them
-- ([{kind, id, amount, quantity}], amount in cents for one or null; at most 50), `codes` as the buyer
-- typed them, `ship_to` the country merch is sent to. Each line: its item, artist and currency (the
-- artist's), its price (`minimum`, for one), what the buyer pays for one (`unit`: the price, or more where
-- the item lets fans pay more), how many (`quantity`), their price (`amount`), the code's and the bundle's
-- discounts, the shipping (merch: the item's price to its own country or elsewhere, for each one), the
-- total, the artist's share (artist_share_percent of the price after discounts, rounded to the cent, and
-- all of the shipping, which the artist pays) and Crate's part (the rest, so the two make the total
-- exactly), where fans may pay more the artist's pricing tiers at or above the price (`tiers`, presets),
-- merch's units `left` (null: no count kept), and a `problem` that keeps it from being bought:
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
      -- (a release on pre-order sells before its day; another dated ahead does not)
      case when w.kind = 'track' then t.release_date <= current_date or (single.kind = 'single' and single.preorder)
        when w.kind = 'album' then album.released > 0 or r.preorder
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
      -- An album costs all its tracks, those dated ahead too: each is the buyer's on its day.
      select count(*) filter (where a.release_date <= current_date) as released,
        sum(a.price) as price,
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
        when i.kind <> 'merch' and priced_cart.buyer is not null and (not exists (
          select 1 from unnest(i.track_ids) as owned (id)
          where not exists (select 1 from public.purchases b where b.track_id = owned.id and b.user_id = priced_cart.buyer))
          or private.preordered_by(i.kind, i.id, priced_cart.buyer))
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
  -- The artist's share of the price after discounts (artist_share_percent), and the shipping.
  shared as (
    select t.*, t.paid - t.code_discount - t.bundle_discount + t.shipping as total,
      round((t.paid - t.code_discount - t.bundle_discount) * private.artist_share_percent(t.kind) / 100.0)::integer
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

comment on function public.price_cart(jsonb, text[], text, text) is
  'Runs as its caller: it prices as its caller; what needs more (priced_cart, codes_within_limit) is private and definer.';
