-- Included by every *.test.sql here (psql's \ir), inside the test's own transaction, so all of it is
-- rolled back with the test. The people a test acts as (made at the end), the rows they act on (by name:
-- tests.id('track')),
-- and one way to try a statement as someone: tests.attempt() runs it as that person (role and JWT claims
-- set exactly as PostgREST sets them), reports what happened, and undoes it, writes and role alike.

create extension if not exists pgtap with schema extensions;
-- As on hosted Supabase, where extensions live in `extensions`.
set local search_path = public, extensions;
create schema tests;
grant usage on schema tests to anon, authenticated, service_role;

create table tests.fixtures (name text primary key, id uuid not null);

-- A user as Auth creates one; the sign-up trigger makes the profile their metadata asks for.
create function tests.new_user(name text, user_metadata jsonb, app_metadata jsonb default '{"provider": "email"}')
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  created uuid;
begin
  insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
  values (name || '@tests.example', user_metadata, app_metadata, now())
  returning id into created;
  insert into tests.fixtures values (name, created);
  return created;
end
$$;

-- Runs an insert that returns one id (setup, as the test's own superuser) and keeps that id under `name`.
create function tests.remember(name text, insert_returning_id text)
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  created uuid;
begin
  execute insert_returning_id into created;
  insert into tests.fixtures values (name, created);
  return created;
end
$$;

-- A fixture's id, for the statements tests.attempt() runs as someone else.
create function tests.id(name text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select id from tests.fixtures where fixtures.name = id.name
$$;
grant execute on function tests.id(text) to anon, authenticated, service_role;

-- The marketplace's Worker sends its registered secret in a header (PostgREST hands the request's
-- headers to the database as `request.headers`); tests.attempt() sends it for an actor named
-- '<someone> through the marketplace'.
create function tests.marketplace_secret()
returns text
language sql
immutable
set search_path = ''
as $$
  select 'tests-marketplace-secret-0123456789abcdef'
$$;
select private.trust_marketplace_secret(tests.marketplace_secret());

-- The request's headers as the marketplace's Worker sends them, its secret and `also` (e.g. the guest's
-- order its receipt link names), for the rest of the transaction or until tests.send_no_headers(): for the
-- files that pay an order or call a function as the Worker over several statements, where one statement
-- in tests.as_marketplace() will not do. The header's name is written here alone, as the Worker's code
-- writes it once; a test that sends no secret, or a wrong one, sets its headers itself. Answers the
-- headers set, as set_config() does.
create function tests.send_marketplace_headers(also jsonb default '{}')
returns text
language sql
as $$
  select set_config('request.headers', (also || jsonb_build_object('x-marketplace-secret', tests.marketplace_secret()))::text, true)
$$;

-- No headers for the rest of the transaction, as a request that sends none (after tests.send_marketplace_headers()).
create function tests.send_no_headers()
returns text
language sql
as $$
  select set_config('request.headers', '', true)
$$;

-- Runs `statement` as `actor` ('visitor' for the anon key, 'service' for the service role, else a
-- fixture's user, alone or '… through the marketplace') and undoes it. 'done:<rows>' (rows read or
-- written), or 'refused:<SQLSTATE>'.
create function tests.attempt(actor text, statement text)
returns text
language plpgsql
set search_path = ''
as $$
declare
  affected bigint;
  through_marketplace boolean := actor like '% through the marketplace';
  who text := regexp_replace(actor, ' through the marketplace$', '');
  person uuid := case when who in ('visitor', 'service') then null else tests.id(who) end;
begin
  if who not in ('visitor', 'service') and person is null then
    raise exception 'no fixture called %', who;
  end if;
  begin
    perform set_config('request.jwt.claims', case
      when who = 'visitor' then '{"role": "anon"}'
      when who = 'service' then '{"role": "service_role"}'
      else (select jsonb_build_object('sub', u.id, 'role', 'authenticated', 'app_metadata', u.raw_app_meta_data)::text
            from auth.users u where u.id = person)
    end, true);
    if through_marketplace then
      perform tests.send_marketplace_headers();
    else
      perform set_config('request.headers', '{}', true);
    end if;
    perform set_config('role', case who when 'visitor' then 'anon' when 'service' then 'service_role' else 'authenticated' end, true);
    execute statement;
    get diagnostics affected = row_count;
    -- Undo the statement and the role: raised, and caught below with everything done since `begin`.
    raise exception using errcode = 'TTEST', message = affected::text;
  exception
    when sqlstate 'TTEST' then
      return 'done:' || sqlerrm;
    when others then
      return 'refused:' || sqlstate;
  end;
end
$$;

-- Whether `statement` took effect as `actor`: it read or wrote at least one row.
create function tests.allowed(actor text, statement text)
returns boolean
language sql
set search_path = ''
as $$
  select outcome like 'done:%' and outcome <> 'done:0' from (select tests.attempt(actor, statement) as outcome) attempted
$$;

-- A picture in `owner`'s folder of the artwork bucket, by the public URL Storage's getPublicUrl writes.
create function tests.artwork_of(owner text)
returns text
language sql
as $$
  select 'http://localhost/storage/v1/object/public/artwork/' || tests.id(owner) || '/1700000000000-eeeeeeee.jpeg'
$$;

-- Audio as a row names it: by its path in the tracks bucket (pictures: tests.artwork_of()).
create function tests.audio_of(owner text)
returns text
language sql
as $$
  select tests.id(owner) || '/1700000000000-eeeeeeee.mp3'
$$;

-- An access-rule file's cases: each says whether `statement` must take effect as `actor`. The file adds
-- them, plans for them, and proves them all with tests.proved_cases().
create table tests.cases (subject text, actor text, statement text, allowed boolean);

-- One case per actor the rules tell apart (a visitor, the owner, another artist, a fan, an
-- administrator): `allowed` names those who may.
create function tests.each_actor(subject text, statement text, allowed text[])
returns void
language sql
set search_path = ''
as $$
  insert into tests.cases
  select subject, actor, statement, actor = any (allowed)
  from unnest(array['visitor', 'artist', 'other artist', 'fan', 'admin']) as actor
$$;

-- One case per actor, each asking through the marketplace (the Worker, with its secret): `allowed` names
-- those who may.
create function tests.each_actor_through_marketplace(subject text, statement text, allowed text[])
returns void
language sql
set search_path = ''
as $$
  insert into tests.cases
  select subject, actor || ' through the marketplace', statement, actor = any (allowed)
  from unnest(array['visitor', 'artist', 'other artist', 'fan', 'admin']) as actor
$$;

-- One case for one actor: a banned user, or someone through the marketplace.
create function tests.one_actor(subject text, actor text, statement text, allowed boolean)
returns void
language sql
set search_path = ''
as $$
  insert into tests.cases values (subject, actor, statement, allowed)
$$;

-- Every case of the file, proved: allowed means it read or wrote a row; denied, a refusal or nothing touched.
-- (pgTAP's own functions name each other unqualified, so this one keeps the test's search_path.)
create function tests.proved_cases()
returns setof text
language sql
as $$
  select ok(
    tests.allowed(c.actor, c.statement) = c.allowed,
    format('%s: %s as %s', c.subject, case when c.allowed then 'allowed' else 'denied' end, c.actor))
  from tests.cases c
  order by c.subject, c.actor
$$;

-- Selling as the marketplace does (its secret in the request's headers, as the Worker sends it), for the
-- files that pay for orders. `statement`'s answer (jsonb) through the marketplace, as whoever the test is
-- now; the headers are set back after.
create function tests.as_marketplace(statement text)
returns jsonb
language plpgsql
as $$
declare
  headers text := current_setting('request.headers', true);
  answer jsonb;
begin
  perform tests.send_marketplace_headers();
  execute statement into answer;
  perform set_config('request.headers', coalesce(headers, ''), true);
  return answer;
end
$$;

-- `statement`'s answer through the marketplace as `who` (a fixture, with its token's claims as PostgREST
-- sets them); the claims are set back after.
create function tests.through_marketplace(statement text, who text default 'artist')
returns jsonb
language plpgsql
as $$
declare
  claims text := current_setting('request.jwt.claims', true);
  answer jsonb;
begin
  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id(who), 'role', 'authenticated',
    'app_metadata', (select u.raw_app_meta_data from auth.users u where u.id = tests.id(who)))::text, true);
  answer := tests.as_marketplace(statement);
  perform set_config('request.jwt.claims', coalesce(claims, ''), true);
  return answer;
end
$$;

-- `buyer`'s order of one track (`track`, a fixture), opened, its checkout (`checkout`) attached and paid
-- in the UK as the marketplace does: the order's id.
create function tests.paid_order(track text, checkout text, buyer text default 'fan')
returns uuid
language plpgsql
as $$
declare
  opened jsonb := tests.through_marketplace(format($q$select public.open_order(
    jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id(%L))), '{}', 'USD', false, false)$q$, track), buyer);
begin
  perform tests.through_marketplace(format('select to_jsonb(public.attach_checkout(%L, %L))', opened ->> 'order_id', checkout), buyer);
  perform tests.through_marketplace(format('select public.apply_checkout(%L, %L, %L, %L)', checkout, 'paid', 'pi_' || checkout, 'GB'),
    buyer);
  return (opened ->> 'order_id')::uuid;
end
$$;

-- The people every test acts as, and the artist's tracks: one released, one upcoming. The banned artist and fan are
-- banned after sign-up, as an administrator bans: their tokens stay valid until they expire, so the
-- rules must refuse them, not the sign-in.
do $$
begin
  perform tests.new_user('artist', '{"role": "artist", "artist_name": "Owner", "paypal_email": "owner@tests.example"}');
  perform tests.new_user('other artist', '{"role": "artist", "artist_name": "Other", "paypal_email": "other@tests.example"}');
  perform tests.new_user('fan', '{"role": "fan", "username": "listener"}');
  perform tests.new_user('admin', '{}', '{"provider": "email", "role": "admin"}');
  perform tests.new_user('banned artist', '{"role": "artist", "artist_name": "Banned", "paypal_email": "banned@tests.example"}');
  perform tests.new_user('banned fan', '{"role": "fan", "username": "banned-listener"}');
  perform tests.remember('track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Released', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('upcoming track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Upcoming', 'Rock', 1.99, 'Soon', current_date + 7) returning id$q$);
  perform tests.remember('banned artist track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('banned artist'), 'Before the ban', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
  update auth.users set banned_until = now() + interval '30 days' where id in (tests.id('banned artist'), tests.id('banned fan'));
end
$$;
