-- A fan's collection and wishlist, and a release's "supported by": what a fan owns and wants, on their page
-- (fan_page, 05_fan.sql), and the fans who bought a release, on its page. A fan may keep either list off
-- their page (fan_profiles.show_collection, show_wishlist) and a single release they bought
-- (hidden_purchases); what they hide never leaves the database for anyone else: the reads below are
-- definers that leave it out for every reader but the fan. Banned fans appear nowhere.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The releases a fan wants: their own rows, for fans alone; others read them through fan_page, filtered.
create table public.wishlist (
  fan_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  release_id uuid not null references public.releases (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (fan_id, release_id)
);

alter table public.wishlist enable row level security;

-- A fan's page lists their wishlist newest first; a deleted release leaves every wishlist.
create index wishlist_fan_id_created_at_idx on public.wishlist (fan_id, created_at desc);

create index wishlist_release_id_idx on public.wishlist (release_id);

-- At most 1,000 releases a fan wants: the page reads them in pages, and no one list grows without end.
create trigger wishlist_limit
  before insert on public.wishlist
  for each row execute function private.limit_per_owner('fan_id', '1000', 'a wishlist holds at most 1000 releases');

revoke all on public.wishlist from anon, authenticated;

-- The fan comes from the session (the column default), never from the request.
grant select, insert (release_id), delete on public.wishlist to authenticated;

create policy "Fans read their own wishlist" on public.wishlist
  for select to authenticated using (fan_id = (select auth.uid()));

-- Only a release the fan can see (released, under the releases' policy), and only a fan: artists and
-- administrators have no page to show it on.
create policy "Fans wish for releases they can see" on public.wishlist
  for insert to authenticated
  with check (
    fan_id = (select auth.uid())
    and (select private.is_active_user())
    and exists (select 1 from public.fan_profiles p where p.id = (select auth.uid()))
    and exists (select 1 from public.releases r where r.id = release_id)
  );

create policy "Fans remove from their own wishlist" on public.wishlist
  for delete to authenticated using (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- The releases a fan bought (or was given) and keeps off their page and out of every release's
-- "supported by" and "also bought": one row a release, whatever of it they own.
create table public.hidden_purchases (
  fan_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  release_id uuid not null references public.releases (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (fan_id, release_id)
);

alter table public.hidden_purchases enable row level security;

create index hidden_purchases_release_id_idx on public.hidden_purchases (release_id);

revoke all on public.hidden_purchases from anon, authenticated;

grant select, insert (release_id), delete on public.hidden_purchases to authenticated;

create policy "Fans read what they hide" on public.hidden_purchases
  for select to authenticated using (fan_id = (select auth.uid()));

-- Only a release the fan owns some of (their own purchases, under the purchases' policy).
create policy "Fans hide what they bought" on public.hidden_purchases
  for insert to authenticated
  with check (
    fan_id = (select auth.uid())
    and (select private.is_active_user())
    and exists (
      select 1 from public.purchases p join public.tracks t on t.id = p.track_id
      where p.user_id = (select auth.uid()) and t.release_id = hidden_purchases.release_id)
  );

create policy "Fans show again what they hid" on public.hidden_purchases
  for delete to authenticated using (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- Whether `fan` keeps `release_id` off their page (a hidden purchase, or their whole collection hidden).
create or replace function private.purchase_hidden(fan uuid, release_id uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (select 1 from public.hidden_purchases h where h.fan_id = purchase_hidden.fan and h.release_id = purchase_hidden.release_id)
    or exists (select 1 from public.fan_profiles p where p.id = purchase_hidden.fan and not p.show_collection)
$$;

revoke execute on function private.purchase_hidden(uuid, uuid) from public, anon, authenticated;

-- A page of `fan_id`'s collection (what they bought or were given by a download code, by release, newest
-- first) or wishlist (`shelf`: 'collection' or 'wishlist'), `page_size` (at most 48) a page: the count and
-- the page's releases as recommendations' cards, each with when it came and, for the fan alone, whether
-- they hid it. Released releases of artists not banned alone. Others read nothing of a list the fan keeps
-- off their page, nor a release they hid, nor anything of a banned fan's; the fan reads all of theirs.
-- Definer: purchases are their buyers' and wishlists their fans' to read.
create or replace function private.fan_shelf(fan_id uuid, shelf text, page integer, page_size integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with banned as materialized (select private.banned_accounts() as ids),
  owner as (
    select p.id, p.id = (select auth.uid()) as own,
      case fan_shelf.shelf when 'collection' then p.show_collection else p.show_wishlist end as shown
    from public.fan_profiles p cross join banned
    where p.id = fan_shelf.fan_id and (p.id = (select auth.uid()) or p.id <> all (banned.ids))
  ),
  listed as (
    select t.release_id, max(p.created_at) as at
    from owner o
    join public.purchases p on p.user_id = o.id
    join public.tracks t on t.id = p.track_id
    where fan_shelf.shelf = 'collection' and (o.own or o.shown)
    group by t.release_id
    union all
    select w.release_id, w.created_at
    from owner o
    join public.wishlist w on w.fan_id = o.id
    where fan_shelf.shelf = 'wishlist' and (o.own or o.shown)
  ),
  shown as (
    select l.release_id, l.at,
      fan_shelf.shelf = 'collection' and exists (
        select 1 from public.hidden_purchases h where h.fan_id = o.id and h.release_id = l.release_id) as hidden
    from listed l cross join owner o cross join banned
    where private.is_released(l.release_id, banned.ids)
  ),
  visible as (select s.* from shown s cross join owner o where o.own or not s.hidden),
  paging as (
    select least(greatest(coalesce(fan_shelf.page_size, 48), 1), 48) as size,
      least(greatest(coalesce(fan_shelf.page, 1), 1), 1000) as page
  )
  select jsonb_build_object(
    'count', (select count(*) from visible),
    'releases', coalesce((
      select jsonb_agg(private.release_card(v.release_id)
          || jsonb_build_object('added_at', v.at, 'hidden', v.hidden)
        order by v.at desc, v.release_id)
      from (
        select v.*, row_number() over (order by v.at desc, v.release_id) as place from visible v
      ) v
      cross join paging g
      where v.place > (g.page - 1) * g.size and v.place <= g.page * g.size), '[]'))
$$;

revoke execute on function private.fan_shelf(uuid, text, integer, integer) from public;

grant execute on function private.fan_shelf(uuid, text, integer, integer) to anon, authenticated;

-- A release page's "supported by": the fans who bought `release_id` (or, on a track's page, `track_id`
-- or its release) in a paid order not refunded, the newest buyer first, at most 20, with how many more.
-- A download code is no purchase here, and a gift (an order line bought by its giver) shows its giver.
-- Never a fan who hid that purchase or their collection, a banned one, or an account without a fan's
-- page; nothing for a release a visitor may not see (but to its artist). Read by each line's item
-- (order_lines_sold_item_idx) and each order by its key; definer: orders are their buyers' to read.
create or replace function private.supported_by(release_id uuid, track_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with banned as materialized (select private.banned_accounts() as ids),
  this as (
    select r.id from public.releases r cross join banned
    where r.id = coalesce(supported_by.release_id, (select t.release_id from public.tracks t where t.id = supported_by.track_id))
      and (private.is_released(r.id, banned.ids) or r.artist_id = (select auth.uid()))
  ),
  sold as (
    select this.id as item_id, 'album' as kind from this
    union all
    select t.id, 'track' from this join public.tracks t on t.release_id = this.id
    where supported_by.track_id is null or t.id = supported_by.track_id
  ),
  buyers as (
    select o.buyer_id, max(o.paid_at) as at
    from sold s
    join public.order_lines l on l.item_id = s.item_id and l.kind = s.kind and l.refunded_at is null
    join public.orders o on o.id = l.order_id
    where o.state = 'paid' and o.buyer_id is not null
    group by o.buyer_id
  ),
  supporters as (
    select b.buyer_id, b.at, f.username, f.profile_image_url
    from buyers b
    join public.fan_profiles f on f.id = b.buyer_id
    cross join this cross join banned
    where b.buyer_id <> all (banned.ids)
      and not private.purchase_hidden(b.buyer_id, this.id)
  )
  select jsonb_build_object(
    'fans', coalesce((
      select jsonb_agg(jsonb_build_object('id', s.buyer_id, 'username', s.username, 'profile_image_url', s.profile_image_url)
        order by s.at desc, s.buyer_id)
      from (select * from supporters order by at desc, buyer_id limit 20) s), '[]'),
    'more', greatest((select count(*) from supporters) - 20, 0))
$$;

revoke execute on function private.supported_by(uuid, uuid) from public;

grant execute on function private.supported_by(uuid, uuid) to anon, authenticated;

create or replace function public.supported_by(release_id uuid default null, track_id uuid default null)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.supported_by(supported_by.release_id, supported_by.track_id)
$$;

revoke execute on function public.supported_by(uuid, uuid) from public;

grant execute on function public.supported_by(uuid, uuid) to anon, authenticated;

-- What sold an item and was not refunded, for "supported by": its lines by item, each with its order.
create index order_lines_sold_item_idx on public.order_lines (item_id, order_id) where refunded_at is null;
