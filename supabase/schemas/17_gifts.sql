-- Gifts: a download (a track or an album) bought for someone else. The giver's order is an order like any
-- other (its line, its ledger credit, its receipt, the artist's "you sold"), but the line's purchases are
-- not the giver's: on the send date the recipient is mailed a signed claim link (written here as a mail),
-- and claiming it makes the release theirs (claim_gift). The giver sees on Purchased whether it is
-- claimed, sends the mail again, gives it to another address, or refunds it while unclaimed
-- (line_to_refund, 17_refunds.sql). Opened with its order (open_order, 16), kept from the giver by
-- fulfil_order (17_fulfilment.sql), its later tracks given to the claimant (give_released_album_tracks, 13).
set check_function_bodies = off;

-- One gift: an order line of its giver's order (so the sale counts under the giver, as every sale does),
-- for whom, the giver's message, the day it is mailed, and once claimed, by whom. `link_version` is in the
-- signed claim link: a new recipient gets a new link, and the earlier address's link claims nothing.
create table public.gifts (
  id uuid primary key default gen_random_uuid(),
  order_line_id uuid not null unique references public.order_lines (id) on delete cascade,
  giver_id uuid not null references auth.users (id) on delete cascade,
  recipient_email text not null check (private.is_email(recipient_email) and char_length(recipient_email) <= 254),
  message text check (char_length(message) <= 500),
  send_on date not null,
  link_version integer not null default 1 check (link_version >= 1),
  -- When the recipient was last mailed (null: the send date has not come, or its order is not paid yet).
  mailed_at timestamptz,
  claimed_by uuid references auth.users (id) on delete set null,
  claimed_at timestamptz,
  -- When its giver last asked for its refund (line_to_refund, 17_refunds.sql): for 10 minutes it cannot be
  -- claimed, so a claim never lands between the provider's refund and its record.
  refund_asked_at timestamptz,
  created_at timestamptz not null default now()
);

alter table public.gifts enable row level security;

-- The giver's gifts, newest first (given_gifts).
create index gifts_giver_id_created_at_idx on public.gifts (giver_id, created_at desc);

-- Gifts whose day comes (send_due_gifts, the hourly job).
create index gifts_due_idx on public.gifts (send_on) where mailed_at is null and claimed_at is null;

create index gifts_claimed_by_idx on public.gifts (claimed_by);

revoke all on public.gifts from anon, authenticated;

grant select on public.gifts to authenticated;

-- The giver reads their gifts (Purchased), administrators every one; the recipient reads theirs through
-- the claim link alone (gift_to_claim). Written by the functions below alone.
create policy "Givers read their gifts, administrators all" on public.gifts
  for select to authenticated using (giver_id = (select auth.uid()) or (select public.is_admin()));

-- The gift a new order's lines are, checked (a gift of downloads, from an account, to someone else's valid
-- address, with a message of at most 500 characters, sent today or within 30 days), or raises 22023 with
-- the hint naming what is wrong. Called by open_order before it writes anything.
create or replace function private.check_gift(gift jsonb, lines jsonb, buyer uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  email text := btrim(check_gift.gift ->> 'email');
  send_on date;
begin
  if buyer is null then
    raise exception 'a gift is given from an account' using errcode = '22023', hint = 'gift guest';
  end if;
  if exists (select 1 from jsonb_array_elements(check_gift.lines) l where l ->> 'kind' = 'merch') then
    raise exception 'merch cannot be given as a gift' using errcode = '22023', hint = 'gift merch';
  end if;
  if not coalesce(private.is_email(email) and char_length(email) <= 254, false) then
    raise exception 'a gift goes to an email address' using errcode = '22023', hint = 'gift email';
  end if;
  if lower(email) = (select lower(u.email) from auth.users u where u.id = buyer) then
    raise exception 'a gift is for someone else' using errcode = '22023', hint = 'gift self';
  end if;
  if char_length(check_gift.gift ->> 'message') > 500 then
    raise exception 'a gift''s message is at most 500 characters' using errcode = '22023', hint = 'gift message';
  end if;
  begin
    send_on := (check_gift.gift ->> 'send_on')::date;
  exception when others then
    send_on := null;
  end;
  if send_on is null or send_on < current_date or send_on > current_date + 30 then
    raise exception 'a gift is sent today or within 30 days' using errcode = '22023', hint = 'gift date';
  end if;
end
$$;

revoke execute on function private.check_gift(jsonb, jsonb, uuid) from public, anon, authenticated;

-- A gift's mail to its recipient written (the claim link is signed by the Worker as it renders it), and
-- the gift marked mailed. Answers the mail's id. Called by the functions below and by fulfil_order's
-- mail_due_gifts; no trigger fires.
create or replace function private.write_gift_mail(gift_id uuid)
returns uuid
language sql
security definer
set search_path = ''
as $$
  with gift as (
    update public.gifts g set mailed_at = now() where g.id = write_gift_mail.gift_id
    returning g.id, g.recipient_email, g.order_line_id)
  insert into private.mails (kind, recipient, order_id, order_line_id)
  select 'gift', g.recipient_email, l.order_id, l.id
  from gift g join public.order_lines l on l.id = g.order_line_id
  returning id
$$;

revoke execute on function private.write_gift_mail(uuid) from public, anon, authenticated;

-- A paid order's gifts whose day is today mailed at once (fulfil_order); later ones wait for the job.
create or replace function private.mail_due_gifts(order_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.write_gift_mail(g.id)
  from public.gifts g join public.order_lines l on l.id = g.order_line_id
  where l.order_id = mail_due_gifts.order_id and g.send_on <= current_date and g.mailed_at is null
$$;

revoke execute on function private.mail_due_gifts(uuid) from public, anon, authenticated;

-- The hourly job's part, through the marketplace alone: the gifts of paid, unrefunded lines whose send
-- date has come and that were never mailed, mailed now (at most 500 a run; the next run takes the rest).
-- Each once, however many runs overlap: a gift another run holds is skipped, and one it mailed meanwhile is
-- mailed no more (its row read again as it is locked). Answers the mails, for the Worker to queue.
create or replace function private.send_due_gifts()
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  due uuid[];
begin
  perform private.require_marketplace_request();
  select coalesce(array_agg(g.id), '{}') into due
  from (
    select g.id from public.gifts g
    where g.mailed_at is null and g.claimed_at is null and g.send_on <= current_date
      and exists (select 1 from public.order_lines l join public.orders o on o.id = l.order_id
        where l.id = g.order_line_id and o.state = 'paid' and l.refunded_at is null)
    order by g.send_on, g.id
    limit 500
    for update of g skip locked
  ) g;
  return (select coalesce(array_agg(private.write_gift_mail(d)), '{}') from unnest(due) d);
end
$$;

revoke execute on function private.send_due_gifts() from public;

grant execute on function private.send_due_gifts() to anon, authenticated;

create or replace function public.send_due_gifts()
returns uuid[]
language sql
security invoker
set search_path = ''
as $$
  select private.send_due_gifts()
$$;

revoke execute on function public.send_due_gifts() from public;

grant execute on function public.send_due_gifts() to anon, authenticated;

-- The caller's gift, locked, when they gave it and may still change it (an active account; its order paid,
-- its line not refunded, the gift not claimed): raises 42501 for anyone else's, 22023 (hint `claimed`,
-- `refunded`) otherwise. Through the marketplace alone (what follows writes a mail).
create or replace function private.gift_to_change(gift_id uuid)
returns public.gifts
language plpgsql
security definer
set search_path = ''
as $$
declare
  gift public.gifts;
begin
  perform private.require_marketplace_request();
  select * into gift from public.gifts g where g.id = gift_to_change.gift_id for update;
  if not found or gift.giver_id is distinct from (select auth.uid()) or not private.is_active_user() then
    raise exception 'only its giver changes a gift' using errcode = '42501';
  end if;
  if gift.claimed_at is not null then
    raise exception 'this gift is claimed' using errcode = '22023', hint = 'claimed';
  end if;
  if not exists (select 1 from public.order_lines l join public.orders o on o.id = l.order_id
      where l.id = gift.order_line_id and o.state = 'paid' and l.refunded_at is null) then
    raise exception 'this gift is refunded' using errcode = '22023', hint = 'refunded';
  end if;
  -- At most 5 mails of one gift an hour, so a giver cannot mail an address at will.
  if (select count(*) from private.mails m
      where m.order_line_id = gift.order_line_id and m.kind = 'gift' and m.created_at > now() - interval '1 hour') >= 5 then
    raise exception 'this gift was mailed 5 times this hour' using errcode = '54000';
  end if;
  return gift;
end
$$;

revoke execute on function private.gift_to_change(uuid) from public, anon, authenticated;

-- "Send again" (Purchased): the recipient mailed again, when its send date has come (before it, 22023
-- with hint `not yet`). Through the marketplace alone; answers the mail's id, for the Worker to queue.
create or replace function private.send_gift_again(gift_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  gift public.gifts := private.gift_to_change(send_gift_again.gift_id);
begin
  if gift.send_on > current_date then
    raise exception 'this gift is sent on %', gift.send_on using errcode = '22023', hint = 'not yet';
  end if;
  return private.write_gift_mail(gift.id);
end
$$;

revoke execute on function private.send_gift_again(uuid) from public;

grant execute on function private.send_gift_again(uuid) to anon, authenticated;

create or replace function public.send_gift_again(gift_id uuid)
returns uuid
language sql
security invoker
set search_path = ''
as $$
  select private.send_gift_again(send_gift_again.gift_id)
$$;

revoke execute on function public.send_gift_again(uuid) from public;

grant execute on function public.send_gift_again(uuid) to anon, authenticated;

-- The gift given to another address (the first already owned it, or it was mistyped): a new claim link
-- (the earlier one claims nothing now) mailed to the new address when the send date has come. 22023 with
-- hint `gift email` or `gift self` for an address that is not valid or is the giver's own. Through the
-- marketplace alone; answers the mail's id (none before the send date), for the Worker to queue.
create or replace function private.change_gift_recipient(gift_id uuid, email text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  gift public.gifts := private.gift_to_change(change_gift_recipient.gift_id);
  address text := btrim(change_gift_recipient.email);
begin
  if not coalesce(private.is_email(address) and char_length(address) <= 254, false) then
    raise exception 'a gift goes to an email address' using errcode = '22023', hint = 'gift email';
  end if;
  if lower(address) = (select lower(u.email) from auth.users u where u.id = gift.giver_id) then
    raise exception 'a gift is for someone else' using errcode = '22023', hint = 'gift self';
  end if;
  update public.gifts g set recipient_email = address, link_version = g.link_version + 1, mailed_at = null
  where g.id = gift.id;
  if gift.send_on > current_date then
    return null;
  end if;
  return private.write_gift_mail(gift.id);
end
$$;

revoke execute on function private.change_gift_recipient(uuid, text) from public;

grant execute on function private.change_gift_recipient(uuid, text) to anon, authenticated;

create or replace function public.change_gift_recipient(gift_id uuid, email text)
returns uuid
language sql
security invoker
set search_path = ''
as $$
  select private.change_gift_recipient(change_gift_recipient.gift_id, change_gift_recipient.email)
$$;

revoke execute on function public.change_gift_recipient(uuid, text) from public;

grant execute on function public.change_gift_recipient(uuid, text) to anon, authenticated;

-- What a gift's claim link shows, through the marketplace alone (which checked the link's signature):
-- the release, its artist, the giver's name and message, and its state for the caller: `claimable`,
-- `claimed` (theirs), `taken` (someone else's), `owned` (they own all of it already), `own gift` (they gave
-- it), `withdrawn` (refunded or being refunded, or the link is for an earlier recipient). A visitor sees `claimable` or one
-- of the states that hold for anyone. Null for a gift that is not there.
create or replace function private.gift_to_claim(gift_id uuid, link_version integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  gift public.gifts;
  line public.order_lines;
  state text;
begin
  perform private.require_marketplace_request();
  select * into gift from public.gifts g where g.id = gift_to_claim.gift_id;
  if not found then
    return null;
  end if;
  select * into line from public.order_lines l where l.id = gift.order_line_id;
  state := case
    when gift.claimed_at is not null and gift.claimed_by = me then 'claimed'
    when gift.claimed_at is not null then 'taken'
    when line.refunded_at is not null or gift.link_version <> gift_to_claim.link_version
      or gift.refund_asked_at > now() - interval '10 minutes'
      or not exists (select 1 from public.orders o where o.id = line.order_id and o.state = 'paid') then 'withdrawn'
    when me is not null and me = gift.giver_id then 'own gift'
    when me is not null and private.owns_gift(line, me) then 'owned'
    else 'claimable' end;
  return jsonb_build_object('id', gift.id, 'state', state, 'kind', line.kind, 'item_id', line.item_id, 'title', line.title,
    'message', gift.message,
    'artist_name', (select a.artist_name from public.artist_profiles a where a.id = line.artist_id),
    'giver_name', coalesce((select f.username from public.fan_profiles f where f.id = gift.giver_id),
      (select a.artist_name from public.artist_profiles a where a.id = gift.giver_id), 'A fan'));
end
$$;

revoke execute on function private.gift_to_claim(uuid, integer) from public;

grant execute on function private.gift_to_claim(uuid, integer) to anon, authenticated;

create or replace function public.gift_to_claim(gift_id uuid, link_version integer)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.gift_to_claim(gift_to_claim.gift_id, gift_to_claim.link_version)
$$;

revoke execute on function public.gift_to_claim(uuid, integer) from public;

grant execute on function public.gift_to_claim(uuid, integer) to anon, authenticated;

-- Whether `owner` owns every track of a gift's line that is out by now (a release not out yet is owned by
-- nobody, so it can be claimed).
create or replace function private.owns_gift(line public.order_lines, owner uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.tracks t
      where ((line.kind = 'track' and t.id = line.item_id) or (line.kind = 'album' and t.release_id = line.item_id))
        and t.release_date <= current_date)
    and not exists (select 1 from public.tracks t
      where ((line.kind = 'track' and t.id = line.item_id) or (line.kind = 'album' and t.release_id = line.item_id))
        and t.release_date <= current_date
        and not exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = owner))
$$;

revoke execute on function private.owns_gift(public.order_lines, uuid) from public, anon, authenticated;

-- A gift claimed through its signed link (the marketplace checked the signature) by the signed-in caller:
-- the release becomes theirs, as fulfil_order makes it a buyer's (its tracks out by now that they do not
-- own, the line's total divided between them by their prices; tracks out later come with the hourly job,
-- give_released_album_tracks). Answers the state as gift_to_claim names it: `claimed` once made theirs
-- (again: nothing more happens), else why not (`taken`, `withdrawn`, `own gift`, `owned`: the gift stays
-- unclaimed, for the giver to give to someone else). 42501 for a visitor or a banned account.
-- What follows its writes: each purchase counts in the analytics' roll-ups (roll_up_new_purchases, 07)
-- and reaches the artist's live dashboard; nothing else fires.
create or replace function private.claim_gift(gift_id uuid, link_version integer)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  gift public.gifts;
  line public.order_lines;
  state text;
begin
  perform private.require_marketplace_request();
  if me is null or not private.is_active_user() then
    raise exception 'a gift is claimed by a signed-in account' using errcode = '42501';
  end if;
  -- Its line locked first, as line_to_refund locks it, so a claim and the giver's refund go one after the other.
  select * into line from public.order_lines l
  where l.id = (select g.order_line_id from public.gifts g where g.id = claim_gift.gift_id) for update;
  select * into gift from public.gifts g where g.id = claim_gift.gift_id for update;
  if not found then
    return 'withdrawn';
  end if;
  state := private.gift_to_claim(gift.id, claim_gift.link_version) ->> 'state';
  if state <> 'claimable' then
    return state;
  end if;
  with tracks as (
    select t.id as track_id, t.price,
      row_number() over (order by t.track_number nulls last, t.created_at, t.id) as n,
      sum(t.price) over () as line_price
    from public.tracks t
    where ((line.kind = 'track' and t.id = line.item_id) or (line.kind = 'album' and t.release_id = line.item_id))
      and t.release_date <= current_date
      and not exists (select 1 from public.purchases p where p.track_id = t.id and p.user_id = me)
  ),
  shares as (
    select s.*, floor(line.total_cents * s.price / nullif(s.line_price, 0))::integer as cents from tracks s
  )
  insert into public.purchases (amount, track_id, user_id, order_line_id, country)
  select (s.cents + case when s.n = 1 then line.total_cents - sum(s.cents) over () else 0 end) / 100.0,
    s.track_id, me, line.id, (select o.country from public.orders o where o.id = line.order_id)
  from shares s;
  update public.gifts g set claimed_by = me, claimed_at = now() where g.id = gift.id;
  return 'claimed';
end
$$;

revoke execute on function private.claim_gift(uuid, integer) from public;

grant execute on function private.claim_gift(uuid, integer) to anon, authenticated;

create or replace function public.claim_gift(gift_id uuid, link_version integer)
returns text
language sql
security invoker
set search_path = ''
as $$
  select private.claim_gift(claim_gift.gift_id, claim_gift.link_version)
$$;

revoke execute on function public.claim_gift(uuid, integer) from public;

grant execute on function public.claim_gift(uuid, integer) to anon, authenticated;

-- Purchased's gifts: the caller's, newest first, at most 50, each with its line's item, its recipient and
-- message, its send date, whether it was mailed, claimed or refunded.
create or replace function public.given_gifts()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', g.id, 'line_id', l.id, 'kind', l.kind, 'item_id', l.item_id, 'title', l.title,
      'currency', o.currency, 'total', l.total_cents, 'recipient_email', g.recipient_email, 'message', g.message,
      'send_on', g.send_on, 'mailed', g.mailed_at is not null, 'claimed', g.claimed_at is not null,
      'refunded', l.refunded_at is not null)
    order by g.created_at desc, g.id), '[]')
  from (select * from public.gifts g where g.giver_id = (select auth.uid()) order by g.created_at desc, g.id limit 50) g
  join public.order_lines l on l.id = g.order_line_id
  join public.orders o on o.id = l.order_id and o.state = 'paid'
$$;

revoke execute on function public.given_gifts() from public, anon;

grant execute on function public.given_gifts() to authenticated;

comment on function public.given_gifts() is
  'Runs as its caller: Purchased''s read of the caller''s own gifts and their lines, as row-level security lets them.';
