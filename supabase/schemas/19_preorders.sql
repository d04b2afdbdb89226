-- Pre-orders: a release dated ahead, shown and sold before its day. Its artist puts it on pre-order with
-- its day and its instant tracks (`save_preorder`), moves the day (its buyers told, in the site and by
-- mail), or withdraws it (`withdraw_preorder`: every buyer's line refunded by the marketplace through the
-- refund path, 17_refunds.sql). What is shown and sold: the tracks' read policies (03_catalog.sql), the
-- album page (03_releases.sql), `priced_cart` (16_cart.sql: the whole release's price, once); what is
-- handed over: `fulfil_order` (17_fulfilment.sql) gives the instant tracks at once, the hourly job
-- (`give_released_album_tracks`, 13_downloads.sql) the rest on the day, and `may_download`,
-- `bought_master` and `track_stream` refuse the others before it.
set check_function_bodies = off;

-- Whether a track is its buyers' to take now: out, or an instant track of a release on pre-order.
create or replace function private.out_for_buyers(track_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.tracks t
    join public.releases r on r.id = t.release_id
    where t.id = out_for_buyers.track_id and (t.release_date <= current_date or (t.instant and r.preorder)))
$$;

revoke execute on function private.out_for_buyers(uuid) from public;

grant execute on function private.out_for_buyers(uuid) to anon, authenticated, service_role;

-- The paid lines, not refunded, that sold a release (an album, or a single's track): its buyers.
create or replace function private.release_lines(release_id uuid)
returns setof public.order_lines
language sql
stable
security definer
set search_path = ''
as $$
  select l.* from public.order_lines l
  join public.orders o on o.id = l.order_id
  where o.state = 'paid' and l.refunded_at is null
    and ((l.kind = 'album' and l.item_id = release_lines.release_id)
      or (l.kind = 'track' and l.item_id in (
        select t.id from public.tracks t join public.releases r on r.id = t.release_id
        where r.id = release_lines.release_id and r.kind = 'single')))
$$;

revoke execute on function private.release_lines(uuid) from public, anon, authenticated;

-- Whether a buyer has a paid line, not refunded and not a gift, for an album or a single's track on
-- pre-order: what they pre-ordered is theirs already (the cart says "owned"), though its tracks come on its
-- day.
create or replace function private.preordered_by(kind text, item_id uuid, buyer uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select preordered_by.buyer is not null and preordered_by.kind in ('album', 'track') and exists (
    select 1 from public.releases r
    where r.preorder and r.id = case when preordered_by.kind = 'album' then preordered_by.item_id
      else (select t.release_id from public.tracks t where t.id = preordered_by.item_id) end) and exists (
    select 1 from public.order_lines l
    join public.orders o on o.id = l.order_id
    where l.item_id = preordered_by.item_id and l.kind = preordered_by.kind and l.refunded_at is null
      and o.state = 'paid' and o.buyer_id = preordered_by.buyer
      -- (a gift is its recipient's, not its giver's)
      and not exists (select 1 from public.gifts g where g.order_line_id = l.id))
$$;

revoke execute on function private.preordered_by(text, uuid, uuid) from public, anon, authenticated;

-- Whether the caller pre-ordered a release (the album page's "Pre-ordered"). Visitors may ask (no).
create or replace function private.preordered(release_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and exists (
    select 1 from public.releases r
    where r.id = preordered.release_id and r.preorder
      and exists (select 1 from private.release_lines(r.id) l
        join public.orders o on o.id = l.order_id where o.buyer_id = (select auth.uid())
          and not exists (select 1 from public.gifts g where g.order_line_id = l.id)))
$$;

revoke execute on function private.preordered(uuid) from public;

grant execute on function private.preordered(uuid) to anon, authenticated, service_role;

-- A release put on pre-order, or its pre-order changed, by its artist (active): every track of it moves to
-- `release_date` (ahead), and the tracks named in `instant` (its own) become instant downloads, the others
-- not. Only a release with every track dated ahead may be on pre-order (23514,
-- releases_preorder_dated_ahead); another's release, or none, is 42501. A pre-order whose day moves tells its
-- buyers: a notice to each account, and a mail to each paid line ("… moved to 12 April").
-- Answers {mails}: the mails to queue.
-- What follows its writes: the tracks' triggers (their pages touched, the genre roll-ups, the date's range).
create or replace function private.save_preorder(release_id uuid, release_date date, instant uuid[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  saved public.releases;
  was date;
  mails uuid[] := '{}';
begin
  select * into saved from public.releases r
  where r.id = save_preorder.release_id and r.artist_id = (select auth.uid())
  for update;
  if not found or not private.is_active_user() then
    raise exception 'only its artist puts a release on pre-order' using errcode = '42501';
  end if;
  if save_preorder.release_date is null or save_preorder.release_date <= current_date
    or exists (select 1 from public.tracks t where t.release_id = saved.id and t.release_date <= current_date) then
    raise exception 'only a release dated ahead may be on pre-order'
      using errcode = 'check_violation', constraint = 'releases_preorder_dated_ahead';
  end if;
  select max(t.release_date) into was from public.tracks t where t.release_id = saved.id;
  update public.tracks t
  set release_date = save_preorder.release_date, instant = t.id = any (coalesce(save_preorder.instant, '{}'))
  where t.release_id = saved.id
    and (t.release_date, t.instant) is distinct from (save_preorder.release_date, t.id = any (coalesce(save_preorder.instant, '{}')));
  update public.releases r set preorder = true where r.id = saved.id and not r.preorder;
  if saved.preorder and was is distinct from save_preorder.release_date then
    with lines as (
      select l.id, l.order_id, o.buyer_id, o.buyer_email
      from private.release_lines(saved.id) l
      join public.orders o on o.id = l.order_id
    ),
    told as (
      insert into public.notifications (user_id, kind, release_id)
      select distinct l.buyer_id, 'moved', saved.id from lines l where l.buyer_id is not null
      returning 1
    ),
    mailed as (
      insert into private.mails (kind, recipient, order_id, order_line_id, detail)
      select 'preorder_moved', l.buyer_email, l.order_id, l.id, to_char(save_preorder.release_date, 'YYYY-MM-DD')
      from lines l
      returning id
    )
    select coalesce(array_agg(m.id), '{}') into mails from mailed m;
  end if;
  return jsonb_build_object('mails', to_jsonb(mails));
end
$$;

revoke execute on function private.save_preorder(uuid, date, uuid[]) from public;

grant execute on function private.save_preorder(uuid, date, uuid[]) to authenticated;

create or replace function public.save_preorder(release_id uuid, release_date date, instant uuid[] default '{}')
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.save_preorder(save_preorder.release_id, save_preorder.release_date, save_preorder.instant)
$$;

revoke execute on function public.save_preorder(uuid, date, uuid[]) from public;

grant execute on function public.save_preorder(uuid, date, uuid[]) to authenticated;

-- A pre-order withdrawn by its artist (active) before its day: the release is on pre-order no more (dated
-- ahead, it is hidden and unsold again, as before), and answers its buyers' paid lines not refunded yet, at
-- most 50 a call, for the marketplace to refund each through the refund path (refundLine: line_to_refund,
-- the provider, record_refund, the buyer's refund mail; each line once). Called again, it answers the lines
-- still to refund. Another's release, or none, is 42501; a release already out is 23514.
-- What follows its writes: the release's update touches its page (touch_when_changed).
create or replace function private.withdraw_preorder(release_id uuid)
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  withdrawn public.releases;
begin
  select * into withdrawn from public.releases r
  where r.id = withdraw_preorder.release_id and r.artist_id = (select auth.uid())
  for update;
  if not found or not private.is_active_user() then
    raise exception 'only its artist withdraws a pre-order' using errcode = '42501';
  end if;
  if exists (select 1 from public.tracks t where t.release_id = withdrawn.id and t.release_date <= current_date) then
    raise exception 'a release out already is no pre-order to withdraw'
      using errcode = 'check_violation', constraint = 'releases_preorder_dated_ahead';
  end if;
  update public.releases r set preorder = false where r.id = withdrawn.id and r.preorder;
  return (select coalesce(array_agg(l.id order by l.id), '{}')
    from (select l.id from private.release_lines(withdrawn.id) l order by l.id limit 50) l);
end
$$;

revoke execute on function private.withdraw_preorder(uuid) from public;

grant execute on function private.withdraw_preorder(uuid) to authenticated;

create or replace function public.withdraw_preorder(release_id uuid)
returns uuid[]
language sql
security invoker
set search_path = ''
as $$
  select private.withdraw_preorder(withdraw_preorder.release_id)
$$;

revoke execute on function public.withdraw_preorder(uuid) from public;

grant execute on function public.withdraw_preorder(uuid) to authenticated;
