-- Catalog (03_catalog.sql, 03_genres.sql): who may read and write tracks and merchandise, for a visitor
-- (the anon key), the owner, another artist, a fan, an administrator, a banned owner, and the owner through
-- the marketplace (the Worker's secret), which alone may name a stored file. The catalog's rules hold for
-- the owner's own writes too: the API cannot go around the forms.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('merch', $q$
    insert into public.merch (artist_id, title, price, description) values (tests.id('artist'), 'Poster', 15, 'A2') returning id$q$);
end
$$;

-- Tracks: released ones are public, upcoming ones their artist's; an artist writes their own.
select tests.each_actor('read a released track', $$select 1 from public.tracks where id = tests.id('track')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read an upcoming track', $$select 1 from public.tracks where id = tests.id('upcoming track')$$, array['artist']);
select tests.each_actor('publish a track as the artist',
  $$insert into public.tracks (artist_id, title, genre, price, description) values (tests.id('artist'), 'New', 'Rock', 1.99, 'x')$$,
  array['artist']);
select tests.one_actor('publish a track without an artist profile', 'fan',
  $$insert into public.tracks (artist_id, title, genre, price, description) values (tests.id('fan'), 'New', 'Rock', 1.99, 'x')$$, false);
select tests.one_actor('publish a track while banned', 'banned artist',
  $$insert into public.tracks (artist_id, title, genre, price, description) values (tests.id('banned artist'), 'New', 'Rock', 1.99, 'x')$$, false);
select tests.each_actor('change a track', $$update public.tracks set title = 'Renamed' where id = tests.id('track')$$, array['artist']);
select tests.one_actor('change one''s track while banned', 'banned artist',
  $$update public.tracks set title = 'Renamed' where id = tests.id('banned artist track')$$, false);
select tests.each_actor('delete a track', $$delete from public.tracks where id = tests.id('upcoming track')$$, array['artist']);
select tests.one_actor('delete one''s track while banned', 'banned artist',
  $$delete from public.tracks where id = tests.id('banned artist track')$$, false);

-- Stored files: a row names only files in its owner's folder, and only through the marketplace, which
-- checks their bytes first. Otherwise an artist could publish a track naming another artist's private
-- audio and have the audio URL function sign it. Forgetting a file, or a picture's size, needs nothing.
select tests.each_actor('publish a track naming the artist''s audio',
  $$insert into public.tracks (artist_id, title, genre, price, description, file_url)
    values (tests.id('artist'), 'New', 'Rock', 1.99, 'x', tests.audio_of('artist'))$$, array[]::text[]);
select tests.one_actor('publish a track naming one''s audio', 'artist through the marketplace',
  $$insert into public.tracks (artist_id, title, genre, price, description, file_url)
    values (tests.id('artist'), 'New', 'Rock', 1.99, 'x', tests.audio_of('artist'))$$, true);
select tests.one_actor('publish a track naming another artist''s audio', 'other artist through the marketplace',
  $$insert into public.tracks (artist_id, title, genre, price, description, file_url)
    values (tests.id('other artist'), 'New', 'Rock', 1.99, 'x', tests.audio_of('artist'))$$, false);
select tests.one_actor('publish a track reaching another artist''s audio through ..', 'other artist through the marketplace',
  $$insert into public.tracks (artist_id, title, genre, price, description, file_url)
    values (tests.id('other artist'), 'New', 'Rock', 1.99, 'x', tests.id('other artist') || '/../' || tests.audio_of('artist'))$$, false);
select tests.each_actor('point a track at the artist''s audio',
  $$update public.tracks set file_url = tests.audio_of('artist') where id = tests.id('track')$$, array[]::text[]);
select tests.one_actor('point one''s track at one''s audio', 'artist through the marketplace',
  $$update public.tracks set file_url = tests.audio_of('artist') where id = tests.id('track')$$, true);
select tests.one_actor('point one''s track at another artist''s audio', 'artist through the marketplace',
  $$update public.tracks set file_url = tests.audio_of('other artist') where id = tests.id('track')$$, false);
select tests.each_actor('give a track the artist''s artwork',
  $$update public.tracks set artwork_url = tests.artwork_of('artist') where id = tests.id('track')$$, array[]::text[]);
select tests.one_actor('give one''s track one''s artwork', 'artist through the marketplace',
  $$update public.tracks set artwork_url = tests.artwork_of('artist') where id = tests.id('track')$$, true);
select tests.one_actor('give one''s track another artist''s artwork', 'artist through the marketplace',
  $$update public.tracks set artwork_url = tests.artwork_of('other artist') where id = tests.id('track')$$, false);
select tests.one_actor('give one''s track artwork from another site', 'artist through the marketplace',
  $$update public.tracks set artwork_url = 'https://elsewhere.example/cover.jpeg' where id = tests.id('track')$$, false);
select tests.each_actor('set a track''s artwork size', $$update public.tracks set artwork_width = 9000, artwork_height = 1 where id = tests.id('track')$$,
  array[]::text[]);
select tests.each_actor('forget a track''s artwork size',
  $$update public.tracks set artwork_width = null, artwork_height = null where id = tests.id('track')$$, array['artist']);

-- Merchandise: public; its artist's to write.
select tests.each_actor('read merch', $$select 1 from public.merch where id = tests.id('merch')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('add merch as the artist',
  $$insert into public.merch (artist_id, title, price, description) values (tests.id('artist'), 'Tee', 20, 'Cotton')$$, array['artist']);
select tests.one_actor('add merch while banned', 'banned artist',
  $$insert into public.merch (artist_id, title, price, description) values (tests.id('banned artist'), 'Tee', 20, 'Cotton')$$, false);
select tests.each_actor('change merch', $$update public.merch set title = 'Big poster' where id = tests.id('merch')$$, array['artist']);
select tests.each_actor('picture merch with the artist''s picture',
  $$update public.merch set image_url = tests.artwork_of('artist') where id = tests.id('merch')$$, array[]::text[]);
select tests.one_actor('picture one''s merch with one''s picture', 'artist through the marketplace',
  $$update public.merch set image_url = tests.artwork_of('artist') where id = tests.id('merch')$$, true);
select tests.one_actor('add merch with another artist''s picture', 'other artist through the marketplace',
  $$insert into public.merch (artist_id, title, price, description, image_url)
    values (tests.id('other artist'), 'Tee', 20, 'Cotton', tests.artwork_of('artist'))$$, false);
select tests.each_actor('delete merch', $$delete from public.merch where id = tests.id('merch')$$, array['artist']);

-- The genre figures answer everyone, from what is released.
select tests.each_actor('read the genre counts', $$select 1 from public.genre_counts where genre = 'Rock'$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);

create table tests.refused_changes (what text, change text);
insert into tests.refused_changes values
  ('a genre outside the list', $$genre = 'NotAGenre'$$),
  ('an escaped-markup genre', $$genre = 'Zz<b>Probe</b>Genre'$$),
  ('a 2 MB description', $$description = repeat('d', 2 * 1024 * 1024)$$),
  ('a price under the minimum', $$price = 0.5$$),
  ('a price of 99,999,999.99', $$price = 99999999.99$$),
  ('a release date of 0001-01-01', $$release_date = '0001-01-01'$$),
  ('a track number of 1,000', $$track_number = 1000$$);

select plan((select count(*)::integer from tests.cases) + (select count(*)::integer from tests.refused_changes));
select * from tests.proved_cases();
select is(tests.attempt('artist', format('update public.tracks set %s where id = tests.id(''track'')', change)), 'refused:23514',
  format('the artist''s own track with %s is refused', what))
from tests.refused_changes;
select * from finish();
rollback;
