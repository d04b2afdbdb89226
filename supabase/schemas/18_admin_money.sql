-- Sales and the money as administrators read it: sales listed for the studio's Payments page (an artist's
-- own) and the administrators' dashboard (every artist's), an order named by its short reference, and the
-- administrators' figures (admin_money).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

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
-- release (a track bought alone counts for its release: sold_under) or merch item. Each names what it counts
-- under (`item_id`).
create or replace function private.sales(how_many integer, item uuid, skip integer)
returns table (
  line_id uuid, order_reference text, paid_at timestamptz, kind text, title text, artist_name text, currency text,
  amount integer, discount integer, total integer, artist_share integer, country text, refunded_at timestamptz,
  buyer_email text, item_id uuid, quantity integer, shipping integer, gift boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.id, private.order_reference(o.id), o.paid_at, l.kind, l.title, a.artist_name, o.currency, l.amount_cents,
    l.code_discount_cents + l.bundle_discount_cents, l.total_cents, l.artist_share_cents, o.country, l.refunded_at,
    case when (select public.is_admin()) then o.buyer_email end,
    private.sold_under(l.kind, l.item_id), l.quantity, l.shipping_cents,
    -- Bought as a gift (its recipient is never named here).
    exists (select 1 from public.gifts g where g.order_line_id = l.id)
  from public.order_lines l
  join public.orders o on o.id = l.order_id
  join public.artist_profiles a on a.id = l.artist_id
  where o.state = 'paid' and (l.artist_id = (select auth.uid()) or (select public.is_admin()))
    and (sales.item is null or sales.item = private.sold_under(l.kind, l.item_id))
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
  buyer_email text, item_id uuid, quantity integer, shipping integer, gift boolean
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

-- What the caller has sold (what their paid lines count under: releases and merch), for the Payments page's
-- filter: each item once, by title, at most 500.
create or replace function private.sold_items()
returns table (item_id uuid, title text, kind text)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.title, s.kind
  from (
    select distinct private.sold_under(l.kind, l.item_id) as item_id
    from public.order_lines l
    join public.orders o on o.id = l.order_id
    where l.artist_id = (select auth.uid()) and o.state = 'paid'
  ) i
  join public.sellables s on s.id = i.item_id
  order by s.title, s.id
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

-- The administrators' figures of the last `days` days (7, 30, 90 or 365), per currency: gross sales (what
-- paid lines cost their buyers), Crate's part of them (less what was refunded), refunds, payouts paid (a
-- reversed transfer not among them) and failed; and as they stand now: what is due to artists (their
-- available balances), open disputes. With them, the artists whose payout details need their attention:
-- money available and their newest payout failed, or who chose Stripe and their account is not ready (at
-- most 50 each); and the payouts waiting for their artist to claim them at PayPal, the longest waiting
-- first (at most 50). Administrators alone (42501 for anyone else).
create or replace function private.admin_money(days integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  since timestamptz := now() - make_interval(days => admin_money.days);
begin
  if not public.is_admin() then
    raise exception 'administrators alone read the marketplace''s figures' using errcode = '42501';
  end if;
  if days is null or days not in (7, 30, 90, 365) then
    raise exception 'period must be 7, 30, 90 or 365 days' using errcode = '22023';
  end if;
  return jsonb_build_object(
    'currencies', coalesce((
      select jsonb_agg(jsonb_build_object('currency', c.currency,
          'gross', coalesce(s.gross, 0), 'crate', coalesce(s.crate, 0), 'refunded', coalesce(s.refunded, 0),
          'paid_out', coalesce(p.paid_out, 0), 'failed', coalesce(p.failed, 0), 'failed_count', coalesce(p.failed_count, 0),
          'due', coalesce(d.due, 0), 'disputed', coalesce(x.disputed, 0), 'dispute_count', coalesce(x.dispute_count, 0))
        order by c.currency)
      from (
        select o.currency from public.orders o where o.state = 'paid' and o.paid_at >= since
        union select p.currency from public.payouts p where p.settled_at >= since
        union select e.currency from public.ledger_entries e where e.available_at <= now()
        union select x.currency from public.order_disputes x where x.closed_at is null
      ) c
      left join (
        select o.currency, sum(l.total_cents) as gross, sum(l.crate_cents) filter (where l.refunded_at is null) as crate,
          sum(l.total_cents) filter (where l.refunded_at is not null) as refunded
        from public.orders o join public.order_lines l on l.order_id = o.id
        where o.state = 'paid' and o.paid_at >= since
        group by o.currency
      ) s on s.currency = c.currency
      left join (
        -- A reversed transfer came back from the artist: not paid out.
        select p.currency, sum(p.amount_cents) filter (where p.state = 'paid' and p.reversed_at is null) as paid_out,
          sum(p.amount_cents) filter (where p.state = 'failed') as failed, count(*) filter (where p.state = 'failed') as failed_count
        from public.payouts p where p.settled_at >= since
        group by p.currency
      ) p on p.currency = c.currency
      left join (
        select b.currency, sum(greatest(b.available, 0)) as due
        from (
          select e.artist_id, e.currency, sum(e.amount_cents) as available
          from public.ledger_entries e where e.available_at <= now()
          group by e.artist_id, e.currency
        ) b
        group by b.currency
      ) d on d.currency = c.currency
      left join (
        select x.currency, sum(x.amount_cents) as disputed, count(*) as dispute_count
        from public.order_disputes x where x.closed_at is null
        group by x.currency
      ) x on x.currency = c.currency), '[]'),
    'attention', coalesce((
      select jsonb_agg(jsonb_build_object('artist_id', n.artist_id, 'artist_name', n.artist_name, 'currency', n.currency,
          'available', n.available, 'failure', n.failure, 'failed_at', n.failed_at) order by n.failed_at desc nulls first)
      from (
        (select f.artist_id, a.artist_name, f.currency, b.available, f.failure, f.settled_at as failed_at
        from (
          select distinct on (p.artist_id, p.currency) p.artist_id, p.currency, p.state, p.failure, p.settled_at
          from public.payouts p
          order by p.artist_id, p.currency, p.created_at desc, p.settled_at desc nulls first
        ) f
        join public.artist_profiles a on a.id = f.artist_id
        cross join lateral private.balances(f.artist_id) b
        where f.state = 'failed' and b.currency = f.currency and b.available > 0
        order by f.settled_at desc
        limit 50)
        union all
        -- Stripe chosen, and the account not ready: nothing can be paid until its details are in.
        (select s.artist_id, a.artist_name, b.currency, b.available, 'Their Stripe account needs details', null
        from public.artist_payout_settings s
        join public.artist_profiles a on a.id = s.artist_id
        cross join lateral private.balances(s.artist_id) b
        where s.payout_method = 'stripe' and not s.stripe_ready and b.available > 0
        limit 50)
      ) n), '[]'),
    'unclaimed', coalesce((
      select jsonb_agg(jsonb_build_object('artist_id', u.artist_id, 'artist_name', u.artist_name, 'currency', u.currency,
          'amount', u.amount_cents, 'recipient', u.recipient, 'unclaimed_at', u.unclaimed_at) order by u.unclaimed_at, u.id)
      from (
        select p.id, p.artist_id, a.artist_name, p.currency, p.amount_cents, p.recipient, p.unclaimed_at
        from public.payouts p
        join public.artist_profiles a on a.id = p.artist_id
        where p.state = 'sending' and p.unclaimed_at is not null
        order by p.unclaimed_at, p.id
        limit 50
      ) u), '[]'));
end
$$;

revoke execute on function private.admin_money(integer) from public;

grant execute on function private.admin_money(integer) to authenticated;

create or replace function public.admin_money(days integer default 30)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.admin_money(admin_money.days)
$$;

revoke execute on function public.admin_money(integer) from public;

grant execute on function public.admin_money(integer) to authenticated;

-- The tax Crate collected as the seller, for its returns: per country, tax, rate and currency over the
-- `days` before now, the sales it was charged on (before tax) and the tax, by the day their orders were paid,
-- and the tax given back, by the day of the refund, so a period once reported stays as it was. Administrators
-- alone (anyone else reads nothing).
create or replace function private.tax_collected(days integer)
returns table (country text, tax_name text, rate numeric, currency text, sales integer, tax integer, refunded_tax integer)
language sql
stable
security definer
set search_path = ''
as $$
  with since as (select now() - make_interval(days => least(greatest(tax_collected.days, 1), 366)) as at),
  taxed as (
    select l.tax_country, l.tax_name, l.tax_rate, o.currency, l.total_cents as sales, l.tax_cents as tax, 0 as refunded_tax
    from public.orders o join public.order_lines l on l.order_id = o.id
    where o.state = 'paid' and l.tax_cents > 0 and o.paid_at >= (select at from since)
    union all
    select l.tax_country, l.tax_name, l.tax_rate, o.currency, 0, 0, l.tax_cents
    from public.order_lines l join public.orders o on o.id = l.order_id
    where l.tax_cents > 0 and l.refunded_at >= (select at from since)
  )
  select t.tax_country, t.tax_name, t.tax_rate, t.currency, sum(t.sales)::integer, sum(t.tax)::integer, sum(t.refunded_tax)::integer
  from taxed t
  where (select public.is_admin())
  group by t.tax_country, t.tax_name, t.tax_rate, t.currency
  order by t.tax_country, t.tax_name, t.tax_rate, t.currency
$$;

revoke execute on function private.tax_collected(integer) from public;

grant execute on function private.tax_collected(integer) to authenticated;

create or replace function public.tax_collected(days integer default 30)
returns table (country text, tax_name text, rate numeric, currency text, sales integer, tax integer, refunded_tax integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.tax_collected(tax_collected.days)
$$;

revoke execute on function public.tax_collected(integer) from public;

grant execute on function public.tax_collected(integer) to authenticated;
