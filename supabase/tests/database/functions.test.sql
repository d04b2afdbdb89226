-- The security-definer functions' refusals: each answers only the caller it was written for, and says no
-- to everyone else (a visitor, a fan, an artist, an administrator) before it does anything.
begin;
\ir helpers.sql

-- Each case names the outcome: these functions refuse with their own codes.
create table tests.outcomes (subject text, actor text, statement text, expected text);

create function tests.expect(subject text, statement text, expected text, actors text[] default array['visitor', 'artist', 'fan', 'admin'])
returns void
language sql
as $$
  insert into tests.outcomes select subject, actor, statement, expected from unnest(actors) as actor
$$;

-- Plays and a ban's end are told only to the marketplace's Worker, which sends its registered secret.
select tests.expect('record a play without the Worker''s secret',
  $$select public.record_play(tests.id('track'), 'GB', 'a-listener', '192.0.2.1')$$, 'refused:28000');
select tests.expect('ask when a ban ends without the Worker''s secret',
  $$select public.suspended_until('fan@tests.example', 'a-password')$$, 'refused:28000');
-- Trusting a secret is the operator's, in SQL; the sweep's lists are the service role's.
select tests.expect('trust a secret of one''s own', $$select private.trust_marketplace_secret(repeat('x', 40))$$, 'refused:42501',
  array['visitor', 'artist', 'fan', 'admin', 'service']);
select tests.expect('list unpublished uploads', $$select * from public.unpublished_uploads()$$, 'refused:42501');
select tests.expect('list recent uploads', $$select * from public.recent_uploads()$$, 'refused:42501');
select tests.expect('list unpublished uploads as the sweep', $$select * from public.unpublished_uploads()$$, 'done:0', array['service']);
select tests.expect('list recent uploads as the sweep', $$select * from public.recent_uploads()$$, 'done:0', array['service']);
-- The audit of user administration is written by the admin Edge Functions (service role) alone.
select tests.expect('write a user administration entry',
  $$select public.record_user_administration(tests.id('admin'), 'admin@tests.example', 'user.ban', tests.id('fan'), 'fan@tests.example', 'x')$$,
  'refused:42501');
select tests.expect('write a user administration entry straight',
  $$select private.record_user_administration(tests.id('admin'), 'admin@tests.example', 'user.ban', tests.id('fan'), 'fan@tests.example', 'x')$$,
  'refused:42501');
-- The rollups behind the genre pages are read only through the catalog's own answers.
select tests.expect('read the scheduled genre tracks', $$select * from private.scheduled_genre_tracks()$$, 'refused:42501');
-- Nor may anyone change a rollup by hand.
select tests.expect('roll up genre tracks by hand', $$select private.count_genre_tracks(array[tests.id('artist')], array['Rock'], array[1])$$,
  'refused:42501');

select plan((select count(*)::integer from tests.outcomes));
select is(tests.attempt(actor, statement), expected, format('%s as %s: %s', subject, actor, expected))
from tests.outcomes
order by subject, actor;
select * from finish();
rollback;
