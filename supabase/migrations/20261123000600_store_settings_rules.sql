-- Store settings as the Store Settings form keeps them (spec section 5): the database holds the same rules
-- as the form's schema, so a write through the API cannot store what the form would refuse.
-- - pricing tiers: a name, a price of at least 0 in cents, at most 20 tiers;
-- - discount codes: a code (unique per artist whatever its case), a whole percentage 0-100, an optional
--   date it is valid until, on or off; at most 50 codes;
-- - bundling: on or off, with a percentage 0-100 (unchanged).

create or replace function private.is_cents(value jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'number' and value::numeric = round(value::numeric, 2)
$$;

create or replace function private.is_pricing_tiers(tiers jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(tiers) = 'array' and jsonb_array_length(tiers) <= 20 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(tier -> 'id') = 'string'
        and jsonb_typeof(tier -> 'name') = 'string' and btrim(tier ->> 'name') <> ''
        and private.is_json_number(tier -> 'price', 0, 1000000) and private.is_cents(tier -> 'price')
        and coalesce(jsonb_typeof(tier -> 'description') in ('string', 'null'), true), false)), true)
      from jsonb_array_elements(tiers) as tier)
    else false
  end
$$;

create or replace function private.is_discounts(discounts jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(discounts) = 'array' and jsonb_array_length(discounts) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(discount -> 'id') = 'string'
        and jsonb_typeof(discount -> 'code') = 'string' and btrim(discount ->> 'code') <> ''
        and private.is_json_number(discount -> 'percentage', 0, 100, true)
        and (jsonb_typeof(discount -> 'validUntil') is null or jsonb_typeof(discount -> 'validUntil') = 'null'
          or (discount ->> 'validUntil') ~ '^\d{4}-\d{2}-\d{2}$')
        and jsonb_typeof(discount -> 'active') = 'boolean', false)), true)
        and count(distinct lower(btrim(discount ->> 'code'))) = count(*)
      from jsonb_array_elements(discounts) as discount)
    else false
  end
$$;
