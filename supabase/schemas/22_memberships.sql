-- Memberships: an artist's tiers (up to 5), a fan's membership of one, paid each period through the payment
-- provider's subscription. Each paid period is an order of its own (kind `membership`, 03_sellables.sql): its
-- line credits the artist's share to the ledger as any sale (credit_paid_orders, 18_ledger.sql), pending then
-- available, paid out by the payouts. Joining gives a tier's back catalogue at once; a tier that gives new
-- releases gives each on its day, through the announcement job (give_members_new_releases). Memberships are
-- written by the marketplace alone (the Worker's secret), which talks to the provider; fans read their own,
-- artists their members.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- A tier: what it costs a month (and, if the artist offers it, a year), in the artist's currency, whether
-- fans may pay more, and what members get: each new release on its day, the back catalogue on joining, a
-- discount on downloads and merch (kept for the cart to take off; not taken yet). Closed: no new members,
-- its members stay.
create table public.membership_tiers (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  name text not null check (btrim(name) <> ''),
  description text not null default '',
  monthly_price_cents integer not null,
  yearly_price_cents integer,
  currency text not null check (private.is_currency(currency)),
  allow_pay_more boolean not null default false,
  grants_new_releases boolean not null default false,
  grants_back_catalogue boolean not null default false,
  discount_percent integer not null default 0 check (discount_percent between 0 and 100),
  closed boolean not null default false,
  created_at timestamptz not null default now(),
  constraint membership_tiers_name_length check (char_length(name) <= 60),
  constraint membership_tiers_description_length check (char_length(description) <= 1000),
  -- From a dollar (above every currency's least card charge) to 500 a month, 5,000 a year.
  constraint membership_tiers_monthly_price_range check (monthly_price_cents between 100 and 50000),
  constraint membership_tiers_yearly_price_range check (yearly_price_cents between 100 and 500000)
);

alter table public.membership_tiers enable row level security;

create index membership_tiers_artist_id_created_at_idx on public.membership_tiers (artist_id, created_at);

-- At most 5 tiers an artist (counted under a lock per artist, so two saves at once cannot make a sixth).
create trigger membership_tiers_limit
  before insert on public.membership_tiers
  for each row execute function private.limit_per_owner('artist_id', '5', 'an artist has at most 5 membership tiers');

create trigger membership_tiers_sellable
  after insert or update of name, artist_id or delete on public.membership_tiers
  for each row execute function private.keep_sellable('membership');

revoke all on public.membership_tiers from anon, authenticated;

grant select on public.membership_tiers to anon, authenticated;

grant insert (artist_id, name, description, monthly_price_cents, yearly_price_cents, currency, allow_pay_more, grants_new_releases,
  grants_back_catalogue, discount_percent, closed) on public.membership_tiers to authenticated;

grant update (name, description, monthly_price_cents, yearly_price_cents, currency, allow_pay_more, grants_new_releases,
  grants_back_catalogue, discount_percent, closed) on public.membership_tiers to authenticated;

grant delete on public.membership_tiers to authenticated;

create policy "Visitors read tiers" on public.membership_tiers
  for select to anon using (artist_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read tiers" on public.membership_tiers
  for select to authenticated
  using (artist_id <> all ((select private.banned_accounts())::uuid[]) or artist_id = (select auth.uid()) or (select public.is_admin()));

create policy "Artists add their own tiers" on public.membership_tiers
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own tiers" on public.membership_tiers
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists delete their own tiers" on public.membership_tiers
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- A membership: a fan's of one tier, paid each `billing_interval` (`amount_cents` a period, before tax: the tier's
-- price or more where the tier lets fans pay more) through the provider's subscription. `active`; set to end
-- at its period's end (`cancelling`: still a member until then); `ended`. At most one not ended per fan and
-- artist. What it gave stays the fan's when it ends.
create table public.memberships (
  id uuid primary key default gen_random_uuid(),
  fan_id uuid not null references auth.users (id) on delete cascade,
  -- A tier with members is never deleted but with its artist's account (membership_tiers_keep_members).
  tier_id uuid not null references public.membership_tiers (id) on delete cascade,
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  billing_interval text not null check (billing_interval in ('month', 'year')),
  amount_cents integer not null check (amount_cents >= 0),
  currency text not null check (private.is_currency(currency)),
  state text not null default 'active' check (state in ('active', 'cancelling', 'ended')),
  -- The provider's subscription (a Stripe subscription id).
  subscription_id text not null unique check (char_length(subscription_id) <= 255),
  current_period_end timestamptz not null,
  joined_at timestamptz not null default now(),
  ended_at timestamptz,
  constraint memberships_ended check ((state = 'ended') = (ended_at is not null))
);

alter table public.memberships enable row level security;

create unique index memberships_one_live_idx on public.memberships (fan_id, artist_id) where state <> 'ended';

-- Members per tier, newest first (the studio's list).
create index memberships_tier_id_joined_at_idx on public.memberships (tier_id, joined_at desc);

create index memberships_artist_id_idx on public.memberships (artist_id);

-- A fan's memberships, newest first (their Memberships page; the policy's own filter).
create index memberships_fan_id_joined_at_idx on public.memberships (fan_id, joined_at desc);

-- New releases' members (give_members_new_releases).
create index memberships_artist_id_live_idx on public.memberships (artist_id) where state <> 'ended';

revoke all on public.memberships from anon, authenticated;

grant select on public.memberships to authenticated;

create policy "Members, their artists and administrators read memberships" on public.memberships
  for select to authenticated
  using (fan_id = (select auth.uid()) or artist_id = (select auth.uid()) or (select public.is_admin()));

-- The caller's own membership of an artist (not ended), by its tier's name; null for none, and for a visitor
-- (the artist's page, which visitors read too and who may not read memberships at all).
create or replace function private.my_membership_of(artist_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select t.name from public.memberships m join public.membership_tiers t on t.id = m.tier_id
  where m.artist_id = my_membership_of.artist_id and m.fan_id = (select auth.uid()) and m.state <> 'ended'
  limit 1
$$;

revoke execute on function private.my_membership_of(uuid) from public;

grant execute on function private.my_membership_of(uuid) to anon, authenticated, service_role;

-- The artist hears of each fan who joins (a membership made: its first paid period), named as a follower is.
create or replace function private.notify_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, actor_id) values (new.artist_id, 'member', new.fan_id);
  return null;
end
$$;

revoke execute on function private.notify_member() from public, anon, authenticated;

create trigger memberships_notify_artist
  after insert on public.memberships
  for each row execute function private.notify_member();

-- A tier that has had members is closed, not deleted: their orders and what they were given name it. An
-- artist's account removed takes its tiers along (the profile is gone by then).
create or replace function private.keep_tiers_with_members()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.memberships m where m.tier_id = old.id)
    and exists (select 1 from public.artist_profiles a where a.id = old.artist_id) then
    raise exception 'a tier with members can be closed, not deleted' using errcode = '23503';
  end if;
  return old;
end
$$;

revoke execute on function private.keep_tiers_with_members() from public, anon, authenticated;

create trigger membership_tiers_keep_members
  before delete on public.membership_tiers
  for each row execute function private.keep_tiers_with_members();

-- Each paid period, once per provider invoice: the membership and the order its payment made.
create table private.membership_invoices (
  invoice_id text primary key check (char_length(invoice_id) <= 255),
  membership_id uuid not null references public.memberships (id) on delete cascade,
  order_line_id uuid references public.order_lines (id) on delete set null,
  paid_at timestamptz not null default now()
);

create index membership_invoices_membership_id_paid_at_idx on private.membership_invoices (membership_id, paid_at desc);

revoke all on table private.membership_invoices from public, anon, authenticated;

-- A paid period (the provider's `invoice.paid`, or the return page's word on the first), through the
-- marketplace alone, once per invoice: a second word on one answers `duplicate` and changes nothing. The
-- first makes the membership (the fan, tier and interval the subscription's metadata names); each makes an
-- order of its own, paid, of one `membership` line (`amount_cents` before tax, the artist's share as a
-- download's), and moves the membership's paid period to `period_end`. On joining, a tier that gives the
-- back catalogue gives every track of its artist out by now that the fan does not own, at 0 on that line
-- (as an album gives its tracks), and the fan follows the artist.
-- Answers {membership_id, order_id, joined} or {duplicate, membership_id}.
-- What follows its writes: the order made `paid` credits the line's share to the ledger
-- (credit_paid_orders, 18_ledger.sql) and tells the artist of the sale (orders_notify_sale,
-- 19_notifications.sql); each purchase takes its track's artist (fill_purchase_artist, 05_fan.sql) and
-- counts in the roll-ups (roll_up_new_purchases, 07_analytics.sql); a new follow counts and tells
-- (count_follower, followers_notify_artist).
create or replace function private.membership_paid(
  invoice_id text, subscription_id text, fan_id uuid, tier_id uuid, billing_interval text, amount_cents integer, tax_cents integer,
  currency text, period_end timestamptz, payment_intent text, country text
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  tier public.membership_tiers;
  member public.memberships;
  joined boolean := false;
  made_order uuid;
  made_line uuid;
  share integer;
begin
  perform private.require_marketplace_request();
  -- Taken once: a second word on the invoice at the same time waits for the first's transaction, then
  -- finds it taken.
  perform pg_advisory_xact_lock(hashtext('membership_invoice:' || membership_paid.invoice_id));
  if exists (select 1 from private.membership_invoices i where i.invoice_id = membership_paid.invoice_id) then
    return jsonb_build_object('duplicate', true, 'membership_id',
      (select i.membership_id from private.membership_invoices i where i.invoice_id = membership_paid.invoice_id));
  end if;
  select * into tier from public.membership_tiers t where t.id = membership_paid.tier_id;
  if not found or membership_paid.billing_interval not in ('month', 'year') or upper(membership_paid.currency) <> tier.currency
    or membership_paid.amount_cents < 0 or coalesce(membership_paid.tax_cents, 0) < 0 then
    raise exception 'not a period of this tier' using errcode = '22023';
  end if;
  select * into member from public.memberships m where m.subscription_id = membership_paid.subscription_id for update;
  if not found then
    insert into public.memberships (fan_id, tier_id, artist_id, billing_interval, amount_cents, currency, subscription_id, current_period_end)
    values (membership_paid.fan_id, tier.id, tier.artist_id, membership_paid.billing_interval, membership_paid.amount_cents, tier.currency,
      membership_paid.subscription_id, membership_paid.period_end)
    returning * into member;
    joined := true;
  else
    update public.memberships m set current_period_end = greatest(m.current_period_end, membership_paid.period_end)
    where m.id = member.id;
  end if;
  insert into private.membership_invoices (invoice_id, membership_id) values (membership_paid.invoice_id, member.id);
  share := round(membership_paid.amount_cents * private.artist_share_percent('membership') / 100.0)::integer;
  insert into public.orders (buyer_id, buyer_email, currency, total_cents, payment_intent, provider, follow_artists, country, tax_cents)
  select membership_paid.fan_id, u.email, tier.currency, membership_paid.amount_cents, membership_paid.payment_intent, 'stripe', false,
    case when membership_paid.country ~ '^[A-Z]{2}$' then membership_paid.country end, coalesce(membership_paid.tax_cents, 0)
  from auth.users u where u.id = membership_paid.fan_id
  returning id into made_order;
  insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, total_cents, artist_share_cents, crate_cents,
    position, tax_cents)
  values (made_order, tier.artist_id, 'membership', tier.id, tier.name, membership_paid.amount_cents, membership_paid.amount_cents, share,
    membership_paid.amount_cents - share, 1, coalesce(membership_paid.tax_cents, 0))
  returning id into made_line;
  update private.membership_invoices i set order_line_id = made_line where i.invoice_id = membership_paid.invoice_id;
  update public.orders o set state = 'paid', paid_at = now() where o.id = made_order;
  if joined then
    if tier.grants_back_catalogue then
      insert into public.purchases (amount, track_id, user_id, order_line_id, country)
      select 0, t.id, membership_paid.fan_id, made_line, case when membership_paid.country ~ '^[A-Z]{2}$' then membership_paid.country end
      from public.tracks t
      where t.artist_id = tier.artist_id and t.release_date <= current_date
        and not exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = membership_paid.fan_id);
    end if;
    insert into public.followers (artist_id, fan_id) values (tier.artist_id, membership_paid.fan_id)
    on conflict do nothing;
  end if;
  return jsonb_build_object('membership_id', member.id, 'order_id', made_order, 'joined', joined);
end
$$;

revoke execute on function private.membership_paid(text, text, uuid, uuid, text, integer, integer, text, timestamptz, text, text) from public;

grant execute on function private.membership_paid(text, text, uuid, uuid, text, integer, integer, text, timestamptz, text, text)
  to anon, authenticated;

create or replace function public.membership_paid(
  invoice_id text, subscription_id text, fan_id uuid, tier_id uuid, billing_interval text, amount_cents integer, tax_cents integer,
  currency text, period_end timestamptz, payment_intent text default null, country text default null
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.membership_paid(membership_paid.invoice_id, membership_paid.subscription_id, membership_paid.fan_id,
    membership_paid.tier_id, membership_paid.billing_interval, membership_paid.amount_cents, membership_paid.tax_cents, membership_paid.currency,
    membership_paid.period_end, membership_paid.payment_intent, membership_paid.country)
$$;

revoke execute on function public.membership_paid(text, text, uuid, uuid, text, integer, integer, text, timestamptz, text, text) from public;

grant execute on function public.membership_paid(text, text, uuid, uuid, text, integer, integer, text, timestamptz, text, text)
  to anon, authenticated;

-- The provider's word on a subscription, through the marketplace alone: set to end at its period's end
-- (`cancelling`), or taken back (`active`); or ended (`ended`, `customer.subscription.deleted`), when what it
-- gave stays the fan's. An ended membership stays ended. Answers the membership's state, or null for a
-- subscription no membership has. What follows its writes: no trigger fires.
create or replace function private.membership_changed(subscription_id text, state text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_state text;
begin
  perform private.require_marketplace_request();
  if membership_changed.state not in ('active', 'cancelling', 'ended') then
    raise exception 'unknown membership state %', membership_changed.state using errcode = '22023';
  end if;
  update public.memberships m
  set state = membership_changed.state, ended_at = case when membership_changed.state = 'ended' then now() end
  where m.subscription_id = membership_changed.subscription_id and m.state <> 'ended'
  returning m.state into now_state;
  return coalesce(now_state, (select m.state from public.memberships m where m.subscription_id = membership_changed.subscription_id));
end
$$;

revoke execute on function private.membership_changed(text, text) from public;

grant execute on function private.membership_changed(text, text) to anon, authenticated;

create or replace function public.membership_changed(subscription_id text, state text)
returns text
language sql
security invoker
set search_path = ''
as $$
  select private.membership_changed(membership_changed.subscription_id, membership_changed.state)
$$;

revoke execute on function public.membership_changed(text, text) from public;

grant execute on function public.membership_changed(text, text) to anon, authenticated;

-- A fan's membership set to end at its period's end, by that fan alone (the caller), through the marketplace
-- once the provider's subscription is set to (the Cancel on the fan's Memberships page): `cancelling` at
-- once, as the provider's `customer.subscription.updated` later says again (membership_changed). One not
-- active (cancelling already, or ended) stays as it is. Answers the membership's state. What follows its
-- writes: no trigger fires.
create or replace function private.cancel_membership(membership_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  member public.memberships;
begin
  perform private.require_marketplace_request();
  select * into member from public.memberships m where m.id = cancel_membership.membership_id for update;
  if not found or member.fan_id is distinct from auth.uid() or not private.is_active_user() then
    raise exception 'only its member cancels a membership' using errcode = '42501';
  end if;
  if member.state <> 'active' then
    return member.state;
  end if;
  update public.memberships m set state = 'cancelling' where m.id = member.id;
  return 'cancelling';
end
$$;

revoke execute on function private.cancel_membership(uuid) from public;

grant execute on function private.cancel_membership(uuid) to anon, authenticated;

create or replace function public.cancel_membership(membership_id uuid)
returns text
language sql
security invoker
set search_path = ''
as $$
  select private.cancel_membership(cancel_membership.membership_id)
$$;

revoke execute on function public.cancel_membership(uuid) from public;

grant execute on function public.cancel_membership(uuid) to anon, authenticated;

-- Each new release given to the members of its artist's tiers that give new releases (a membership not
-- ended), on its day, from the announcement job (announce_releases, 19): the tracks out in the last 7 days
-- (a week covers any outage, as give_released_album_tracks reads) and on or after the day the fan joined,
-- that the fan does not own, at 0 on the membership's latest paid line. Two runs at once are taken one after
-- the other (a lock for the transaction), so the second finds the first's purchases and gives nothing twice.
-- Answers how many purchases it made. What follows its writes: as membership_paid's purchases.
create or replace function private.give_members_new_releases()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  given integer;
begin
  perform pg_advisory_xact_lock(hashtext('give_members_new_releases'));
  insert into public.purchases (amount, track_id, user_id, order_line_id)
  select 0, t.id, m.fan_id,
    (select i.order_line_id from private.membership_invoices i where i.membership_id = m.id order by i.paid_at desc limit 1)
  from public.tracks t
  join public.memberships m on m.artist_id = t.artist_id and m.state <> 'ended'
  join public.membership_tiers tier on tier.id = m.tier_id and tier.grants_new_releases
  where t.release_date > current_date - 7 and t.release_date <= current_date and t.release_date >= m.joined_at::date
    and not exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = m.fan_id);
  get diagnostics given = row_count;
  return given;
end
$$;

revoke execute on function private.give_members_new_releases() from public, anon, authenticated;

-- The studio's Memberships page: the caller's tiers, oldest first, each with its members counted (not ended)
-- and its newest 50 members (the fan's name, joined, state). One read.
create or replace function public.studio_memberships()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', t.id, 'name', t.name, 'description', t.description, 'monthly_price_cents', t.monthly_price_cents,
      'yearly_price_cents', t.yearly_price_cents, 'currency', t.currency, 'allow_pay_more', t.allow_pay_more,
      'grants_new_releases', t.grants_new_releases, 'grants_back_catalogue', t.grants_back_catalogue,
      'discount_percent', t.discount_percent, 'closed', t.closed,
      'member_count', (select count(*) from public.memberships m where m.tier_id = t.id and m.state <> 'ended'),
      'has_members', exists (select 1 from public.memberships m where m.tier_id = t.id),
      'members', coalesce((
        select jsonb_agg(jsonb_build_object('id', m.id, 'name', coalesce(f.username, 'A fan'), 'joined_at', m.joined_at,
            'state', m.state, 'billing_interval', m.billing_interval) order by m.joined_at desc, m.id)
        from (select * from public.memberships m where m.tier_id = t.id order by m.joined_at desc, m.id limit 50) m
        left join public.fan_profiles f on f.id = m.fan_id), '[]'))
    order by t.created_at, t.id), '[]')
  from public.membership_tiers t
  where t.artist_id = (select auth.uid())
$$;

revoke execute on function public.studio_memberships() from public;

grant execute on function public.studio_memberships() to authenticated, service_role;

comment on function public.studio_memberships() is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';
