-- Mail a person chose: each user's email settings, unsubscribing without an account (a signed link: the
-- Worker checks it, the database keeps the choice), and an artist's newsletter signups, confirmed by mail.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

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

comment on function public.save_email_settings(boolean, text, boolean) is
  'Runs as its caller: it writes the caller''s own email settings, as row-level security lets them.';

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

comment on function public.set_release_mail(text, boolean, uuid) is
  'Runs as its caller: the API''s order of arguments (the artist last, optional) over private.set_release_mail, which does the work.';

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

comment on function public.newsletter_export() is
  'Runs as its caller: it reads the caller''s own signups, as row-level security lets them.';

grant execute on function private.takes_release_mail(text, uuid) to authenticated;

-- Each release's announcement: written when the release is made (waiting), done once on its date by the
