-- Guests and their receipts: an order bought with an email alone, read by the holder of its receipt link
-- (which the marketplace vouches for), and joined to the account with that email.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

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
    'waived_withdrawal', o.waived_withdrawal, 'ship_to', o.ship_to, 'taxes', private.order_taxes(o.id),
    'lines', (
      select jsonb_agg(jsonb_build_object('id', l.id, 'kind', l.kind, 'item_id', l.item_id, 'title', l.title, 'artist_name', a.artist_name, 'quantity', l.quantity, 'total', l.total_cents,
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
    'lines', (select jsonb_agg(jsonb_build_object('kind', l.kind, 'item_id', l.item_id))
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
-- What follows its writes: no trigger fires; the ledger, the notices and the mail followed the payment.
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
