-- Listening and analytics (06_listening.sql, 07_analytics.sql): play events and the figures made from
-- them are the listener's and the track's artist's to read, and the database's alone to write; for a
-- visitor, the owner, another artist, a fan (the listener), an administrator and a banned artist.
-- (Plays recorded without the Worker's secret: functions.test.sql.)
begin;
\ir helpers.sql

do $$
begin
  -- A play in an embedded player on another site, so every roll-up has a row of the artist's.
  perform tests.remember('play', $q$
    insert into public.analytics_events (type, track_id, artist_id, user_id, country, embedded_on)
    values ('play', tests.id('track'), tests.id('artist'), tests.id('fan'), 'GB', 'https://blog.example') returning id$q$);
end
$$;

select tests.each_actor('read a play', $$select 1 from public.analytics_events where id = tests.id('play')$$, array['artist', 'fan']);
select tests.each_actor('write a play directly',
  $$insert into public.analytics_events (type, track_id, artist_id) values ('play', tests.id('track'), tests.id('artist'))$$, array[]::text[]);
select tests.each_actor('change a play', $$update public.analytics_events set country = 'US' where id = tests.id('play')$$, array[]::text[]);
select tests.each_actor('delete a play', $$delete from public.analytics_events where id = tests.id('play')$$, array[]::text[]);

-- The daily roll-ups: the artist's own, read only.
select tests.each_actor('read the artist''s daily track figures', $$select 1 from public.track_daily_stats where artist_id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('read the artist''s daily country figures',
  $$select 1 from public.country_daily_stats where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('read the artist''s daily figures of embedding sites',
  $$select 1 from public.embed_daily_stats where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('add daily figures',
  $$insert into public.track_daily_stats (artist_id, track_id, day, plays) values (tests.id('artist'), tests.id('track'), '2020-01-01', 1000)$$,
  array[]::text[]);
select tests.each_actor('change daily figures', $$update public.track_daily_stats set plays = 1000 where artist_id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('change daily country figures', $$update public.country_daily_stats set plays = 1000 where artist_id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('change daily figures of embedding sites',
  $$update public.embed_daily_stats set plays = 1000 where artist_id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('delete daily figures', $$delete from public.track_daily_stats where artist_id = tests.id('artist')$$, array[]::text[]);

-- The spec's analytics row: its artist reads it and creates it empty; nobody writes figures into it.
select tests.each_actor('create the artist''s analytics row', $$insert into public.analytics (artist_id) values (tests.id('artist'))$$,
  array['artist']);
select tests.one_actor('create one''s analytics row while banned', 'banned artist',
  $$insert into public.analytics (artist_id) values (tests.id('banned artist'))$$, false);
select tests.each_actor('create an analytics row with figures',
  $$insert into public.analytics (artist_id, revenue) values ((select auth.uid()), '{"total": 1000000, "trend": 0, "history": []}')$$,
  array[]::text[]);
select tests.each_actor('read the artist''s analytics page', $$select 1 where public.artist_analytics(30) is not null$$,
  array['artist', 'other artist']);

select plan((select count(*)::integer from tests.cases) + 3);
select * from tests.proved_cases();
insert into public.analytics (artist_id) values (tests.id('artist'));
select is(tests.attempt('artist', $$update public.analytics set revenue = '{"total": 1000000, "trend": 0, "history": []}' where artist_id = tests.id('artist')$$),
  'refused:42501', 'the artist cannot write their own figures');
select is(tests.attempt('artist', $$select 1 from public.analytics where artist_id = tests.id('artist')$$), 'done:1', 'and reads the row');
select is(tests.attempt('admin', $$select 1 from public.analytics where artist_id = tests.id('artist')$$), 'done:0', 'which nobody else reads');
select * from finish();
rollback;
