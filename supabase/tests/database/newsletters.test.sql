-- Newsletters by confirmation (19_email_settings.sql): a signup goes through the marketplace alone and
-- sends a confirmation mail; the address gets release mail only once it confirms, by the link of that
-- mail (reading the link confirms nothing; a link used says so); a signup never undoes an unsubscribe, a
-- confirmation does; signing up an address already subscribed sends nothing and answers as any signup;
-- at most 5 signups an address a day and 20 a client an hour; the artist's CSV tells the pending. An
-- unsubscribe link's page knows whether it was used.
begin;
\ir helpers.sql

-- `statement`'s answer through the marketplace (its secret), as `who` when named.
create function tests.answer(statement text, who text default null)
returns jsonb
language plpgsql
as $$
declare
  answer jsonb;
begin
  if who is not null then
    perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id(who), 'role', 'authenticated')::text, true);
  end if;
  perform tests.send_marketplace_headers();
  execute statement into answer;
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return answer;
end
$$;

-- A signup of `email` for `artist` from `client`, through the marketplace: the confirmation mail's id, or null.
create function tests.signup(email text, client text default 'client', artist text default 'artist')
returns uuid
language sql
as $$
  select (tests.answer(format('select to_jsonb(public.newsletter_signup(%L, %L, %L))', tests.id(artist), email, client)) #>> '{}')::uuid
$$;

-- What a confirmation link's page reads (`confirm` false) or its button does (true).
create function tests.confirmation(mail_id uuid, confirm boolean)
returns jsonb
language sql
as $$
  select tests.answer(format('select public.newsletter_confirmation(%L, %L)', mail_id, confirm))
$$;

-- Whether a release of the artist out today mails `email`: the job run, then its item looked for.
create function tests.mailed_a_release(email text, name text)
returns boolean
language plpgsql
as $$
begin
  perform tests.remember(name, format($q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (%L, %L, 'Rock', 1.99, 'New', current_date) returning id$q$, tests.id('artist'), name));
  perform tests.answer('select public.announce_releases()');
  return exists (select 1 from private.announcement_items i
    join public.tracks t on t.release_id = i.release_id
    where t.id = tests.id(name) and i.email = mailed_a_release.email);
end
$$;

-- The artist's CSV row of `email`: [subscribed, confirmed].
create function tests.exported(email text)
returns jsonb
language sql
as $$
  select tests.answer(format($q$select (select jsonb_build_array(e.subscribed, e.confirmed)
    from public.newsletter_export() e where e.email = %L)$q$, email), 'artist')
$$;

-- The fixtures' releases are out already (as the seed's are).
update private.release_announcements set announced_at = now();
insert into public.newsletter_signups (artist_id, email) values (tests.id('artist'), 'listed@tests.example');

select tests.each_actor('sign up for the artist''s newsletter without the marketplace',
  $$select public.newsletter_signup(tests.id('artist'), 'someone@tests.example')$$, array[]::text[]);
select tests.each_actor_through_marketplace('sign up for the artist''s newsletter',
  $$select public.newsletter_signup(tests.id('artist'), 'someone@tests.example', 'client')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor_through_marketplace('sign up for a banned artist''s newsletter',
  $$select public.newsletter_signup(tests.id('banned artist'), 'someone@tests.example', 'client')$$, array[]::text[]);
select tests.each_actor('read a confirmation link without the marketplace',
  $$select public.newsletter_confirmation(gen_random_uuid(), true)$$, array[]::text[]);
select tests.each_actor('read an unsubscribe link''s choice without the marketplace',
  $$select public.release_mail_choice('letters@tests.example', tests.id('artist'))$$, array[]::text[]);
select tests.each_actor('read the artist''s newsletter signups', $$select 1 from public.newsletter_signups$$, array['artist']);

select plan((select count(*)::integer from tests.cases) + 29);
select * from tests.proved_cases();

-- A signup is pending: a confirmation mail, no release mail.
select tests.remember('first mail', $$select tests.signup('Letters@Tests.example')$$);
select is((select jsonb_build_array(m.kind, m.recipient, m.artist_id) from private.mails m where m.id = tests.id('first mail')),
  jsonb_build_array('newsletter_signup', 'letters@tests.example', tests.id('artist')),
  'a signup writes a confirmation mail to the address, naming the artist');
select is(tests.answer(format('select public.mail_to_send(%L)', tests.id('first mail'))) ->> 'artist_name', 'Owner',
  'the confirmation mail says whose news it is');
select is(tests.exported('letters@tests.example'), '[true, false]'::jsonb, 'the artist''s CSV lists the signup unconfirmed');
select is(tests.mailed_a_release('letters@tests.example', 'before confirming'), false, 'an unconfirmed signup gets no release mail');

-- Opening the link confirms nothing (mail scanners open links); its button does, once.
select is(tests.confirmation(tests.id('first mail'), false),
  '{"email": "letters@tests.example", "artist_name": "Owner", "state": "pending"}'::jsonb, 'the link''s page says what it confirms');
select is((select confirmed_at from public.newsletter_signups where email = 'letters@tests.example'), null,
  'reading the link confirms nothing');
select is(tests.confirmation(tests.id('first mail'), true) ->> 'state', 'confirmed', 'the button confirms');
select is(tests.confirmation(tests.id('first mail'), true) ->> 'state', 'used', 'a link used says so');
select is(tests.confirmation(tests.id('first mail'), false) ->> 'state', 'used', 'and its page too');
select is(tests.confirmation(tests.id('track'), true), null, 'an id that is no confirmation mail confirms nothing');
select is(tests.exported('letters@tests.example'), '[true, true]'::jsonb, 'the CSV says it confirmed');
select is(tests.mailed_a_release('letters@tests.example', 'after confirming'), true, 'a confirmed signup gets release mail');

-- No oracle: an address already subscribed is sent nothing, and answers as a signup.
select is(tests.signup('letters@tests.example'), null, 'signing up a subscribed address again sends nothing');

-- A signup never undoes an unsubscribe; a confirmation does. An unsubscribe link used says so.
select is(tests.answer($$select public.release_mail_choice('letters@tests.example', tests.id('artist'))$$),
  '{"artist_name": "Owner", "unsubscribed": false}'::jsonb, 'an unsubscribe link''s page names the artist, not left yet');
select tests.answer($$select to_jsonb(public.set_release_mail('letters@tests.example', false, tests.id('artist')))$$);
select is(tests.answer($$select public.release_mail_choice('LETTERS@tests.example', tests.id('artist')) -> 'unsubscribed'$$),
  'true'::jsonb, 'and once used, says so');
select is(tests.answer($$select public.release_mail_choice('letters@tests.example') -> 'unsubscribed'$$), 'false'::jsonb,
  'while every artist''s mail is still taken');
select tests.remember('second mail', $$select tests.signup('letters@tests.example')$$);
select isnt(tests.id('second mail'), null, 'an unsubscribed address signed up again is sent a confirmation');
select is(tests.exported('letters@tests.example'), '[false, true]'::jsonb, 'and stays unsubscribed in the CSV');
select is(tests.mailed_a_release('letters@tests.example', 'signed up again'), false, 'a signup does not undo the unsubscribe');
select is(tests.confirmation(tests.id('first mail'), true) ->> 'state', 'used', 'nor does the first confirmation''s link again');
select is(tests.confirmation(tests.id('second mail'), true) ->> 'state', 'confirmed', 'its own confirmation does');
select is(tests.exported('letters@tests.example'), '[true, true]'::jsonb, 'subscribed again in the CSV');
select is(tests.mailed_a_release('letters@tests.example', 'confirmed again'), true, 'and release mail comes again');

-- Limits: 5 signups an address a day, whatever the artist; 20 a client an hour.
select tests.signup('often@tests.example', 'client ' || n, case when n % 2 = 0 then 'artist' else 'other artist' end)
from generate_series(1, 5) n;
select throws_ok($$select tests.signup('often@tests.example', 'another client', 'other artist')$$, '54000',
  'at most 5 signups an address a day', 'a sixth signup of an address within the day is refused');
select is((select count(*) from private.mails where recipient = 'often@tests.example'), 5::bigint, 'and sends nothing');
update private.newsletter_requests set created_at = created_at - interval '1 day 1 minute' where email = 'often@tests.example';
select isnt(tests.signup('often@tests.example', 'another client'), null, 'a day on, it is taken');

select tests.signup('crowd' || n || '@tests.example', 'busy client') from generate_series(1, 20) n;
select throws_ok($$select tests.signup('crowd21@tests.example', 'busy client')$$, '54000',
  'at most 20 signups a client an hour', 'a client''s 21st signup within the hour is refused');
select isnt(tests.signup('crowd21@tests.example', 'quiet client'), null, 'another client''s is taken');
update private.newsletter_requests set created_at = created_at - interval '61 minutes' where client = 'busy client';
select isnt(tests.signup('crowd22@tests.example', 'busy client'), null, 'an hour on, the client signs up again');

select * from finish();
rollback;
