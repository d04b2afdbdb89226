-- Mail the marketplace sends: about orders, the buyer's receipt, "you sold" to each artist of a paid
-- order (unless they turned it off), the buyer's notice of a refund, and of merch on its way; and release
-- announcements and a newsletter signup's confirmation (19_announcements.sql, 19_email_settings.sql). A
-- mail is a row first, written in the transaction that makes its reason (a paid order, a refund), so a
-- failing mail provider never fails an order and no mail is lost when the queue is slow: the Worker
-- queues the unsent rows it is handed, its consumer renders each from the order as it is now and sends it
-- with the row's id as the provider's idempotency key, then marks it sent. Written and read by the
-- marketplace alone (the Worker's secret); nobody reads the table directly.
set check_function_bodies = off;

create table private.mails (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('receipt', 'sale', 'refund', 'shipped', 'releases', 'newsletter_signup', 'paypal_changed',
    'payout_method_changed', 'stripe_connected', 'gift')),
  recipient text not null check (private.is_email(recipient)),
  -- The order a mail is about; none for release announcements (their releases are its items, 19) nor
  -- for a newsletter signup's confirmation.
  order_id uuid references public.orders (id) on delete cascade,
  -- "You sold": the artist whose lines it lists; a signup's confirmation: the artist signed up for. A
  -- refund or shipping notice: the line refunded or shipped; a gift's mail: the gift's line.
  artist_id uuid references public.artist_profiles (id) on delete cascade,
  order_line_id uuid references public.order_lines (id) on delete cascade,
  -- What an account's notice names: the PayPal email it was changed to, partly hidden (none: removed); the
  -- payout method chosen ('paypal' or 'stripe').
  detail text check (char_length(detail) <= 300),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  -- The provider's id for the message sent, and the last failure's reason while it is not.
  provider_id text,
  attempts integer not null default 0,
  last_error text,
  -- Release mail: when the queue is to hand it to the consumer, spread at a share of the provider's rate
  -- (space_release_mails, 19); none for mail sent as soon as it can be.
  send_at timestamptz,
  -- When the queue gave it up after its last retry (its dead letter, mail_given_up): unsent, listed for
  -- administrators, who send it again (send_mail_again).
  given_up_at timestamptz,
  constraint mails_sale_names_its_artist check ((kind in ('sale', 'newsletter_signup')) = (artist_id is not null)),
  constraint mails_notice_names_its_line check ((kind in ('refund', 'shipped', 'gift')) = (order_line_id is not null)),
  constraint mails_order_mail_names_its_order
    check ((kind not in ('releases', 'newsletter_signup', 'paypal_changed', 'payout_method_changed', 'stripe_connected'))
      = (order_id is not null))
);

revoke all on table private.mails from public, anon, authenticated;

create index mails_order_id_created_at_idx on private.mails (order_id, created_at desc);

create index mails_artist_id_idx on private.mails (artist_id);

create index mails_order_line_id_idx on private.mails (order_line_id);

-- When an address last got release mail (private.queue_release_mails: at most one an hour, or a week).
create index mails_release_recipient_idx on private.mails (recipient, created_at desc) where kind = 'releases';

-- Release mail never handed to the queue (private.unsent_release_mails).
create index mails_release_unqueued_idx on private.mails (created_at) where kind = 'releases' and sent_at is null and attempts = 0;

-- The last release mail spread ahead (private.space_release_mails: the next goes after it).
create index mails_release_send_at_idx on private.mails (send_at) where kind = 'releases' and sent_at is null;

-- Mail the queue gave up, newest first (private.mails_given_up).
create index mails_given_up_idx on private.mails (given_up_at desc) where given_up_at is not null and sent_at is null;

-- A paid order's mails: the receipt to its buyer, "you sold" to each of its artists (at their account's
-- address) who did not turn it off. Called once, by the fulfilment.
create or replace function private.queue_order_mails(order_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.mails (kind, recipient, order_id)
  select 'receipt', o.buyer_email, o.id from public.orders o where o.id = queue_order_mails.order_id;
  insert into private.mails (kind, recipient, order_id, artist_id)
  select distinct 'sale', u.email, l.order_id, l.artist_id
  from public.order_lines l
  join auth.users u on u.id = l.artist_id
  left join public.email_settings s on s.user_id = l.artist_id
  where l.order_id = queue_order_mails.order_id and private.is_email(u.email) and coalesce(s.sale_emails, true);
$$;

revoke execute on function private.queue_order_mails(uuid) from public, anon, authenticated;

-- The mails of an order not sent yet, oldest first: what the Worker queues after applying news about it
-- (again after a retried delivery, so a queue that failed once loses nothing).
create or replace function private.unsent_mails(order_id uuid)
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(m.id order by m.created_at, m.id), '{}')
  from private.mails m
  where m.order_id = unsent_mails.order_id and m.sent_at is null
$$;

revoke execute on function private.unsent_mails(uuid) from public, anon, authenticated;

-- One mail as the Worker renders it, through the marketplace alone: its kind and recipient, whether it
-- went already, and its order with the lines it speaks of (a receipt: all; "you sold": the artist's; a
-- refund: the line refunded), each with its item, price, discounts, total and the artist's share; a release
-- mail, its releases still to tell (private.release_mail_releases); a signup's confirmation, its artist's
-- name; an account's notice of its payout method, the method. Null for a mail that is not there.
create or replace function private.mail_to_send(mail_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  mail private.mails;
begin
  perform private.require_marketplace_request();
  select * into mail from private.mails m where m.id = mail_to_send.mail_id;
  if not found then
    return null;
  end if;
  if mail.kind = 'paypal_changed' then
    return jsonb_build_object('id', mail.id, 'kind', mail.kind, 'recipient', mail.recipient, 'sent', mail.sent_at is not null,
      'paypal_email', mail.detail);
  end if;
  if mail.kind in ('payout_method_changed', 'stripe_connected') then
    return jsonb_build_object('id', mail.id, 'kind', mail.kind, 'recipient', mail.recipient, 'sent', mail.sent_at is not null,
      'payout_method', mail.detail);
  end if;
  if mail.kind = 'releases' then
    return jsonb_build_object('id', mail.id, 'kind', mail.kind, 'recipient', mail.recipient, 'sent', mail.sent_at is not null,
      'releases', private.release_mail_releases(mail.id, mail.recipient));
  end if;
  if mail.kind = 'newsletter_signup' then
    return (select jsonb_build_object('id', mail.id, 'kind', mail.kind, 'recipient', mail.recipient, 'sent', mail.sent_at is not null,
        'artist_name', a.artist_name)
      from public.artist_profiles a where a.id = mail.artist_id);
  end if;
  if mail.kind = 'gift' then
    -- Nothing to tell once claimed or refunded, or given to another address since.
    return (select jsonb_build_object('id', mail.id, 'kind', mail.kind, 'recipient', mail.recipient, 'sent', mail.sent_at is not null,
        'gift', case when g.claimed_at is null and l.refunded_at is null and lower(g.recipient_email) = lower(mail.recipient) then
          private.gift_to_claim(g.id, g.link_version) || jsonb_build_object('link_version', g.link_version) end)
      from public.gifts g join public.order_lines l on l.id = g.order_line_id where g.order_line_id = mail.order_line_id);
  end if;
  return (
    select jsonb_build_object(
      'id', mail.id, 'kind', mail.kind, 'recipient', mail.recipient, 'sent', mail.sent_at is not null,
      'order', jsonb_build_object(
        'id', o.id, 'currency', o.currency, 'total', o.total_cents, 'paid_at', o.paid_at, 'taxes', private.order_taxes(o.id),
        'buyer_email', o.buyer_email, 'guest', o.guest, 'country', o.country,
        'waived_withdrawal', o.waived_withdrawal, 'ship_to', o.ship_to, 'shipping_address', o.shipping_address),
      'lines', coalesce((
        select jsonb_agg(jsonb_build_object(
            'id', l.id, 'kind', l.kind, 'item_id', l.item_id, 'title', l.title,
            'artist_id', l.artist_id, 'artist_name', a.artist_name, 'amount', l.amount_cents,
            'discount_code', l.discount_code, 'code_discount', l.code_discount_cents,
            'bundle_discount', l.bundle_discount_cents, 'quantity', l.quantity, 'shipping', l.shipping_cents,
            'total', l.total_cents, 'tax', l.tax_cents,
            'artist_share', l.artist_share_cents, 'refunded', l.refunded_at is not null, 'tracking', l.tracking,
            -- A gift: its recipient for the buyer's receipt alone (an artist never reads a buyer's, or their friend's, address).
            'gift', exists (select 1 from public.gifts g where g.order_line_id = l.id),
            'gift_for', case when mail.kind = 'receipt' then (select g.recipient_email from public.gifts g where g.order_line_id = l.id) end)
          order by l.title, l.id)
        from public.order_lines l
        join public.artist_profiles a on a.id = l.artist_id
        where l.order_id = o.id
          and (mail.kind = 'receipt'
            or (mail.kind = 'sale' and l.artist_id = mail.artist_id)
            or (mail.kind in ('refund', 'shipped') and l.id = mail.order_line_id))), '[]'))
    from public.orders o where o.id = mail.order_id);
end
$$;

revoke execute on function private.mail_to_send(uuid) from public;

grant execute on function private.mail_to_send(uuid) to anon, authenticated;

create or replace function public.mail_to_send(mail_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.mail_to_send(mail_to_send.mail_id)
$$;

revoke execute on function public.mail_to_send(uuid) from public;

grant execute on function public.mail_to_send(uuid) to anon, authenticated;

-- What became of one attempt to send a mail, through the marketplace alone: sent (the provider's id; no
-- longer given up), or failed (why; it stays unsent, for the queue's retry). A send the provider's rate
-- limit refused is no attempt: the Worker waits and sends it again without calling this.
create or replace function private.mail_attempted(mail_id uuid, provider_id text, failure text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update private.mails m
  set attempts = m.attempts + 1,
    sent_at = case when mail_attempted.provider_id is not null then coalesce(m.sent_at, now()) else m.sent_at end,
    provider_id = coalesce(m.provider_id, mail_attempted.provider_id),
    given_up_at = case when mail_attempted.provider_id is null then m.given_up_at end,
    last_error = case when mail_attempted.provider_id is null then left(mail_attempted.failure, 500) end
  where m.id = mail_attempted.mail_id;
end
$$;

revoke execute on function private.mail_attempted(uuid, text, text) from public;

grant execute on function private.mail_attempted(uuid, text, text) to anon, authenticated;

create or replace function public.mail_attempted(mail_id uuid, provider_id text default null, failure text default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.mail_attempted(mail_attempted.mail_id, mail_attempted.provider_id, mail_attempted.failure)
$$;

revoke execute on function public.mail_attempted(uuid, text, text) from public;

grant execute on function public.mail_attempted(uuid, text, text) to anon, authenticated;

-- Purchased's "Send the receipt again": a new receipt of one of the caller's paid orders, through the
-- marketplace (which queues it). At most two receipts of an order a minute (the first and one more), so
-- the button cannot flood a mailbox. Answers the mail's id; raises 42501 for an order that is not the
-- caller's or not paid, 54000 when two went within the minute.
create or replace function private.send_receipt_again(order_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  buyer uuid := (select auth.uid());
  paid public.orders;
  made uuid;
begin
  perform private.require_marketplace_request();
  select * into paid from public.orders o
  where o.id = send_receipt_again.order_id and o.buyer_id = buyer and buyer is not null and o.state = 'paid'
  for update;
  if not found then
    raise exception 'no paid order of yours has this id' using errcode = '42501';
  end if;
  if (select count(*) from private.mails m
      where m.order_id = paid.id and m.kind = 'receipt' and m.created_at > now() - interval '1 minute') >= 2 then
    raise exception 'two receipts of this order went within the minute' using errcode = '54000';
  end if;
  insert into private.mails (kind, recipient, order_id) values ('receipt', paid.buyer_email, paid.id)
  returning id into made;
  return made;
end
$$;

revoke execute on function private.send_receipt_again(uuid) from public;

grant execute on function private.send_receipt_again(uuid) to authenticated;

create or replace function public.send_receipt_again(order_id uuid)
returns uuid
language sql
security invoker
set search_path = ''
as $$
  select private.send_receipt_again(send_receipt_again.order_id)
$$;

revoke execute on function public.send_receipt_again(uuid) from public;

grant execute on function public.send_receipt_again(uuid) to authenticated;

-- The queue gave a mail up after its last retry (the media Worker's consumer of its dead letters), through
-- the marketplace alone: marked given up, never deleted, so administrators see it and send it again. A
-- mail sent meanwhile stays as it is.
create or replace function private.mail_given_up(mail_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update private.mails m set given_up_at = now()
  where m.id = mail_given_up.mail_id and m.sent_at is null and m.given_up_at is null;
end
$$;

revoke execute on function private.mail_given_up(uuid) from public;

grant execute on function private.mail_given_up(uuid) to anon, authenticated;

create or replace function public.mail_given_up(mail_id uuid)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.mail_given_up(mail_given_up.mail_id)
$$;

revoke execute on function public.mail_given_up(uuid) from public;

grant execute on function public.mail_given_up(uuid) to anon, authenticated;

-- The Admin Dashboard's "Mail not sent": how many mails the queue gave up (`count`), and the newest
-- `how_many` (at most 100) of them (`mails`: kind, recipient, attempts, the last error, when it was given
-- up). Administrators alone (42501 for anyone else).
create or replace function private.mails_given_up(how_many integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'administrators alone read the mail not sent' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'count', (select count(*) from private.mails m where m.given_up_at is not null and m.sent_at is null),
    'mails', coalesce((
      select jsonb_agg(jsonb_build_object('id', g.id, 'kind', g.kind, 'recipient', g.recipient, 'attempts', g.attempts,
          'last_error', g.last_error, 'given_up_at', g.given_up_at) order by g.given_up_at desc, g.id)
      from (
        select m.id, m.kind, m.recipient, m.attempts, m.last_error, m.given_up_at
        from private.mails m
        where m.given_up_at is not null and m.sent_at is null
        order by m.given_up_at desc, m.id
        limit least(greatest(coalesce(mails_given_up.how_many, 50), 1), 100)
      ) g), '[]'));
end
$$;

revoke execute on function private.mails_given_up(integer) from public;

grant execute on function private.mails_given_up(integer) to authenticated;

create or replace function public.mails_given_up(how_many integer default 50)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.mails_given_up(mails_given_up.how_many)
$$;

revoke execute on function public.mails_given_up(integer) from public;

grant execute on function public.mails_given_up(integer) to authenticated;

-- The Admin Dashboard's "Send again" on a mail the queue gave up: no longer given up (the page queues it,
-- with the queue's retries afresh), and the audit log says who sent what to whom again. Administrators alone
-- (42501 for anyone else); P0002 when the mail is not given up (sent meanwhile, sent again already, or no
-- such mail).
create or replace function private.send_mail_again(mail_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  again private.mails;
begin
  if not public.is_admin() then
    raise exception 'administrators alone send mail again' using errcode = '42501';
  end if;
  update private.mails m set given_up_at = null
  where m.id = send_mail_again.mail_id and m.given_up_at is not null and m.sent_at is null
  returning m.* into again;
  if again.id is null then
    raise exception 'no mail given up has this id' using errcode = 'P0002';
  end if;
  insert into public.audit_log (actor_id, actor_email, action, target_id, summary)
  values ((select auth.uid()), (select auth.jwt()) ->> 'email', 'mail.send_again', again.id,
    replace(again.kind, '_', ' ') || ' mail to ' || again.recipient);
  return again.id;
end
$$;

revoke execute on function private.send_mail_again(uuid) from public;

grant execute on function private.send_mail_again(uuid) to authenticated;

create or replace function public.send_mail_again(mail_id uuid)
returns uuid
language sql
security invoker
set search_path = ''
as $$
  select private.send_mail_again(send_mail_again.mail_id)
$$;

revoke execute on function public.send_mail_again(uuid) from public;

grant execute on function public.send_mail_again(uuid) to authenticated;
