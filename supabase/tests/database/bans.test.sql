-- A banned account's things leave every public read while the ban lasts: its artist or fan page, its
-- tracks (and so their comments and playlist places), merchandise, public playlists, its comments and
-- follows. The owner still reads their own; administrators still see the profile to lift the ban. The
-- ban is Auth's (auth.users.banned_until), however it was made; lifting it, or its end, brings all back.
begin;
\ir helpers.sql

select plan(28);

do $$
begin
  perform tests.remember('merch', $q$
    insert into public.merch (artist_id, title, price, description)
    values (tests.id('artist'), 'Shirt', 10, 'x') returning id$q$);
  perform tests.remember('playlist', $q$
    insert into public.playlists (owner_id, name, is_public) values (tests.id('fan'), 'Mix', true) returning id$q$);
  perform tests.remember('comment', $q$
    insert into public.comments (content, track_id, user_id)
    values ('Lovely', tests.id('track'), tests.id('fan')) returning id$q$);
  insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('fan'));
  insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('playlist'), tests.id('track'));
  insert into public.likes (user_id, track_id) values (tests.id('fan'), tests.id('track'));
  -- A track of an artist who is not banned, so only the fan's own ban stands in the way below.
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Elsewhere', 'Pop', 1, 'x', current_date - 1) returning id$q$);
  insert into public.playlist_tracks (playlist_id, track_id) values (tests.id('playlist'), tests.id('other track'));
  insert into public.likes (user_id, track_id) values (tests.id('fan'), tests.id('other track'));
end
$$;

-- Banned the way Auth's admin API bans: one update of banned_until.
update auth.users set banned_until = now() + interval '30 days' where id in (tests.id('artist'), tests.id('fan'));

select is(tests.attempt('visitor', $$select from public.artist_profiles where id = tests.id('artist')$$), 'done:0',
  'a visitor does not see a banned artist''s page');
select is(tests.attempt('other artist', $$select from public.artist_profiles where id = tests.id('artist')$$), 'done:0',
  'nor does another user');
select is(tests.attempt('visitor', $$select from public.tracks where id = tests.id('track')$$), 'done:0',
  'a banned artist''s released track is gone for visitors');
select is(tests.attempt('other artist', $$select from public.tracks where id = tests.id('track')$$), 'done:0',
  'and for other users');
select is(tests.attempt('visitor', $$select from public.merch where id = tests.id('merch')$$), 'done:0',
  'their merchandise is gone');
select is(tests.attempt('visitor', $$select from jsonb_array_elements(public.artist_directory() -> 'artists') card
  where card ->> 'id' = tests.id('artist')::text$$), 'done:0',
  'they leave the artist directory');
select is(tests.attempt('visitor', $$select from public.fan_profiles where id = tests.id('fan')$$), 'done:0',
  'a banned fan''s page is gone');
select is(tests.attempt('visitor', $$select from public.playlists where id = tests.id('playlist')$$), 'done:0',
  'a banned fan''s public playlist is gone');
select is(tests.attempt('other artist', $$select from public.playlists where id = tests.id('playlist')$$), 'done:0',
  'for signed-in users too');
select is(tests.attempt('visitor', $$select from public.comments where id = tests.id('comment')$$), 'done:0',
  'a banned fan''s comment is gone');
select is(tests.attempt('visitor', $$select from public.followers where fan_id = tests.id('fan')$$), 'done:0',
  'a banned fan leaves follower lists');
select is(tests.attempt('other artist', $$select from private.account_bans$$), 'refused:42501',
  'no user reads the bans themselves');

-- A session that outlives the ban changes nothing, deletions included (every write policy asks).
select is(tests.attempt('fan', $$delete from public.playlists where id = tests.id('playlist')$$), 'done:0',
  'a banned fan cannot delete their playlist');
select is(tests.attempt('fan', $$update public.playlist_tracks set position = 3 where track_id = tests.id('other track')$$),
  'refused:42501', 'nor reorder it');
select is(tests.attempt('fan', $$delete from public.playlist_tracks where track_id = tests.id('other track')$$), 'done:0',
  'nor take a track out of it');
select is(tests.attempt('fan', $$delete from public.likes where track_id = tests.id('other track')$$), 'done:0',
  'nor remove a like');

-- Their own, and the administrators'.
select is(tests.attempt('artist', $$select from public.tracks where id = tests.id('track')$$), 'done:1',
  'the banned artist still reads their own track (their session may outlive the ban by minutes)');
select is(tests.attempt('fan', $$select from public.playlists where id = tests.id('playlist')$$), 'done:1',
  'the banned fan still reads their own playlist');
select is(tests.attempt('admin', $$select from public.artist_profiles where id = tests.id('artist')$$), 'done:1',
  'administrators still see the banned artist''s profile, to lift the ban');
select is(tests.attempt('admin', $$select from public.fan_profiles where id = tests.id('fan')$$), 'done:1',
  'and the banned fan''s');

-- Another artist's things are untouched.
select is(tests.attempt('visitor', $$select from public.artist_profiles where id = tests.id('other artist')$$), 'done:1',
  'an artist who is not banned is still seen');

-- The genre figures count no banned artist's track (helpers.sql's banned artist has a Rock track too).
select is(tests.attempt('visitor', $$select from public.genre_counts where genre = 'Rock'$$), 'done:0',
  'a banned artist''s tracks leave the genre counts');

-- A ban that ended by itself.
update auth.users set banned_until = now() - interval '1 second' where id = tests.id('fan');
select is(tests.attempt('visitor', $$select from public.fan_profiles where id = tests.id('fan')$$), 'done:1',
  'a ban that has ended hides nothing');
select is((select count(*)::integer from private.account_bans where user_id = tests.id('fan')), 0,
  'and leaves no row behind');

-- Lifted, as the admin API lifts it.
update auth.users set banned_until = null where id = tests.id('artist');
select is(tests.attempt('visitor', $$select from public.tracks where id = tests.id('track')$$), 'done:1',
  'a lifted ban brings the track back');
select is(tests.attempt('visitor', $$select from public.playlist_tracks where track_id = tests.id('track')$$), 'done:1',
  'and its place in a playlist');
select is((select (artist_count, track_count)::text from public.genre_counts where genre = 'Rock'), '(1,1)',
  'and its count in its genre, beside the artist still banned');

-- An expired ban that is still on the books hides nothing either.
insert into private.account_bans values (tests.id('other artist'), now() - interval '1 minute');
select is(tests.attempt('visitor', $$select from public.artist_profiles where id = tests.id('other artist')$$), 'done:1',
  'a ban whose time has passed hides nothing');

select * from finish();
rollback;
