-- Telling people what happened: notifications in the site (the header's bell, /notifications, live through
-- Realtime), each user's email settings, release announcements (made once per release on its date) and
-- the mail they become (one message per recipient per run, or a weekly digest), unsubscribing without an
-- account (a signed link: the Worker checks it, the database keeps the choice), and an artist's newsletter
-- signups. Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- What a user is told in the site. Written by the database alone (triggers and the announcement job), read
-- and marked read by its user; kept 90 days (private.forget_old_notifications, the hourly job). What it
-- speaks of is named by id and read as it is now, so a deleted release or comment takes its notice along.
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- release: a new release from an artist the user follows or bought from; reply: a reply to the user's
  -- comment; sale and follower: the artist's; shipped: merch the user bought is on its way.
  kind text not null check (kind in ('release', 'reply', 'sale', 'follower', 'shipped')),
  release_id uuid references public.releases (id) on delete cascade,
  comment_id uuid references public.comments (id) on delete cascade,
  order_id uuid references public.orders (id) on delete cascade,
  order_line_id uuid references public.order_lines (id) on delete cascade,
  -- Who did it: the new follower, the one who replied.
  actor_id uuid references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  constraint notifications_names_what check (case kind
    when 'release' then release_id is not null
    when 'reply' then comment_id is not null and actor_id is not null
    when 'sale' then order_id is not null
    when 'follower' then actor_id is not null
    when 'shipped' then order_line_id is not null
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
-- only while a visitor could see it (released, its author not banned).
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
      'release', (select jsonb_build_object('id', r.id, 'kind', r.kind, 'title', r.title, 'artist_id', r.artist_id,
          'artist_name', a.artist_name)
        from public.releases r join public.artist_profiles a on a.id = r.artist_id
        where r.id = s.release_id and a.id <> all (banned)
          and exists (select 1 from public.tracks t where t.release_id = r.id and t.release_date <= current_date)),
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
            where l.order_id = o.id and s.kind = 'sale' and l.artist_id = me))
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

-- What mail a user wants: release announcements on or off, at once or as a weekly digest; an artist's
-- "you sold" on or off. No row: everything on, at once. Each user reads and writes their own.
create table public.email_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  release_emails boolean not null default true,
  release_digest text not null default 'immediate' check (release_digest in ('immediate', 'weekly')),
  sale_emails boolean not null default true
);

alter table public.email_settings enable row level security;

revoke all on public.email_settings from anon, authenticated;

grant select, insert (release_emails, release_digest, sale_emails), update (release_emails, release_digest, sale_emails)
  on public.email_settings to authenticated;

create policy "Users read their own email settings" on public.email_settings
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users write their own email settings" on public.email_settings
  for insert to authenticated with check (user_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users change their own email settings" on public.email_settings
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()) and (select private.is_active_user()));

-- Saving the settings form: the caller's row, made or changed (as the caller: the policies above decide).
create or replace function public.save_email_settings(release_emails boolean, release_digest text, sale_emails boolean)
returns void
language sql
security invoker
set search_path = ''
as $$
  insert into public.email_settings (release_emails, release_digest, sale_emails)
  values (save_email_settings.release_emails, save_email_settings.release_digest, save_email_settings.sale_emails)
  on conflict (user_id) do update
  set release_emails = excluded.release_emails, release_digest = excluded.release_digest, sale_emails = excluded.sale_emails
$$;

revoke execute on function public.save_email_settings(boolean, text, boolean) from public, anon;

grant execute on function public.save_email_settings(boolean, text, boolean) to authenticated;

-- Addresses that asked for no more release mail: from one artist, or (artist_id null) from anyone. Written
-- by the marketplace when a signed unsubscribe link or its one-click POST comes back (the Worker checks the
-- signature); an address needs no account. Read by the announcement job alone.
create table private.unsubscribes (
  email text not null check (email = lower(email) and private.is_email(email)),
  artist_id uuid references public.artist_profiles (id) on delete cascade,
  created_at timestamptz not null default now()
);

create unique index unsubscribes_email_artist_once on private.unsubscribes (email, coalesce(artist_id, '00000000-0000-0000-0000-000000000000'));

create index unsubscribes_artist_id_idx on private.unsubscribes (artist_id) where artist_id is not null;

revoke all on table private.unsubscribes from public, anon, authenticated;

-- Whether `email` still takes release mail from `artist_id`.
create or replace function private.takes_release_mail(email text, artist_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select not exists (
    select 1 from private.unsubscribes u
    where u.email = lower(takes_release_mail.email)
      and (u.artist_id is null or u.artist_id = takes_release_mail.artist_id))
$$;

revoke execute on function private.takes_release_mail(text, uuid) from public, anon, authenticated;

-- An unsubscribe link's choice, through the marketplace alone (it checked the link's signature): `email`
-- leaves `artist_id`'s release mail (null: everyone's), or (`subscribed` true) takes it again. Answers the
-- artist's name (null for everyone), or raises P0002 for an artist that is not there.
create or replace function private.set_release_mail(email text, artist_id uuid, subscribed boolean)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  address text := lower(set_release_mail.email);
  artist_name text;
begin
  perform private.require_marketplace_request();
  if set_release_mail.artist_id is not null then
    select a.artist_name into artist_name from public.artist_profiles a where a.id = set_release_mail.artist_id;
    if not found then
      raise exception 'no artist has this id' using errcode = 'P0002';
    end if;
  end if;
  if set_release_mail.subscribed then
    delete from private.unsubscribes u
    where u.email = address and u.artist_id is not distinct from set_release_mail.artist_id;
  else
    insert into private.unsubscribes (email, artist_id) values (address, set_release_mail.artist_id)
    on conflict do nothing;
  end if;
  return artist_name;
end
$$;

revoke execute on function private.set_release_mail(text, uuid, boolean) from public;

grant execute on function private.set_release_mail(text, uuid, boolean) to anon, authenticated;

create or replace function public.set_release_mail(email text, subscribed boolean, artist_id uuid default null)
returns text
language sql
security invoker
set search_path = ''
as $$
  select private.set_release_mail(set_release_mail.email, set_release_mail.artist_id, set_release_mail.subscribed)
$$;

revoke execute on function public.set_release_mail(text, boolean, uuid) from public;

grant execute on function public.set_release_mail(text, boolean, uuid) to anon, authenticated;

-- What an unsubscribe link's page shows, through the marketplace alone (it checked the link's signature):
-- the artist's name (null for everyone's), and whether `email` left that mail already (the link was used,
-- or its one-click POST). Raises P0002 for an artist that is not there.
create or replace function private.release_mail_choice(email text, artist_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  artist_name text;
begin
  perform private.require_marketplace_request();
  if release_mail_choice.artist_id is not null then
    select a.artist_name into artist_name from public.artist_profiles a where a.id = release_mail_choice.artist_id;
    if not found then
      raise exception 'no artist has this id' using errcode = 'P0002';
    end if;
  end if;
  return jsonb_build_object('artist_name', artist_name, 'unsubscribed', exists (select 1 from private.unsubscribes u
    where u.email = lower(release_mail_choice.email) and u.artist_id is not distinct from release_mail_choice.artist_id));
end
$$;

revoke execute on function private.release_mail_choice(text, uuid) from public;

grant execute on function private.release_mail_choice(text, uuid) to anon, authenticated;

create or replace function public.release_mail_choice(email text, artist_id uuid default null)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.release_mail_choice(release_mail_choice.email, release_mail_choice.artist_id)
$$;

revoke execute on function public.release_mail_choice(text, uuid) from public;

grant execute on function public.release_mail_choice(text, uuid) to anon, authenticated;

-- Addresses that signed up on an artist's page for their news (the newsletter form). Anyone may sign up an
-- address, through the marketplace and within the limits below, but an address takes the artist's release
-- mail only once confirmed, by the link in the confirmation mail the signup sends (its own inbox's word).
-- The artist reads their own list (the CSV: pending until confirmed) and nobody else does. An address that
-- unsubscribed stays listed, marked so in the CSV, and gets no mail until it confirms a signup again.
create table public.newsletter_signups (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  email text not null check (email = lower(email) and private.is_email(email) and char_length(email) <= 254),
  created_at timestamptz not null default now(),
  -- When the address last confirmed (null: pending, no release mail).
  confirmed_at timestamptz,
  constraint newsletter_signups_once unique (artist_id, email)
);

alter table public.newsletter_signups enable row level security;

create index newsletter_signups_artist_id_created_at_idx on public.newsletter_signups (artist_id, created_at desc);

revoke all on public.newsletter_signups from anon, authenticated;

grant select on public.newsletter_signups to authenticated;

create policy "Artists read their own newsletter signups" on public.newsletter_signups
  for select to authenticated using (artist_id = (select auth.uid()));

-- Signups asked for in the last day, by address and by the client that asked (as the marketplace saw it):
-- what the limits count, so nobody signs an address up again and again or floods addresses from one place.
create table private.newsletter_requests (
  email text not null,
  client text not null,
  created_at timestamptz not null default now()
);

create index newsletter_requests_email_idx on private.newsletter_requests (email, created_at desc);

create index newsletter_requests_client_idx on private.newsletter_requests (client, created_at desc);

create index newsletter_requests_created_at_idx on private.newsletter_requests (created_at);

revoke all on table private.newsletter_requests from public, anon, authenticated;

-- Signing up an address for an artist's news, through the marketplace alone (it queues the mail, and says
-- which client asked: `client`). At most 5 signups an address a day and 20 a client an hour, whatever the
-- artist, each counted whether or not a mail goes (54000 beyond them, hint `address` or `client`). The
-- address is listed pending and sent a confirmation mail, whose id this answers; an address already
-- confirmed and not unsubscribed from the artist is sent nothing (null). Either way the form says the same,
-- so it tells nothing of who signed up, and a signup alone never undoes an unsubscribe. Raises P0002 for
-- an artist that is not there or is banned.
create or replace function private.newsletter_signup(artist_id uuid, email text, client text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  address text := lower(btrim(newsletter_signup.email));
  asking text := coalesce(nullif(btrim(newsletter_signup.client), ''), 'unknown');
  signup public.newsletter_signups;
  made uuid;
begin
  perform private.require_marketplace_request();
  if not exists (select 1 from public.artist_profiles a
      where a.id = newsletter_signup.artist_id and a.id <> all (private.banned_accounts())) then
    raise exception 'no artist has this id' using errcode = 'P0002';
  end if;
  -- One signup at a time, so two at once cannot both slip under a limit.
  perform pg_advisory_xact_lock(hashtext('newsletter requests'));
  delete from private.newsletter_requests r where r.created_at < now() - interval '1 day';
  if (select count(*) from private.newsletter_requests r where r.email = address) >= 5 then
    raise exception 'at most 5 signups an address a day' using errcode = '54000', hint = 'address';
  end if;
  if (select count(*) from private.newsletter_requests r
      where r.client = asking and r.created_at > now() - interval '1 hour') >= 20 then
    raise exception 'at most 20 signups a client an hour' using errcode = '54000', hint = 'client';
  end if;
  insert into public.newsletter_signups (artist_id, email) values (newsletter_signup.artist_id, address)
  on conflict do nothing;
  -- After the row (its checks refuse what is not an address), so a refused one is not counted.
  insert into private.newsletter_requests (email, client) values (address, asking);
  select * into signup from public.newsletter_signups s where s.artist_id = newsletter_signup.artist_id and s.email = address;
  if signup.confirmed_at is not null and not exists (select 1 from private.unsubscribes u
      where u.email = address and u.artist_id = newsletter_signup.artist_id) then
    return null;
  end if;
  -- Stamped with the moment itself (a link is used once the address confirmed after its mail was made).
  insert into private.mails (kind, recipient, artist_id, created_at)
  values ('newsletter_signup', address, newsletter_signup.artist_id, clock_timestamp())
  returning id into made;
  return made;
end
$$;

revoke execute on function private.newsletter_signup(uuid, text, text) from public;

grant execute on function private.newsletter_signup(uuid, text, text) to anon, authenticated;

create or replace function public.newsletter_signup(artist_id uuid, email text, client text default null)
returns uuid
language sql
security invoker
set search_path = ''
as $$
  select private.newsletter_signup(newsletter_signup.artist_id, newsletter_signup.email, newsletter_signup.client)
$$;

revoke execute on function public.newsletter_signup(uuid, text, text) from public;

grant execute on function public.newsletter_signup(uuid, text, text) to anon, authenticated;

-- A confirmation link (the mail `mail_id`; the marketplace checked its signature), through the marketplace
-- alone: `confirm` false reads it (the page the link opens, which mail scanners may fetch), true confirms:
-- the address takes the artist's release mail from now, an unsubscribe from that artist undone by its
-- own word. Answers {email, artist_name, state}: `pending` (read, not used yet), `confirmed` (this call
-- confirmed), `used` (the address confirmed since this mail was made, by it or a later one); null for a
-- mail that is no signup's confirmation.
create or replace function private.newsletter_confirmation(mail_id uuid, confirm boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  mail private.mails;
  signup public.newsletter_signups;
  state text;
begin
  perform private.require_marketplace_request();
  select * into mail from private.mails m where m.id = newsletter_confirmation.mail_id and m.kind = 'newsletter_signup';
  if not found then
    return null;
  end if;
  select * into signup from public.newsletter_signups s
  where s.artist_id = mail.artist_id and s.email = mail.recipient
  for update;
  if not found then
    return null;
  end if;
  if signup.confirmed_at >= mail.created_at then
    state := 'used';
  elsif newsletter_confirmation.confirm then
    update public.newsletter_signups s set confirmed_at = clock_timestamp() where s.id = signup.id;
    delete from private.unsubscribes u where u.email = mail.recipient and u.artist_id = mail.artist_id;
    state := 'confirmed';
  else
    state := 'pending';
  end if;
  return (select jsonb_build_object('email', mail.recipient, 'artist_name', a.artist_name, 'state', state)
    from public.artist_profiles a where a.id = mail.artist_id);
end
$$;

revoke execute on function private.newsletter_confirmation(uuid, boolean) from public;

grant execute on function private.newsletter_confirmation(uuid, boolean) to anon, authenticated;

create or replace function public.newsletter_confirmation(mail_id uuid, confirm boolean default false)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.newsletter_confirmation(newsletter_confirmation.mail_id, newsletter_confirmation.confirm)
$$;

revoke execute on function public.newsletter_confirmation(uuid, boolean) from public;

grant execute on function public.newsletter_confirmation(uuid, boolean) to anon, authenticated;

-- The artist's signups for the CSV, newest first: whether each confirmed, and still takes their mail.
create or replace function public.newsletter_export()
returns table (email text, signed_up_at timestamptz, subscribed boolean, confirmed boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select s.email, s.created_at, private.takes_release_mail(s.email, s.artist_id), s.confirmed_at is not null
  from public.newsletter_signups s
  where s.artist_id = (select auth.uid())
  order by s.created_at desc, s.email
$$;

revoke execute on function public.newsletter_export() from public, anon;

grant execute on function public.newsletter_export() to authenticated;

grant execute on function private.takes_release_mail(text, uuid) to authenticated;

-- Each release's announcement: written when the release is made (waiting), done once on its date by the
-- announcement job. Releases older than this table are never announced. A release withdrawn (deleted)
-- takes its row along; one whose artist is banned on its date is closed unannounced.
create table private.release_announcements (
  release_id uuid primary key references public.releases (id) on delete cascade,
  created_at timestamptz not null default now(),
  announced_at timestamptz,
  -- How many users were told in the site, and how many addresses got (or will get) mail, so far.
  notified integer not null default 0,
  mailed integer not null default 0,
  -- A big audience is told over several calls, in the order of its accounts' ids and then of its signups'
  -- addresses: where the last call stopped.
  users_after uuid,
  signups_after text
);

create index release_announcements_waiting_idx on private.release_announcements (created_at) where announced_at is null;

revoke all on table private.release_announcements from public, anon, authenticated;

create or replace function private.wait_to_announce()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.release_announcements (release_id) values (new.id);
  return null;
end
$$;

revoke execute on function private.wait_to_announce() from public;

create trigger releases_wait_to_announce
  after insert on public.releases
  for each row execute function private.wait_to_announce();

-- One address's part of an announcement: the release it is told of, sent in the mail that names it
-- (null until a mail takes it). Once per release and address, so a job run again adds nothing.
create table private.announcement_items (
  id uuid primary key default gen_random_uuid(),
  release_id uuid not null references public.releases (id) on delete cascade,
  email text not null check (email = lower(email)),
  -- The account behind the address, whose settings decide when mail goes (none for a newsletter signup).
  user_id uuid references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  mail_id uuid references private.mails (id) on delete set null,
  constraint announcement_items_once unique (release_id, email)
);

create index announcement_items_waiting_idx on private.announcement_items (email, created_at) where mail_id is null;

create index announcement_items_mail_id_idx on private.announcement_items (mail_id) where mail_id is not null;

create index announcement_items_user_id_idx on private.announcement_items (user_id) where user_id is not null;

revoke all on table private.announcement_items from public, anon, authenticated;

-- The announcement job, through the marketplace alone: every waiting release whose date has come (a track
-- of it is released), oldest first. Each tells its artist's followers and account buyers in the site, and
-- queues mail to them and to the artist's confirmed newsletter signups, for every address that takes the
-- artist's release mail (not unsubscribed, the account's setting on, not banned). A call tells at most
-- 2,500 of them in all, so it ends well within the API's statement timeout (3 s for the marketplace's
-- role) however big an audience is: a release's audience is told in slices (by account id, then by signup address), the
-- place reached kept with the release, and the release is announced once its last slice is told. All of a
-- call is one transaction, so a run stopped half way did nothing, and two at once take different releases
-- (skip locked); notices and mail items are unique per release and person, so nothing is told twice.
-- Then it groups waiting mail (private.queue_release_mails), and forgets notices past their 90 days.
-- Answers {announced, mails, more}: the releases announced, the mails to queue, and whether releases are
-- still due (the job calls again).
create or replace function private.announce_releases(max_releases integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  due record;
  banned uuid[] := private.banned_accounts();
  budget integer := 2500;
  taken integer;
  last_user uuid;
  last_signup text;
  told_count integer;
  mailed_count integer;
  more boolean := false;
  announced uuid[] := '{}';
begin
  perform private.require_marketplace_request();
  perform private.forget_old_notifications();
  -- An album's buyers get its tracks whose day has come, before the day's release mail tells them.
  perform private.give_released_album_tracks();
  for due in
    select w.release_id, w.users_after, w.signups_after, r.artist_id
    from private.release_announcements w
    join public.releases r on r.id = w.release_id
    where w.announced_at is null
      and exists (select 1 from public.tracks t where t.release_id = w.release_id and t.release_date <= current_date)
    order by w.created_at, w.release_id
    limit greatest(coalesce(max_releases, 50), 1)
    for update of w skip locked
  loop
    if budget <= 0 then
      more := true;
      exit;
    end if;
    if due.artist_id = any (banned) then
      update private.release_announcements set announced_at = now() where release_id = due.release_id;
      continue;
    end if;
    -- The next slice of accounts: followers and buyers, by id.
    if due.signups_after is null then
      with slice as materialized (
        select a.user_id from (
          select f.fan_id as user_id from public.followers f
          where f.artist_id = due.artist_id and f.fan_id > coalesce(due.users_after, '00000000-0000-0000-0000-000000000000')
          union
          select p.user_id from public.purchases p
          where p.artist_id = due.artist_id and p.user_id > coalesce(due.users_after, '00000000-0000-0000-0000-000000000000')
        ) a
        order by a.user_id
        limit budget
      ),
      told as (
        insert into public.notifications (user_id, kind, release_id)
        select c.user_id, 'release', due.release_id from slice c
        where c.user_id <> due.artist_id and c.user_id <> all (banned)
        on conflict do nothing
        returning 1
      ),
      mailed as (
        insert into private.announcement_items (release_id, email, user_id)
        select distinct on (lower(u.email)) due.release_id, lower(u.email), u.id
        from slice c
        join auth.users u on u.id = c.user_id
        left join public.email_settings s on s.user_id = u.id
        where u.id <> due.artist_id and u.id <> all (banned) and private.is_email(u.email) and coalesce(s.release_emails, true)
          and not exists (select 1 from private.unsubscribes x
            where x.email = lower(u.email) and (x.artist_id is null or x.artist_id = due.artist_id))
        order by lower(u.email)
        on conflict do nothing
        returning 1
      )
      select (select count(*) from slice), (select max(c.user_id::text)::uuid from slice c),
        (select count(*) from told), (select count(*) from mailed)
      into taken, last_user, told_count, mailed_count;
      budget := budget - taken;
      update private.release_announcements w
      set notified = w.notified + told_count, mailed = w.mailed + mailed_count, users_after = coalesce(last_user, w.users_after),
        signups_after = case when budget > 0 then '' end
      where w.release_id = due.release_id;
      if budget <= 0 then
        more := true;
        exit;
      end if;
      due.signups_after := '';
    end if;
    -- Then the confirmed signups, by address (an account's address had its mail, or its choice, above).
    with slice as materialized (
      select n.email from public.newsletter_signups n
      where n.artist_id = due.artist_id and n.email > due.signups_after and n.confirmed_at is not null
      order by n.email
      limit budget
    ),
    mailed as (
      insert into private.announcement_items (release_id, email)
      select due.release_id, c.email from slice c
      where not exists (select 1 from private.unsubscribes x
          where x.email = c.email and (x.artist_id is null or x.artist_id = due.artist_id))
        and not exists (select 1 from auth.users u join public.email_settings s on s.user_id = u.id
          where u.email = c.email and not s.release_emails)
      on conflict do nothing
      returning 1
    )
    select (select count(*) from slice), (select max(c.email) from slice c), (select count(*) from mailed)
    into taken, last_signup, mailed_count;
    budget := budget - taken;
    if budget <= 0 then
      update private.release_announcements w
      set mailed = w.mailed + mailed_count, signups_after = coalesce(last_signup, w.signups_after)
      where w.release_id = due.release_id;
      more := true;
      exit;
    end if;
    update private.release_announcements w set mailed = w.mailed + mailed_count, announced_at = now()
    where w.release_id = due.release_id;
    announced := announced || due.release_id;
  end loop;
  return jsonb_build_object('announced', to_jsonb(announced), 'mails', to_jsonb(private.queue_release_mails()),
    'more', more or cardinality(announced) >= greatest(coalesce(max_releases, 50), 1));
end
$$;

revoke execute on function private.announce_releases(integer) from public;

grant execute on function private.announce_releases(integer) to anon, authenticated;

create or replace function public.announce_releases(max_releases integer default 50)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.announce_releases(announce_releases.max_releases)
$$;

revoke execute on function public.announce_releases(integer) from public;

grant execute on function public.announce_releases(integer) to anon, authenticated;

-- Groups waiting announcement items into mails: one message for all of an address's waiting releases,
-- once its time has come. At once: when no release mail went to the address in the last hour (so a fan
-- whose 200 artists release within the hour gets at most two messages, the second a digest). Weekly: a
-- week after its last release mail, or after its oldest waiting item when none went yet. Answers the mails
-- made, for the Worker to queue; items whose release was withdrawn since went with it.
create or replace function private.queue_release_mails()
returns uuid[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  made uuid[];
begin
  with waiting as (
    -- An address's items name its account, if any, whose setting decides (a signup alone: at once).
    select i.email, min(i.created_at) as oldest, coalesce(max(s.release_digest), 'immediate') as digest
    from private.announcement_items i
    left join public.email_settings s on s.user_id = i.user_id
    where i.mail_id is null
    group by i.email
  ),
  due as (
    select w.email from waiting w
    where w.digest = 'immediate' and not exists (
        select 1 from private.mails m
        where m.kind = 'releases' and m.recipient = w.email and m.created_at > now() - interval '1 hour')
      or w.digest = 'weekly' and coalesce(
        (select max(m.created_at) from private.mails m where m.kind = 'releases' and m.recipient = w.email),
        w.oldest) <= now() - interval '7 days'
  ),
  mails as (
    insert into private.mails (kind, recipient) select 'releases', d.email from due d
    returning id, recipient
  ),
  taken as (
    update private.announcement_items i set mail_id = m.id
    from mails m
    where i.email = m.recipient and i.mail_id is null
    returning m.id
  )
  select coalesce(array_agg(distinct t.id), '{}') into made from taken t;
  return made;
end
$$;

revoke execute on function private.queue_release_mails() from public, anon, authenticated;

-- A release mail as the Worker renders it: its releases still to tell (released, not withdrawn, the
-- artist not banned and the address not unsubscribed from them since), each with its artist and cover.
-- Part of mail_to_send (17_mail.sql).
create or replace function private.release_mail_releases(mail_id uuid, recipient text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', r.id, 'kind', r.kind, 'title', r.title, 'artist_id', a.id, 'artist_name', a.artist_name,
      'artwork_url', (select coalesce(t.artwork_small_url, t.artwork_url) from public.tracks t
        where t.release_id = r.id order by t.track_number nulls last, t.created_at limit 1),
      'tracks', (select count(*) from public.tracks t where t.release_id = r.id))
    order by a.artist_name, r.title), '[]')
  from private.announcement_items i
  join public.releases r on r.id = i.release_id
  join public.artist_profiles a on a.id = r.artist_id
  where i.mail_id = release_mail_releases.mail_id
    and a.id <> all (private.banned_accounts())
    and exists (select 1 from public.tracks t where t.release_id = r.id and t.release_date <= current_date)
    and private.takes_release_mail(release_mail_releases.recipient, a.id)
$$;

revoke execute on function private.release_mail_releases(uuid, text) from public, anon, authenticated;

-- Release mail made but never handed to the queue (the run that made it stopped before queueing, or the
-- queue was down): not attempted, and older than ten minutes. The job queues them again; the queue sends
-- each once. Through the marketplace alone.
create or replace function private.unsent_release_mails()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  return (select coalesce(array_agg(m.id), '{}') from (
    select m.id from private.mails m
    where m.kind = 'releases' and m.sent_at is null and m.attempts = 0 and m.created_at < now() - interval '10 minutes'
    order by m.created_at limit 1000) m);
end
$$;

revoke execute on function private.unsent_release_mails() from public;

grant execute on function private.unsent_release_mails() to anon, authenticated;

create or replace function public.unsent_release_mails()
returns uuid[]
language sql
stable
security invoker
set search_path = ''
as $$
  select private.unsent_release_mails()
$$;

revoke execute on function public.unsent_release_mails() from public;

grant execute on function public.unsent_release_mails() to anon, authenticated;
