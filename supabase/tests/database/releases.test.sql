-- Releases (03_catalog.sql): an album or a single is one row every surface groups tracks by. Who may read
-- and write them, for a visitor, the owner, another artist, a fan, an administrator and a banned owner;
-- and how a release and its tracks follow each other (titles, kinds, prices, an empty release going).
begin;
\ir helpers.sql

-- The artist's album: one track out, one still to come; an album wholly to come; the banned artist's album.
do $$
begin
  perform tests.remember('album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Long Player') returning id$q$);
  perform tests.remember('album track', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Side A', 1, 'Rock', 1.50, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('album track to come', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Side B', 2, 'Rock', 2.00, 'Soon', current_date + 7) returning id$q$);
  perform tests.remember('album to come', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Next Year') returning id$q$);
  perform tests.remember('track of the album to come', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album to come'), tests.id('artist'), 'Teaser', 1, 'Rock', 1.00, 'Soon', current_date + 30) returning id$q$);
  perform tests.remember('banned album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('banned artist'), 'album', 'Unheard') returning id$q$);
  insert into public.tracks (release_id, artist_id, title, genre, price, description, release_date)
  values (tests.id('banned album'), tests.id('banned artist'), 'Gone', 'Rock', 1.00, 'x', current_date - 1);
end
$$;

-- Reading: a release shows once one of its tracks does; an upcoming one is its artist's alone.
select tests.each_actor('read a released album', $$select 1 from public.releases where id = tests.id('album')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read an album still to come', $$select 1 from public.releases where id = tests.id('album to come')$$,
  array['artist']);
select tests.each_actor('read a banned artist''s album', $$select 1 from public.releases where id = tests.id('banned album')$$,
  array[]::text[]);
select tests.each_actor('read a released album''s page',
  $$select 1 from (select public.album_page(tests.id('album')) as page) p where p.page is not null$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read the page of an album still to come',
  $$select 1 from (select public.album_page(tests.id('album to come')) as page) p where p.page is not null$$, array['artist']);
select tests.each_actor('read only the released tracks on an album''s page',
  $$select 1 from (select public.album_page(tests.id('album')) as page) p where jsonb_array_length(p.page -> 'tracks') = 1$$,
  array['visitor', 'other artist', 'fan', 'admin']);

-- Publishing: one's own release and its tracks in one call; nobody publishes as someone else.
select tests.each_actor('publish an album of one''s own',
  $$select public.publish_release('album', 'Fresh', '[{"title": "One", "track_number": 1, "genre": "Rock", "price": 1.29, "description": "x", "release_date": "2026-01-01"},
        {"title": "Two", "track_number": 2, "genre": "Rock", "price": 1.29, "description": "x", "release_date": "2026-01-01"}]', 4.99)$$,
  array['artist', 'other artist']);
select tests.one_actor('publish an album while banned', 'banned artist',
  $$select public.publish_release('album', 'Fresh', '[{"title": "One", "genre": "Rock", "price": 1.29, "description": "x", "release_date": "2026-01-01"}]')$$, false);
select tests.each_actor('add a release for the artist',
  $$insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Not yours')$$, array['artist']);
select tests.each_actor('add a track to the artist''s album',
  $$insert into public.tracks (release_id, artist_id, title, genre, price, description)
    values (tests.id('album'), (select auth.uid()), 'Stowaway', 'Rock', 1.00, 'x')$$, array['artist']);

-- Editing: an album's title and price are its artist's; what it was published as is not anyone's.
select tests.each_actor('rename an album', $$update public.releases set title = 'Renamed' where id = tests.id('album')$$, array['artist']);
select tests.one_actor('rename one''s album while banned', 'banned artist',
  $$update public.releases set title = 'Renamed' where id = tests.id('banned album')$$, false);
select tests.each_actor('price an album', $$update public.releases set price = 2.99 where id = tests.id('album')$$, array['artist']);
select tests.each_actor('save an album track with its album''s title and price',
  $$select 1 where public.save_track(tests.id('album track'), '{"title": "Side A (edit)"}', '{"title": "Retitled", "price": 3.99}')$$,
  array['artist']);
select tests.one_actor('save one''s album track while banned', 'banned artist',
  $$select 1 where public.save_track((select id from public.tracks where release_id = tests.id('banned album')), '{"title": "x"}')$$, false);
-- Replacing a track's files: the owner alone, through the marketplace alone (which judged the bytes), and
-- never while banned; another's folder is refused by the row's own checks.
select tests.each_actor_through_marketplace('replace an album track''s audio and artwork',
  $$select 1 where public.replace_track_files(tests.id('album track'),
    jsonb_build_object('file_url', tests.audio_of('artist'), 'peaks', null, 'duration_seconds', 61.5),
    jsonb_build_object('url', tests.artwork_of('artist'), 'small_url', null, 'width', 1200, 'height', 1200)) is not null$$,
  array['artist']);
select tests.one_actor('replace an album track''s audio without the marketplace', 'artist',
  $$select 1 where public.replace_track_files(tests.id('album track'), jsonb_build_object('file_url', tests.audio_of('artist'))) is not null$$,
  false);
select tests.one_actor('replace a track''s audio with a file in another artist''s folder', 'artist through the marketplace',
  $$select 1 where public.replace_track_files(tests.id('album track'), jsonb_build_object('file_url', tests.audio_of('other artist'))) is not null$$,
  false);
select tests.one_actor('replace one''s track''s artwork while banned', 'banned artist through the marketplace',
  $$select 1 where public.replace_track_files((select id from public.tracks where release_id = tests.id('banned album')), null,
    jsonb_build_object('url', tests.artwork_of('banned artist'))) is not null$$, false);
select tests.each_actor('turn an album into a single', $$update public.releases set kind = 'single' where id = tests.id('album')$$,
  array[]::text[]);
select tests.each_actor('move a track onto another artist''s album',
  $$update public.tracks set release_id = tests.id('banned album') where id = tests.id('album track')$$, array[]::text[]);
select tests.each_actor('delete an album', $$delete from public.releases where id = tests.id('album')$$, array['artist']);
select tests.one_actor('delete one''s album while banned', 'banned artist',
  $$delete from public.releases where id = tests.id('banned album')$$, false);

create table tests.refusals (what text, statement text, code text);
insert into tests.refusals values
  ('an album price under the minimum', $$update public.releases set price = 0.5 where id = tests.id('album')$$, '23514'),
  ('an album price over the maximum', $$update public.releases set price = 1000.01 where id = tests.id('album')$$, '23514'),
  ('a price of its own on a single', $$update public.releases set price = 1.99
     where id = (select release_id from public.tracks where id = tests.id('track'))$$, '23514'),
  ('a 201-character album title', $$update public.releases set title = repeat('t', 201) where id = tests.id('album')$$, '23514'),
  ('a release of another kind', $$update public.releases set kind = 'ep' where id = tests.id('album')$$, '42501'),
  ('a single of two tracks', $$select public.publish_release('single', 'Two sides', '[{"title": "A", "genre": "Rock", "price": 1.29, "description": "x"}, {"title": "B", "genre": "Rock", "price": 1.29, "description": "x"}]')$$,
   '23514'),
  ('an album of no tracks', $$select public.publish_release('album', 'Silence', '[]')$$, '23514'),
  ('an album published with a track over the price limit', $$select public.publish_release('album', 'Dear', '[{"title": "A", "genre": "Rock", "price": 1.29, "description": "x"}, {"title": "B", "genre": "Rock", "price": 5000, "description": "x"}]')$$,
   '23514');

-- When a page last changed (the sitemap's lastmod): each attempt says which pages it touched.
create function tests.pages_touched(statement text)
returns setof text
language plpgsql
as $$
begin
  execute statement;
  return next 'track:' || ((select t.updated_at from public.tracks t where t.id = tests.id('album track')) > '2001-01-01')
    || ',release:' || ((select r.updated_at from public.releases r where r.id = tests.id('album')) > '2001-01-01')
    || ',artist:' || ((select a.updated_at from public.artist_profiles a where a.id = tests.id('artist')) > '2001-01-01');
end
$$;

grant execute on function tests.pages_touched(text) to anon, authenticated;

select plan((select count(*)::integer from tests.cases) + (select count(*)::integer from tests.refusals) + 21);
select * from tests.proved_cases();
select is(tests.attempt('artist', statement), 'refused:' || code, format('the artist''s own write with %s is refused', what))
from tests.refusals;

-- How a release and its tracks follow each other (as the owner's own writes do).
select is((select r.kind || ':' || r.title from public.releases r join public.tracks t on t.release_id = r.id
  where t.id = tests.id('album track')), 'album:Long Player', 'an album track reads its album''s kind and title');
update public.releases set title = 'Long Player (Deluxe)' where id = tests.id('album');
select is((select array_agg(r.title order by t.track_number) from public.tracks t join public.releases r on r.id = t.release_id
  where t.release_id = tests.id('album')), array['Long Player (Deluxe)', 'Long Player (Deluxe)'], 'renaming an album renames it for its tracks');
select is((select r.kind || ':' || r.title from public.releases r join public.tracks t on t.release_id = r.id where t.id = tests.id('track')),
  'single:Released', 'a track published without a release is a single of its own, titled by it');
update public.tracks set title = 'Released (Remastered)' where id = tests.id('track');
select is((select r.title from public.releases r join public.tracks t on t.release_id = r.id where t.id = tests.id('track')),
  'Released (Remastered)', 'a single''s title follows its track''s');
select is((select public.release_price(r) from public.releases r where r.id = tests.id('album')), 3.50::numeric,
  'an album without a price of its own costs the sum of its tracks');
update public.releases set price = 2.99 where id = tests.id('album');
select is((select public.release_price(r) from public.releases r where r.id = tests.id('album')), 2.99::numeric,
  'an album with a price of its own costs that');
select ok(public.save_track(tests.id('album track'), '{"genre": "Jazz"}', '{"title": "Saved Together", "price": null}'),
  'save_track answers true for a track it saved');
select is((select array_agg(t.genre || ':' || t.title || ':' || r.title order by t.track_number) from public.tracks t
  join public.releases r on r.id = t.release_id where t.release_id = tests.id('album')), array['Jazz:Side A:Saved Together', 'Rock:Side B:Saved Together'],
  'saving a track changes what it names, keeps the rest, and renames its album for all its tracks');
select is((select price from public.releases where id = tests.id('album')), null, 'saving an album track with no album price clears it');
delete from public.tracks where release_id = tests.id('album to come');
select is((select count(*)::integer from public.releases where id = tests.id('album to come')), 0,
  'an album whose last track is deleted goes with it');
select is(
  tests.attempt('artist', $$select 1 from (select public.album_page(tests.id('album'))) p$$),
  'done:1', 'the artist reads their album''s page');
-- Feeds (14_feeds.sql) list what a visitor may see: a release once one of its tracks is out, with those
-- tracks alone; nothing of an album wholly to come or of a banned artist.
select is(tests.attempt('visitor', $$select 1 from public.release_feed(tests.id('artist')) f, jsonb_array_elements(f -> 'releases') r
    where r ->> 'id' = tests.id('album')::text and jsonb_array_length(r -> 'tracks') = 1 and r #>> '{tracks,0,title}' = 'Side A'$$),
  'done:1', 'an artist''s feed lists a release with its tracks that are out');
select is(tests.attempt('visitor', $$select 1 from public.release_feed() f, jsonb_array_elements(f -> 'releases') r
    where r ->> 'id' in (tests.id('album to come')::text, tests.id('banned album')::text)$$),
  'done:0', 'the site''s feed lists no album wholly to come and nothing of a banned artist');
select is(tests.attempt('visitor', $$select 1 from public.release_feed(tests.id('banned artist')) f where f -> 'artist' = 'null'::jsonb
    and f -> 'releases' = '[]'::jsonb$$),
  'done:1', 'a banned artist has no feed');
-- The album track, its album and its artist backdated (the writes above touched them).
do $$
begin
  update public.tracks set updated_at = '2000-01-01' where id = tests.id('album track');
  update public.releases set updated_at = '2000-01-01' where id = tests.id('album');
  update public.artist_profiles set updated_at = '2000-01-01' where id = tests.id('artist');
end
$$;

select is(tests.attempt('artist', $$select 1 from tests.pages_touched(
    'update public.tracks set title = ''Side A (remastered)'' where id = tests.id(''album track'')') r
    where r = 'track:true,release:true,artist:true'$$), 'done:1',
  'an edit of a track changes its page, its album''s and its artist''s');
select is(tests.attempt('artist', $$select 1 from tests.pages_touched(
    'update public.tracks set updated_at = ''2030-01-01'' where id = tests.id(''album track'')') r
    where r = 'track:false,release:false,artist:false'$$), 'done:1',
  'a client''s own updated_at is ignored');
select is(tests.attempt('fan', $$select 1 from tests.pages_touched(
    'insert into public.followers (artist_id, fan_id) values (tests.id(''artist''), auth.uid())') r
    where r = 'track:false,release:false,artist:false'$$), 'done:1',
  'a new follower is no change of the artist''s page');
select is(tests.attempt('visitor through the marketplace', $$select 1 from tests.pages_touched(
    'select public.fail_made_file(tests.id(''album track''), ''stream'', null, ''a reason'', true)') r
    where r = 'track:false,release:false,artist:false'$$), 'done:1',
  'a track''s stream failing is no change of its page');
-- Replacing files, as the artist through the marketplace, kept to see what it wrote.
update public.tracks set file_url = tests.id('artist') || '/1700000000000-old.wav' where id = tests.id('album track');
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
select tests.send_marketplace_headers();
select is(public.replace_track_files(tests.id('album track'),
    jsonb_build_object('file_url', tests.id('artist') || '/1800000000000-new.mp3', 'peaks', null, 'duration_seconds', 61.5),
    jsonb_build_object('url', tests.artwork_of('artist'), 'small_url', null, 'width', 1200, 'height', 1200)) ->> 'replaced_master',
  tests.id('artist') || '/1700000000000-old.wav', 'replacing a track''s audio answers the master it replaced');
select is((select array_agg(coalesce(t.file_url, '-') || ':' || coalesce(t.duration_seconds::text, '-') || ':' || t.artwork_url order by t.track_number)
  from public.tracks t where t.release_id = tests.id('album')),
  array[tests.id('artist') || '/1800000000000-new.mp3:61.5:' || tests.artwork_of('artist'), '-:-:' || tests.artwork_of('artist')],
  'new audio is the track''s alone; new artwork is every track''s of its album');
select is((select array_agg(f.format || ':' || f.master_path) from private.made_files f where f.track_id = tests.id('album track')),
  array['stream:' || tests.id('artist') || '/1800000000000-new.mp3'], 'the new audio''s stream is to be made, the old one''s files gone');
select * from finish();
rollback;
