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

-- Runs `statement` as `actor` ('visitor' for the anon key, 'service' for the service role, else a
-- fixture's user) and undoes it. 'done:<rows>' (rows read or written), or 'refused:<SQLSTATE>'.
create function tests.attempt(actor text, statement text)
returns text
language plpgsql
set search_path = ''
as $$
declare
  affected bigint;
  person uuid := case when actor in ('visitor', 'service') then null else tests.id(actor) end;
begin
  if actor not in ('visitor', 'service') and person is null then
    raise exception 'no fixture called %', actor;
  end if;
  begin
    perform set_config('request.jwt.claims', case
      when actor = 'visitor' then '{"role": "anon"}'
      when actor = 'service' then '{"role": "service_role"}'
      else (select jsonb_build_object('sub', u.id, 'role', 'authenticated', 'app_metadata', u.raw_app_meta_data)::text
            from auth.users u where u.id = person)
    end, true);
    perform set_config('role', case actor when 'visitor' then 'anon' when 'service' then 'service_role' else 'authenticated' end, true);
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

-- The people every test acts as, and a released track of the artist's.
do $$
begin
  perform tests.new_user('artist', '{"role": "artist", "artist_name": "Owner", "paypal_email": "owner@tests.example"}');
  perform tests.new_user('other artist', '{"role": "artist", "artist_name": "Other", "paypal_email": "other@tests.example"}');
  perform tests.new_user('fan', '{"role": "fan", "username": "listener"}');
  perform tests.new_user('admin', '{}', '{"provider": "email", "role": "admin"}');
  perform tests.remember('track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Released', 'Rock', 1.99, 'Out now', current_date - 1) returning id$q$);
end
$$;
