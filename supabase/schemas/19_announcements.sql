-- Release announcements: made once per release on its date, as notices in the site and the mail they
-- become (one message per recipient per run, or a weekly digest), in slices the statement timeout bounds.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

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
-- What follows its writes: no trigger fires. Its notices reach their users live (Realtime, the
-- publication in 19_notifications.sql); its mail items become mails here (queue_release_mails, below),
-- which the Worker queues.
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
  -- And the members of tiers that give new releases theirs (22_memberships.sql).
  perform private.give_members_new_releases();
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

-- Release mail made but never handed to the queue (the run that made it stopped before queueing, the
-- queue was down, or its turn was more than the queue's 12 hours ahead: space_release_mails): not
-- attempted, and ten minutes past when it was made or its turn. The job queues them again; the queue sends
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
    where m.kind = 'releases' and m.sent_at is null and m.attempts = 0
      and coalesce(m.send_at, m.created_at) < now() - interval '10 minutes'
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

-- Release mail spread over time, so a release to thousands never goes out in a burst and mail queued
-- meanwhile (a receipt) goes first: each of `mails` not sent is given its turn (`send_at`) `per_second`
-- a second (a share of the provider's rate), after the last release mail already spread, in the order
-- they were made. Answers each mail given a turn and the seconds until it (the queue's `delaySeconds`);
-- a turn more than 12 hours ahead (the most a queue delays a message) is not given, and the hourly job
-- queues that mail later (unsent_release_mails). Through the marketplace alone.
create or replace function private.space_release_mails(mails uuid[], per_second numeric)
returns table (mail uuid, delay_seconds integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  gap interval := make_interval(secs => 1 / greatest(space_release_mails.per_second, 0.01));
  last_turn timestamptz;
begin
  perform private.require_marketplace_request();
  -- Two runs at once (the hourly job, a release published for today) take turns, so neither spreads its
  -- mail over the other's.
  perform pg_advisory_xact_lock(hashtext('private.space_release_mails'));
  select max(m.send_at) into last_turn from private.mails m where m.kind = 'releases' and m.sent_at is null and m.send_at > now();
  return query
  with ordered as (
    select m.id, row_number() over (order by m.created_at, m.id) as n
    from private.mails m
    where m.id = any(space_release_mails.mails) and m.kind = 'releases' and m.sent_at is null and m.attempts = 0
  ), turns as (
    select o.id, coalesce(last_turn, now() - gap) + gap * o.n as turn from ordered o
  )
  update private.mails m set send_at = t.turn
  from turns t
  where m.id = t.id and t.turn <= now() + interval '12 hours'
  returning m.id, greatest(ceil(extract(epoch from m.send_at - now())), 0)::integer;
end
$$;

revoke execute on function private.space_release_mails(uuid[], numeric) from public;

grant execute on function private.space_release_mails(uuid[], numeric) to anon, authenticated;

create or replace function public.space_release_mails(mails uuid[], per_second numeric)
returns table (mail uuid, delay_seconds integer)
language sql
security invoker
set search_path = ''
as $$
  select * from private.space_release_mails(space_release_mails.mails, space_release_mails.per_second)
$$;

revoke execute on function public.space_release_mails(uuid[], numeric) from public;

grant execute on function public.space_release_mails(uuid[], numeric) to anon, authenticated;
