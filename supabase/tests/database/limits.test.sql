-- An artist's catalogue has bounds no API request can go around: at most 100 tracks (an album's), 100
-- releases, 10 merch items and 5 comments a request; 5,000 tracks and 500 merch items an artist; 5 comments
-- a minute from one user on one track and 20 in all. The operator's own SQL (seeds, backfills) is not counted.
begin;
\ir helpers.sql

select plan(13);

select is(
  tests.attempt('artist', $$insert into public.tracks (artist_id, title, genre, price, description)
    select tests.id('artist'), 'Bulk ' || n, 'Rock', 1, 'x' from generate_series(1, 101) n$$),
  'refused:54000', 'one request publishes at most 100 tracks');
select is(
  tests.attempt('artist', $$insert into public.tracks (artist_id, title, genre, price, description)
    select tests.id('artist'), 'Album ' || n, 'Rock', 1, 'x' from generate_series(1, 100) n$$),
  'done:100', 'an album of 100 goes in whole');
select is(
  tests.attempt('artist', $$insert into public.tracks (artist_id, title, genre, price, description)
    select tests.id('artist'), 'Bulk ' || n, 'Rock', 1, 'x' from generate_series(1, 40000) n$$),
  'refused:54000', 'forty thousand in one request are refused');

-- Filled to the bound by the operator's SQL, which is not counted.
insert into public.tracks (artist_id, title, genre, price, description)
  select tests.id('other artist'), 'Catalogue ' || n, 'Pop', 1, 'x' from generate_series(1, 5000) n;
select is(
  tests.attempt('other artist', $$insert into public.tracks (artist_id, title, genre, price, description)
    values (tests.id('other artist'), 'One more', 'Pop', 1, 'x')$$),
  'refused:54000', 'an artist has at most 5,000 tracks');
select is(
  tests.attempt('artist', $$insert into public.tracks (artist_id, title, genre, price, description)
    values (tests.id('artist'), 'Still room', 'Pop', 1, 'x')$$),
  'done:1', 'another artist still publishes');

insert into public.merch (artist_id, title, price, description)
  select tests.id('other artist'), 'Shirt ' || n, 10, 'x' from generate_series(1, 500) n;
select is(
  tests.attempt('other artist', $$insert into public.merch (artist_id, title, price, description)
    values (tests.id('other artist'), 'One more shirt', 10, 'x')$$),
  'refused:54000', 'an artist has at most 500 merch items');

select is(
  tests.attempt('fan', $$insert into public.comments (content, track_id) select 'Comment ' || n, tests.id('track') from generate_series(1, 5) n$$),
  'done:5', 'five comments a minute on a track');
select is(
  tests.attempt('fan', $$insert into public.comments (content, track_id) select 'Comment ' || n, tests.id('track') from generate_series(1, 6) n$$),
  'refused:54000', 'not six, even in one request');
insert into public.comments (content, track_id, user_id)
  select 'Earlier ' || n, tests.id('track'), tests.id('fan') from generate_series(1, 5) n;
select is(
  tests.attempt('fan', $$insert into public.comments (content, track_id) values ('Sixth', tests.id('track'))$$),
  'refused:54000', 'nor a sixth after five in the minute');

select is(
  tests.attempt('artist', $$insert into public.releases (artist_id, kind, title)
    select tests.id('artist'), 'album', 'Bulk ' || n from generate_series(1, 4900) n$$),
  'refused:54000', 'one request writes at most 100 releases, not 4,900');
select is(
  tests.attempt('artist', $$insert into public.merch (artist_id, title, price, description)
    select tests.id('artist'), 'Bulk ' || n, 10, 'x' from generate_series(1, 11) n$$),
  'refused:54000', 'nor 11 merch items');
select is(
  tests.attempt('fan', $$insert into public.comments (content, track_id)
    select 'Flood ' || n, t.id from generate_series(1, 12000) n cross join lateral (
      select id from public.tracks where id = tests.id('track')) t$$),
  'refused:54000', 'nor 12,000 comments');
insert into public.tracks (artist_id, title, genre, price, description, release_date)
  select tests.id('artist'), 'Commented ' || n, 'Rock', 1, 'x', current_date - 1 from generate_series(1, 5) n;
insert into public.comments (content, track_id, user_id)
  select 'Across ' || n, t.id, tests.id('other artist')
  from public.tracks t cross join generate_series(1, 4) n where t.title like 'Commented %';
select is(
  tests.attempt('other artist', $$insert into public.comments (content, track_id) values ('Twenty-first', tests.id('track'))$$),
  'refused:54000', 'nor a 21st comment in a minute across tracks');

select * from finish();
rollback;
