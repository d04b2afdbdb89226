-- An artist's store settings and dashboard analytics: one private row each, which the dashboard
-- creates with defaults on first visit.

-- [{ id, name, price ≥ 0, description? }]
create or replace function private.is_pricing_tiers(tiers jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(tiers) = 'array' then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(tier -> 'id') = 'string'
        and jsonb_typeof(tier -> 'name') = 'string'
        and private.is_json_number(tier -> 'price', 0, 1000000)
        and coalesce(jsonb_typeof(tier -> 'description') in ('string', 'null'), true), false)), true)
      from jsonb_array_elements(tiers) as tier)
    else false
  end
$$;

-- [{ id, code, percentage whole 0-100, validUntil?, active }]
create or replace function private.is_discounts(discounts jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(discounts) = 'array' then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(discount -> 'id') = 'string'
        and jsonb_typeof(discount -> 'code') = 'string'
        and private.is_json_number(discount -> 'percentage', 0, 100, true)
        and coalesce(jsonb_typeof(discount -> 'validUntil') in ('string', 'null'), true)
        and jsonb_typeof(discount -> 'active') = 'boolean', false)), true)
      from jsonb_array_elements(discounts) as discount)
    else false
  end
$$;

-- { enabled, discountPercentage 0-100 }
create or replace function private.is_bundling(bundling jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(bundling) = 'object' then coalesce(
      jsonb_typeof(bundling -> 'enabled') = 'boolean'
      and private.is_json_number(bundling -> 'discountPercentage', 0, 100), false)
    else false
  end
$$;

create table public.store_settings (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  pricing_tiers jsonb not null default '[]' check (private.is_pricing_tiers(pricing_tiers)),
  discounts jsonb not null default '[]' check (private.is_discounts(discounts)),
  bundling jsonb not null default '{"enabled": false, "discountPercentage": 10}' check (private.is_bundling(bundling)),
  created_at timestamptz not null default now()
);

-- Filled by the analytics aggregation (service role); the artist only creates the empty row.
create table public.analytics (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  revenue jsonb not null default '{"total": 0, "trend": 0, "history": []}',
  downloads jsonb not null default '{"total": 0, "trend": 0, "history": []}',
  top_tracks jsonb not null default '[]' check (jsonb_typeof(top_tracks) = 'array'),
  geography jsonb not null default '[]' check (jsonb_typeof(geography) = 'array'),
  created_at timestamptz not null default now()
);

revoke all on public.store_settings, public.analytics from anon, authenticated;
grant select, insert (artist_id, pricing_tiers, discounts, bundling),
  update (pricing_tiers, discounts, bundling) on public.store_settings to authenticated;
grant select, insert (artist_id) on public.analytics to authenticated;

alter table public.store_settings enable row level security;
alter table public.analytics enable row level security;

create policy "Artists read their own store settings" on public.store_settings
  for select to authenticated using (artist_id = (select auth.uid()));
create policy "Artists create their own store settings" on public.store_settings
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));
create policy "Artists update their own store settings" on public.store_settings
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists read their own analytics" on public.analytics
  for select to authenticated using (artist_id = (select auth.uid()));
create policy "Artists create their own analytics" on public.analytics
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));
