-- Where an account's money goes: artists' and fans' payout settings (an artist's currency among them), and
-- what changes where payouts go: the account's password asked (password_is_right), the account told by
-- mail (17_mail.sql): a PayPal email, a payout method, a Stripe account connected (connect_stripe).
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- { minimum_price ≥ 0, default_currency, auto_withdraw, withdraw_threshold whole ≥ 50 }
create or replace function private.is_artist_payment_settings(settings jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(settings) = 'object' then coalesce(
      private.is_json_number(settings -> 'minimum_price', 0, 1000000)
      and private.is_currency(settings ->> 'default_currency')
      and jsonb_typeof(settings -> 'auto_withdraw') = 'boolean'
      and private.is_json_number(settings -> 'withdraw_threshold', 50, 1000000000, true), false)
    else false
  end
$$;

-- { paypal_email (or null), default_currency }
create or replace function private.is_fan_payment_settings(settings jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(settings) = 'object' then coalesce(
      (jsonb_typeof(settings -> 'paypal_email') = 'null'
        or settings -> 'paypal_email' is null
        or private.is_email(settings ->> 'paypal_email'))
      and private.is_currency(settings ->> 'default_currency'), false)
    else false
  end
$$;

create table public.artist_payout_settings (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  paypal_email text not null check (private.is_email(paypal_email)),
  payment_settings jsonb not null
    default '{"minimum_price": 1, "default_currency": "USD", "auto_withdraw": false, "withdraw_threshold": 50}'
    check (private.is_artist_payment_settings(payment_settings)),
  created_at timestamptz not null default now(),
  -- Where payouts go: PayPal (to `paypal_email`), or the artist's Stripe account (Connect, Express), which
  -- the marketplace keeps as the artist connects it, and up to date from Stripe (`stripe_ready`: it takes
  -- transfers). Stripe is chosen only once its account is ready (choose_payout_method); an account
  -- replaced since keeps Stripe chosen, and transfers wait until the new one is ready.
  payout_method text not null default 'paypal' check (payout_method in ('paypal', 'stripe')),
  stripe_account text unique,
  stripe_ready boolean not null default false,
  constraint artist_payout_settings_paypal_email_length check (char_length(paypal_email) <= 254),
  constraint artist_payout_settings_stripe_connected check (payout_method = 'paypal' or stripe_account is not null)
);

alter table public.artist_payout_settings enable row level security;

revoke all on public.artist_payout_settings from anon, authenticated;

-- Where payouts go (the PayPal email, the method, the Stripe account) changes through change_paypal_email,
-- choose_payout_method and connect_stripe (below) alone: the password asked, the account told.
grant select, update (payment_settings) on public.artist_payout_settings to authenticated;

create policy "Artists read their own payout settings" on public.artist_payout_settings
  for select to authenticated using (artist_id = (select auth.uid()));

create policy "Artists update their own payout settings" on public.artist_payout_settings
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- The currency an artist sells in, their payout settings' default (USD without them): what their prices are
-- in on every page and in every checkout. Security definer: the settings themselves are the artist's alone.
create or replace function private.artist_currency(artist_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select s.payment_settings ->> 'default_currency' from public.artist_payout_settings s where s.artist_id = artist_currency.artist_id),
    'USD')
$$;

revoke execute on function private.artist_currency(uuid) from public;

grant execute on function private.artist_currency(uuid) to anon, authenticated, service_role;

-- An artist's currency as a computed field (`currency` in a select of artist_profiles).
create or replace function public.currency(artist public.artist_profiles)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select private.artist_currency(currency.artist.id)
$$;

revoke execute on function public.currency(public.artist_profiles) from public;

grant execute on function public.currency(public.artist_profiles) to anon, authenticated, service_role;

comment on function public.currency(public.artist_profiles) is
  'Runs as its caller: a computed field of artist_profiles (`currency` in a select); private.artist_currency reads the settings.';

create table public.fan_payout_settings (
  fan_id uuid primary key references public.fan_profiles (id) on delete cascade,
  payment_settings jsonb not null
    default '{"paypal_email": null, "default_currency": "USD"}'
    check (private.is_fan_payment_settings(payment_settings)),
  created_at timestamptz not null default now()
);

alter table public.fan_payout_settings enable row level security;

revoke all on public.fan_payout_settings from anon, authenticated;

grant select, update (payment_settings) on public.fan_payout_settings to authenticated;

create policy "Fans read their own payout settings" on public.fan_payout_settings
  for select to authenticated using (fan_id = (select auth.uid()));

create policy "Fans update their own payout settings" on public.fan_payout_settings
  for update to authenticated
  using (fan_id = (select auth.uid()))
  with check (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- A fan's PayPal email, in their settings' JSON, changes through change_paypal_email alone too: an API
-- caller's update keeps it as it was (42501 otherwise).
create or replace function private.fan_paypal_email_kept()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
    and new.payment_settings ->> 'paypal_email' is distinct from old.payment_settings ->> 'paypal_email' then
    raise exception 'a PayPal email changes with the account''s password' using errcode = '42501';
  end if;
  return new;
end
$$;

revoke execute on function private.fan_paypal_email_kept() from public, anon, authenticated;

create trigger fan_paypal_email_kept
  before update of payment_settings on public.fan_payout_settings
  for each row execute function private.fan_paypal_email_kept();

-- Wrong passwords given where the account's password is asked (private.password_is_right: changing where
-- payouts go), counted per account for their bound (kept an hour).
create table private.password_tries (
  user_id uuid not null references auth.users (id) on delete cascade,
  tried_at timestamptz not null default now()
);

create index password_tries_user_id_tried_at_idx on private.password_tries (user_id, tried_at);

revoke all on table private.password_tries from public, anon, authenticated;

-- An address as a notice names it, partly hidden: its first two characters (one of a short name) and
-- its domain, "pa***@example.com".
create or replace function private.masked_email(address text)
returns text
language sql
immutable
set search_path = ''
as $$
  select left(local, case when char_length(local) > 2 then 2 else 1 end) || '***@' || domain
  from (select substring(masked_email.address from '^(.*)@') as local, substring(masked_email.address from '@([^@]*)$') as domain) parts
$$;

revoke execute on function private.masked_email(text) from public, anon, authenticated;

-- Whether `password` is the calling account's own: what a stolen session lacks. A wrong one is counted;
-- past 10 wrong ones in an hour the account is refused (54000) until the hour has passed, the right one
-- not even tried.
create or replace function private.password_is_right(password text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  if (select count(*) from private.password_tries t where t.user_id = me and t.tried_at > now() - interval '1 hour') >= 10 then
    raise exception 'too many wrong passwords in an hour' using errcode = '54000';
  end if;
  if exists (select 1 from auth.users u where u.id = me and u.encrypted_password like '$2%'
      and u.encrypted_password = extensions.crypt(coalesce(password_is_right.password, ''), u.encrypted_password)) then
    return true;
  end if;
  delete from private.password_tries t where t.user_id = me and t.tried_at <= now() - interval '1 hour';
  insert into private.password_tries (user_id) values (me);
  return false;
end
$$;

revoke execute on function private.password_is_right(text) from public, anon, authenticated;

-- The caller's PayPal email (an artist's, or a fan's, whose may be none) changed, through the marketplace
-- alone (28000), with the account's password (private.password_is_right, and its bound): the payout
-- address is what a stolen session would take first. A wrong password changes nothing and answers
-- {"wrong_password": true}. Changed, a notice goes to the account's own address naming the new one partly
-- hidden (private.mails, kind 'paypal_changed'): answers {"mail": its id} for the marketplace to queue, or
-- {"mail": null} when the address was the same.
create or replace function private.change_paypal_email(paypal_email text, password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  address text := nullif(btrim(change_paypal_email.paypal_email), '');
  account auth.users;
  changed boolean;
  notice uuid;
begin
  perform private.require_marketplace_request();
  if me is null or not private.is_active_user() then
    raise exception 'only an account in good standing changes its PayPal email' using errcode = '42501';
  end if;
  if not private.password_is_right(change_paypal_email.password) then
    return jsonb_build_object('wrong_password', true);
  end if;
  select * into account from auth.users u where u.id = me;
  update public.artist_payout_settings s set paypal_email = address
  where s.artist_id = me and s.paypal_email is distinct from address;
  changed := found;
  if not exists (select 1 from public.artist_payout_settings s where s.artist_id = me) then
    update public.fan_payout_settings s
    set payment_settings = jsonb_set(s.payment_settings, '{paypal_email}', coalesce(to_jsonb(address), 'null'::jsonb))
    where s.fan_id = me and s.payment_settings ->> 'paypal_email' is distinct from address;
    changed := found;
  end if;
  if changed and private.is_email(account.email) then
    insert into private.mails (kind, recipient, detail)
    values ('paypal_changed', account.email, private.masked_email(address))
    returning id into notice;
  end if;
  return jsonb_build_object('mail', notice);
end
$$;

revoke execute on function private.change_paypal_email(text, text) from public;

grant execute on function private.change_paypal_email(text, text) to anon, authenticated;

create or replace function public.change_paypal_email(paypal_email text, password text)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.change_paypal_email(change_paypal_email.paypal_email, change_paypal_email.password)
$$;

revoke execute on function public.change_paypal_email(text, text) from public;

grant execute on function public.change_paypal_email(text, text) to anon, authenticated;

-- Where the caller's payouts go, PayPal or Stripe, chosen through the marketplace alone (28000), by an
-- artist in good standing, with the account's password (as change_paypal_email asks it): a stolen session
-- would turn the payouts to a Stripe account it connected. Stripe only once its account is ready
-- (23514). A wrong password changes nothing and answers {"wrong_password": true}. Changed, the account's
-- own address is told (private.mails, kind 'payout_method_changed', naming the method): answers {"mail":
-- its id} for the marketplace to queue, or {"mail": null} when the method was the same.
create or replace function private.choose_payout_method(payout_method text, password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  settings public.artist_payout_settings;
  address text;
  notice uuid;
begin
  perform private.require_marketplace_request();
  select * into settings from public.artist_payout_settings s where s.artist_id = me;
  if settings.artist_id is null or not private.is_active_user() then
    raise exception 'only an artist in good standing chooses where payouts go' using errcode = '42501';
  end if;
  if not private.password_is_right(choose_payout_method.password) then
    return jsonb_build_object('wrong_password', true);
  end if;
  if choose_payout_method.payout_method is not distinct from settings.payout_method then
    return jsonb_build_object('mail', null);
  end if;
  if choose_payout_method.payout_method = 'stripe' and not settings.stripe_ready then
    raise exception 'Stripe is chosen once its account is ready' using errcode = '23514';
  end if;
  update public.artist_payout_settings s set payout_method = choose_payout_method.payout_method where s.artist_id = me;
  select u.email into address from auth.users u where u.id = me;
  if private.is_email(address) then
    insert into private.mails (kind, recipient, detail)
    values ('payout_method_changed', address, choose_payout_method.payout_method)
    returning id into notice;
  end if;
  return jsonb_build_object('mail', notice);
end
$$;

revoke execute on function private.choose_payout_method(text, text) from public;

grant execute on function private.choose_payout_method(text, text) to anon, authenticated;

create or replace function public.choose_payout_method(payout_method text, password text)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.choose_payout_method(choose_payout_method.payout_method, choose_payout_method.password)
$$;

revoke execute on function public.choose_payout_method(text, text) from public;

grant execute on function public.choose_payout_method(text, text) to anon, authenticated;

-- The caller's Stripe account (Connect, Express) as the marketplace made it for them, through the
-- marketplace alone, for an artist in good standing, with the account's password (private.password_is_right,
-- as change_paypal_email asks it): a stolen session would connect its own bank. A wrong password changes
-- nothing and answers {"wrong_password": true}. With no account (''), nothing changes and the one connected is
-- answered ({"account": … or null}): the password checked before the artist goes on to its onboarding, or
-- before Stripe makes a new one. With one, it replaces the one connected (so a connection made by someone
-- else is undone by connecting another), not ready until Stripe says so; transfers already started keep
-- the account they were made for (`payouts.recipient`). The account's own address is told (private.mails,
-- kind 'stripe_connected'): {"account": the new one, "mail": its id} for the marketplace to queue.
create or replace function private.connect_stripe(account text, password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  wanted text := nullif(btrim(connect_stripe.account), '');
  connected text;
  address text;
  notice uuid;
begin
  perform private.require_marketplace_request();
  if not exists (select 1 from public.artist_payout_settings s where s.artist_id = me) or not private.is_active_user() then
    raise exception 'only an artist in good standing connects Stripe' using errcode = '42501';
  end if;
  if not private.password_is_right(connect_stripe.password) then
    return jsonb_build_object('wrong_password', true);
  end if;
  select s.stripe_account into connected from public.artist_payout_settings s where s.artist_id = me;
  if wanted is null or wanted = connected then
    return jsonb_build_object('account', connected, 'mail', null);
  end if;
  update public.artist_payout_settings s set stripe_account = wanted, stripe_ready = false
  where s.artist_id = me;
  select u.email into address from auth.users u where u.id = me;
  if private.is_email(address) then
    insert into private.mails (kind, recipient) values ('stripe_connected', address) returning id into notice;
  end if;
  return jsonb_build_object('account', wanted, 'mail', notice);
end
$$;

revoke execute on function private.connect_stripe(text, text) from public;

grant execute on function private.connect_stripe(text, text) to authenticated;

create or replace function public.connect_stripe(account text, password text)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.connect_stripe(connect_stripe.account, connect_stripe.password)
$$;

revoke execute on function public.connect_stripe(text, text) from public;

grant execute on function public.connect_stripe(text, text) to authenticated;

-- What Stripe says of a connected account (`account.updated`, or the return from its onboarding), through
-- the marketplace alone: whether it takes transfers. Answers whether an artist has that account.
create or replace function private.stripe_account_updated(account text, ready boolean)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_marketplace_request();
  update public.artist_payout_settings s set stripe_ready = stripe_account_updated.ready
  where s.stripe_account = stripe_account_updated.account;
  return found;
end
$$;

revoke execute on function private.stripe_account_updated(text, boolean) from public;

grant execute on function private.stripe_account_updated(text, boolean) to anon, authenticated;

create or replace function public.stripe_account_updated(account text, ready boolean)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.stripe_account_updated(stripe_account_updated.account, stripe_account_updated.ready)
$$;

revoke execute on function public.stripe_account_updated(text, boolean) from public;

grant execute on function public.stripe_account_updated(text, boolean) to anon, authenticated;
