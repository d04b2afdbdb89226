-- Notifications in the site (the header's bell, /notifications, live through Realtime), written by
-- triggers as things happen (a reply, a follower, a sale, merch sent) and by the announcement job
-- (19_announcements.sql), and comments' replies, which they speak of.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- What a user is told in the site. Written by the database alone (triggers and the announcement job), read
-- and marked read by its user; kept 90 days (private.forget_old_notifications, the hourly job). What it
-- speaks of is named by id and read as it is now, so a deleted release or comment takes its notice along.
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- release: a new release from an artist the user follows or bought from; reply: a reply to the user's
  -- comment; sale, follower and member (a fan joined one of their membership tiers): the artist's; shipped:
  -- merch the user bought is on its way; moved: a release the user pre-ordered has a new day (read from the
  -- release as it is now).
  kind text not null check (kind in ('release', 'reply', 'sale', 'follower', 'shipped', 'moved', 'member')),
  release_id uuid references public.releases (id) on delete cascade,
  comment_id uuid references public.comments (id) on delete cascade,
  order_id uuid references public.orders (id) on delete cascade,
  order_line_id uuid references public.order_lines (id) on delete cascade,
  -- Who did it: the new follower or member, the one who replied.
  actor_id uuid references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  constraint notifications_names_what check (case kind
    when 'release' then release_id is not null
    when 'moved' then release_id is not null
    when 'reply' then comment_id is not null and actor_id is not null
    when 'sale' then order_id is not null
    when 'follower' then actor_id is not null
    when 'shipped' then order_line_id is not null
    when 'member' then actor_id is not null
  end)
);

alter table public.notifications enable row level security;

-- The bell's list and count: a user's newest, and their unread.
create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);

create index notifications_unread_idx on public.notifications (user_id) where read_at is null;

-- Once each: a release per user, a follower per artist (unfollowing and following again tells nothing new),
-- a sale per artist and order, a shipment per line.
create unique index notifications_release_once on public.notifications (user_id, release_id) where kind = 'release';

create unique index notifications_follower_once on public.notifications (user_id, actor_id) where kind = 'follower';

create unique index notifications_sale_once on public.notifications (user_id, order_id) where kind = 'sale';

create unique index notifications_shipped_once on public.notifications (order_line_id) where kind = 'shipped';

-- What deletes cascade through, and the 90 days' sweep.
create index notifications_release_id_idx on public.notifications (release_id) where release_id is not null;

create index notifications_comment_id_idx on public.notifications (comment_id) where comment_id is not null;

create index notifications_order_id_idx on public.notifications (order_id) where order_id is not null;

create index notifications_actor_id_idx on public.notifications (actor_id) where actor_id is not null;

create index notifications_created_at_idx on public.notifications (created_at);

revoke all on public.notifications from anon, authenticated;

-- Every column but the order's id: a sale's notice names the artist's lines of it, never the order (its id
-- is the buyer's business, and led once to a guest's receipt).
grant select (id, user_id, kind, release_id, comment_id, order_line_id, actor_id, created_at, read_at), update (read_at)
  on public.notifications to authenticated;

create policy "Users read their own notifications" on public.notifications
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users mark their own notifications read" on public.notifications
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

alter publication supabase_realtime add table public.notifications;

-- How long notices are kept.
create or replace function private.notification_days()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 90
$$;

-- A reply names the comment it answers (the track page's Reply); a reply to a comment deleted since
-- stands alone.
alter table public.comments add column reply_to uuid references public.comments (id) on delete set null;

create index comments_reply_to_idx on public.comments (reply_to) where reply_to is not null;

grant insert (reply_to) on public.comments to authenticated;

-- What the track page shows of its comments: each with its author's public name and picture (artist
-- name or fan username), and for a reply the name of whom it answers, in one read. security_invoker: the
-- comments policies still decide which rows a reader sees (those on tracks they can see, by authors not
-- banned), the answered comment's included, so a reply to a banned user's comment names nobody.
-- (Here, not with the comments in 05_fan.sql: a view names its columns as it is made, reply_to included.)
create view public.track_comments with (security_invoker = true) as
select
  c.id,
  c.track_id,
  c.user_id,
  c.content,
  c.created_at,
  coalesce(a.artist_name, f.username) as author_name,
  coalesce(a.profile_image_url, f.profile_image_url) as author_image_url,
  -- Which public page the author has, if any: artist pages and fan pages live at different paths.
  case when a.id is not null then 'artist' when f.id is not null then 'fan' end as author_kind,
  -- The answered comment's author as a reader may see them ("in reply to …"), with their page.
  r.user_id as reply_to_user_id,
  coalesce(ra.artist_name, rf.username) as reply_to_name,
  case when ra.id is not null then 'artist' when rf.id is not null then 'fan' end as reply_to_kind
from public.comments c
left join public.artist_profiles a on a.id = c.user_id
left join public.fan_profiles f on f.id = c.user_id
left join public.comments r on r.id = c.reply_to
left join public.artist_profiles ra on ra.id = r.user_id
left join public.fan_profiles rf on rf.id = r.user_id;

revoke all on public.track_comments from anon, authenticated;

grant select on public.track_comments to anon, authenticated;

-- A reply answers a comment on the same track (a trigger: a check constraint cannot read another row).
create or replace function private.reply_on_its_track()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.reply_to is not null
    and not exists (select 1 from public.comments c where c.id = new.reply_to and c.track_id = new.track_id) then
    raise exception 'a reply answers a comment on its own track'
      using errcode = 'check_violation', constraint = 'comments_reply_on_its_track';
  end if;
  return new;
end
$$;

revoke execute on function private.reply_on_its_track() from public;

create trigger comments_reply_on_its_track
  before insert or update of reply_to, track_id on public.comments
  for each row execute function private.reply_on_its_track();

-- The notices the database writes as things happen. Definer: nobody writes notifications through the API.
create or replace function private.notify_reply()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, comment_id, actor_id)
  select c.user_id, 'reply', new.id, new.user_id
  from public.comments c
  where c.id = new.reply_to and c.user_id <> new.user_id;
  return null;
end
$$;

revoke execute on function private.notify_reply() from public;

create trigger comments_notify_reply
  after insert on public.comments
  for each row when (new.reply_to is not null) execute function private.notify_reply();

create or replace function private.notify_follower()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, actor_id) values (new.artist_id, 'follower', new.fan_id)
  on conflict do nothing;
  return null;
end
$$;

revoke execute on function private.notify_follower() from public;

create trigger followers_notify_artist
  after insert on public.followers
  for each row execute function private.notify_follower();

-- Each artist of an order that is paid hears of their sale once.
create or replace function private.notify_sale()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, order_id)
  select distinct l.artist_id, 'sale', new.id from public.order_lines l where l.order_id = new.id
  on conflict do nothing;
  return null;
end
$$;

revoke execute on function private.notify_sale() from public;

create trigger orders_notify_sale
  after update of state on public.orders
  for each row when (new.state = 'paid' and old.state is distinct from 'paid') execute function private.notify_sale();

create or replace function private.notify_shipped()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, order_id, order_line_id)
  select o.buyer_id, 'shipped', o.id, new.id from public.orders o where o.id = new.order_id and o.buyer_id is not null
  on conflict do nothing;
  return null;
end
$$;

revoke execute on function private.notify_shipped() from public;

create trigger order_lines_notify_shipped
  after update of shipped_at on public.order_lines
  for each row when (new.shipped_at is not null and old.shipped_at is null) execute function private.notify_shipped();

-- The bell's page: the caller's notices of the last 90 days, newest first (`before`: the page's last
-- one's time, for the next page), each with what it speaks of as it is now, and whether it was unread.
-- Reading them marks them read (seen is read), in the same call. At most 50 a page. Definer, so an
-- artist's sale names its order's currency; it reads the caller's rows alone, and a release or comment
-- only while a visitor could see it (released or on pre-order, its author not banned).
create or replace function private.read_notifications(before timestamptz, max_count integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  banned uuid[] := private.banned_accounts();
  page jsonb;
begin
  with shown as (
    select n.* from public.notifications n
    where n.user_id = me
      and n.created_at > now() - make_interval(days => private.notification_days())
      and (read_notifications.before is null or n.created_at < read_notifications.before)
    order by n.created_at desc, n.id
    limit least(greatest(coalesce(read_notifications.max_count, 30), 1), 50)
  )
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', s.id, 'kind', s.kind, 'created_at', s.created_at, 'unread', s.read_at is null,
      -- (a pre-order's too, before its day, with the day it comes: a "moved" notice names it)
      'release', (select jsonb_build_object('id', r.id, 'kind', r.kind, 'title', r.title, 'artist_id', r.artist_id,
          'artist_name', a.artist_name,
          'release_date', (select max(t.release_date) from public.tracks t where t.release_id = r.id))
        from public.releases r join public.artist_profiles a on a.id = r.artist_id
        where r.id = s.release_id and a.id <> all (banned)
          and (r.id = any (private.preorder_releases())
            or exists (select 1 from public.tracks t where t.release_id = r.id and t.release_date <= current_date))),
      'comment', (select jsonb_build_object('id', c.id, 'track_id', c.track_id, 'track_title', t.title,
          'content', left(c.content, 200))
        from public.comments c join public.tracks t on t.id = c.track_id
        where c.id = s.comment_id and c.user_id <> all (banned)),
      'actor', case when s.actor_id <> all (banned) then coalesce(
        (select a.artist_name from public.artist_profiles a where a.id = s.actor_id),
        (select f.username from public.fan_profiles f where f.id = s.actor_id)) end,
      'actor_id', s.actor_id,
      'actor_is_artist', exists (select 1 from public.artist_profiles a where a.id = s.actor_id),
      'order', (select jsonb_build_object('currency', o.currency,
          'items', (select jsonb_agg(l.title order by l.title) from public.order_lines l
            where l.order_id = o.id
              and case s.kind when 'sale' then l.artist_id = me else l.id = s.order_line_id end),
          'share', (select sum(l.artist_share_cents) from public.order_lines l
            where l.order_id = o.id and s.kind = 'sale' and l.artist_id = me),
          -- A sale bought as a gift says so.
          'gift', s.kind = 'sale' and exists (select 1 from public.order_lines l join public.gifts g on g.order_line_id = l.id
            where l.order_id = o.id and l.artist_id = me))
        from public.orders o where o.id = s.order_id))
    order by s.created_at desc, s.id), '[]')
  into page
  from shown s;
  update public.notifications n set read_at = now()
  where n.user_id = me and n.read_at is null
    and n.id in (select (item ->> 'id')::uuid from jsonb_array_elements(page) item);
  return page;
end
$$;

revoke execute on function private.read_notifications(timestamptz, integer) from public, anon;

grant execute on function private.read_notifications(timestamptz, integer) to authenticated;

create or replace function public.read_notifications(before timestamptz default null, max_count integer default 30)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.read_notifications(read_notifications.before, read_notifications.max_count)
$$;

revoke execute on function public.read_notifications(timestamptz, integer) from public, anon;

grant execute on function public.read_notifications(timestamptz, integer) to authenticated;

-- Notices older than 90 days go (the hourly job), a bounded batch a call. Answers how many went.
create or replace function private.forget_old_notifications()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  gone integer;
begin
  delete from public.notifications n
  where n.id in (select o.id from public.notifications o
    where o.created_at < now() - make_interval(days => private.notification_days()) limit 10000);
  get diagnostics gone = row_count;
  return gone;
end
$$;

revoke execute on function private.forget_old_notifications() from public, anon, authenticated;
