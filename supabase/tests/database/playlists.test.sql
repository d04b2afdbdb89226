-- Playlists: who may read and write them and their tracks (a visitor, the owner, an artist, another
-- user, an administrator), and the rules the database keeps: a track once per playlist, released tracks
-- only, at most 200 playlists a user and 500 tracks a playlist, reordering in one go, private pages
-- answering no one else, deleted tracks leaving quietly.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('second track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Second', 'Pop', 1.99, 'Out now', current_date - 2) returning id$q$);
  perform tests.remember('third track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Third', 'Pop', 1.99, 'Out now', current_date - 3) returning id$q$);
  perform tests.remember('private playlist', $q$
    insert into public.playlists (owner_id, name) values (tests.id('fan'), 'Mine alone') returning id$q$);
  perform tests.remember('public playlist', $q$
    insert into public.playlists (owner_id, name, is_public) values (tests.id('fan'), 'For everyone', true) returning id$q$);
  -- The artist's own upcoming track in the artist's public playlist: only the artist sees it listed.
  perform tests.remember('artist playlist', $q$
    insert into public.playlists (owner_id, name, is_public) values (tests.id('artist'), 'Coming up', true) returning id$q$);
  insert into public.playlist_tracks (playlist_id, track_id) values
    (tests.id('private playlist'), tests.id('track')),
    (tests.id('public playlist'), tests.id('track')),
    (tests.id('public playlist'), tests.id('second track')),
    (tests.id('public playlist'), tests.id('third track')),
    (tests.id('artist playlist'), tests.id('upcoming track')),
    (tests.id('artist playlist'), tests.id('track'));
end
$$;

select tests.each_actor('read a private playlist', $$select 1 from public.playlists where id = tests.id('private playlist')$$, array['fan']);
select tests.each_actor('read a public playlist', $$select 1 from public.playlists where id = tests.id('public playlist')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('make a playlist', $$insert into public.playlists (name) values ('New')$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('make a playlist while banned', 'banned fan', $$insert into public.playlists (name) values ('New')$$, false);
select tests.one_actor('make a playlist while banned', 'banned artist', $$insert into public.playlists (name) values ('New')$$, false);
select tests.each_actor('make a playlist for someone else', $$insert into public.playlists (owner_id, name) values (tests.id('fan'), 'Theirs')$$,
  array[]::text[]);
select tests.each_actor('rename a playlist', $$update public.playlists set name = 'Renamed' where id = tests.id('public playlist')$$, array['fan']);
select tests.each_actor('give a playlist away', $$update public.playlists set owner_id = tests.id('artist') where id = tests.id('public playlist')$$,
  array[]::text[]);
select tests.each_actor('delete a playlist', $$delete from public.playlists where id = tests.id('public playlist')$$, array['fan']);
select tests.each_actor('read the tracks of a private playlist',
  $$select 1 from public.playlist_tracks where playlist_id = tests.id('private playlist')$$, array['fan']);
select tests.each_actor('read the tracks of a public playlist',
  $$select 1 from public.playlist_tracks where playlist_id = tests.id('public playlist')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('add a track to a playlist',
  $$insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('private playlist'), tests.id('second track'))$$, array['fan']);
select tests.each_actor('add an unreleased track of another artist',
  $$insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('private playlist'), tests.id('upcoming track'))$$,
  array[]::text[]);
select tests.each_actor('reorder a playlist''s tracks by hand',
  $$update public.playlist_tracks set position = 9 where playlist_id = tests.id('public playlist') and track_id = tests.id('track')$$, array['fan']);
select tests.each_actor('read the row of an unreleased track in a public playlist',
  $$select 1 from public.playlist_tracks where playlist_id = tests.id('artist playlist') and track_id = tests.id('upcoming track')$$,
  array['artist']);
select tests.each_actor('move a track of a playlist',
  $$select public.move_playlist_track(tests.id('public playlist'), tests.id('third track'), 1)$$, array['fan']);
select tests.each_actor('remove a track from a playlist',
  $$delete from public.playlist_tracks where playlist_id = tests.id('public playlist')$$, array['fan']);
select tests.each_actor('read a private playlist''s page', $$select 1 where public.playlist_page(tests.id('private playlist')) is not null$$,
  array['fan']);
select tests.each_actor('list one''s playlists', $$select 1 where jsonb_array_length(public.my_playlists()) > 0$$, array['artist', 'fan']);

-- Acts as the fan for the statements that follow, until `reset role`.
create function tests.act_as_fan()
returns void
language sql
as $$
  select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
  select set_config('role', 'authenticated', true);
$$;

create function tests.page_titles(page jsonb)
returns text[]
language sql
as $$
  select coalesce(array_agg(track ->> 'title' order by ordinal), '{}') from jsonb_array_elements(page -> 'tracks') with ordinality as t (track, ordinal)
$$;

select plan((select count(*)::integer from tests.cases) + 15);
select * from tests.proved_cases();

select is(
  tests.attempt('fan', $$insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('public playlist'), tests.id('track'))$$),
  'refused:23505', 'a track is in a playlist once');
-- Places stay distinct and within the playlist's size, whoever writes them.
select is(
  tests.attempt('fan', $$update public.playlist_tracks set position = 1 where playlist_id = tests.id('public playlist')$$),
  'refused:23505', 'two tracks cannot share a place');
select is(
  tests.attempt('fan', $$update public.playlist_tracks set position = 2147483647 where playlist_id = tests.id('public playlist') and track_id = tests.id('track')$$),
  'refused:23514', 'a place is within the playlist''s 500');
select is(
  tests.attempt('visitor', $$select public.playlist_page(tests.id('artist playlist')) -> 'tracks'$$),
  'done:1', 'a visitor reads a public playlist''s page');
select is(
  tests.page_titles((select public.playlist_page(tests.id('artist playlist')))),
  array['Upcoming', 'Released'], 'its owner sees every track of it, in order');

-- The page as others see it: only released tracks.
select tests.act_as_fan();
select is(tests.page_titles(public.playlist_page(tests.id('artist playlist'))), array['Released'], 'others see only its released tracks');
select is(public.playlist_page(tests.id('private playlist')) ->> 'name', 'Mine alone', 'the owner reads their private playlist''s page');
select public.move_playlist_track(tests.id('public playlist'), tests.id('third track'), 1);
select is(tests.page_titles(public.playlist_page(tests.id('public playlist'))), array['Third', 'Released', 'Second'], 'a track moves to the top');
select public.move_playlist_track(tests.id('public playlist'), tests.id('third track'), 99);
select is(tests.page_titles(public.playlist_page(tests.id('public playlist'))), array['Released', 'Second', 'Third'], 'and past the end, last');
-- The last place taken by hand, a new track still goes last: the places are closed up first.
update public.playlist_tracks set position = 500 where playlist_id = tests.id('public playlist') and track_id = tests.id('third track');
delete from public.playlist_tracks where playlist_id = tests.id('public playlist') and track_id = tests.id('second track');
insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('public playlist'), tests.id('second track'));
select is(
  (select array_agg(position order by position) from public.playlist_tracks where playlist_id = tests.id('public playlist')),
  array[1, 2, 3], 'after the last place was taken, places are closed up and the new track goes last');
select is(
  (select (p ->> 'track_count')::int from jsonb_array_elements(public.my_playlists()) p where p ->> 'name' = 'For everyone'),
  3, 'Your Playlists counts a playlist''s tracks');
reset role;

-- A deleted track leaves the playlist quietly.
delete from public.tracks where id = tests.id('second track');
select is(tests.page_titles(public.playlist_page(tests.id('public playlist'))), array['Released', 'Third'], 'a deleted track leaves the playlist');

-- At most 200 playlists a user, and 500 tracks a playlist.
insert into public.playlists (owner_id, name) select tests.id('other artist'), 'Mix ' || n from generate_series(1, 200) n;
select is(tests.attempt('other artist', $$insert into public.playlists (name) values ('One too many')$$), 'refused:54000',
  'a user has at most 200 playlists');
insert into public.tracks (artist_id, title, genre, price, description, release_date)
  select tests.id('other artist'), 'Filler ' || n, 'Pop', 1, 'x', current_date - 1 from generate_series(1, 499) n;
insert into public.playlist_tracks (playlist_id, track_id)
  select tests.id('private playlist'), t.id from public.tracks t where t.title like 'Filler %';
select is((select count(*)::int from public.playlist_tracks where playlist_id = tests.id('private playlist')), 500, 'a playlist fills to 500');
select is(
  tests.attempt('fan', $$insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('private playlist'), tests.id('third track'))$$),
  'refused:54000', 'and holds no more');

select * from finish();
rollback;
