-- Fans (05_fan.sql): follows, purchases, comments and likes, for a visitor (the anon key), the owner, the
-- track's artist, another artist, an administrator and banned users; and the comment rate the database holds.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Theirs', 'Pop', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('follow', $q$
    insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('fan')) returning id$q$);
  perform tests.remember('banned fan''s follow', $q$
    insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('banned fan')) returning id$q$);
  perform tests.remember('purchase', $q$
    insert into public.purchases (amount, track_id, user_id) values (1.99, tests.id('track'), tests.id('fan')) returning id$q$);
  perform tests.remember('comment', $q$
    insert into public.comments (content, track_id, user_id) values ('Love it', tests.id('track'), tests.id('fan')) returning id$q$);
  perform tests.remember('reply', $q$
    insert into public.comments (content, track_id, user_id, reply_to)
    values ('Thank you', tests.id('track'), tests.id('artist'), tests.id('comment')) returning id$q$);
  perform tests.remember('banned fan''s comment', $q$
    insert into public.comments (content, track_id, user_id) values ('Before the ban', tests.id('track'), tests.id('banned fan')) returning id$q$);
  perform tests.remember('reply to the banned', $q$
    insert into public.comments (content, track_id, user_id, reply_to)
    values ('Agreed', tests.id('track'), tests.id('fan'), tests.id('banned fan''s comment')) returning id$q$);
  insert into public.likes (user_id, track_id) values (tests.id('fan'), tests.id('track'));
end
$$;

-- Follows: public to read; a user follows and unfollows as themselves, never themselves.
select tests.each_actor('read a follow', $$select 1 from public.followers where id = tests.id('follow')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read an artist''s followers', $$select 1 from public.artist_followers where artist_id = tests.id('artist')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('follow as oneself',
  $$insert into public.followers (artist_id, fan_id) values (tests.id('other artist'), (select auth.uid()))$$, array['artist', 'fan', 'admin']);
select tests.one_actor('follow while banned', 'banned fan',
  $$insert into public.followers (artist_id, fan_id) values (tests.id('other artist'), tests.id('banned fan'))$$, false);
select tests.one_actor('follow while banned', 'banned artist',
  $$insert into public.followers (artist_id, fan_id) values (tests.id('other artist'), tests.id('banned artist'))$$, false);
select tests.each_actor('follow as someone else',
  $$insert into public.followers (artist_id, fan_id) values (tests.id('other artist'), tests.id('banned fan'))$$, array[]::text[]);
select tests.one_actor('follow oneself', 'artist', $$insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('artist'))$$,
  false);
select tests.each_actor('end the fan''s follow', $$delete from public.followers where id = tests.id('follow')$$, array['fan']);
select tests.one_actor('end one''s follow while banned', 'banned fan',
  $$delete from public.followers where id = tests.id('banned fan''s follow')$$, false);
select tests.each_actor('count an artist''s followers', $$select 1 where public.get_follower_count(tests.id('artist')) = 2$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);

-- Purchases: the buyer and the track's artist read them; the server alone writes them.
select tests.each_actor('read a purchase', $$select 1 from public.purchases where id = tests.id('purchase')$$, array['artist', 'fan']);
select tests.each_actor('record a purchase',
  $$insert into public.purchases (amount, track_id, user_id) values (0.01, tests.id('track'), tests.id('fan'))$$, array[]::text[]);
select tests.each_actor('change a purchase', $$update public.purchases set amount = 0 where id = tests.id('purchase')$$, array[]::text[]);
select tests.each_actor('delete a purchase', $$delete from public.purchases where id = tests.id('purchase')$$, array[]::text[]);

-- Comments: public on visible tracks; signed-in users write as themselves and delete their own.
select tests.each_actor('read a comment', $$select 1 from public.comments where id = tests.id('comment')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read a comment with its author', $$select 1 from public.track_comments where id = tests.id('comment')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
-- A reply names whom it answers as a reader may see them: never a banned user.
select tests.each_actor('read a reply with the name it answers',
  $$select 1 from public.track_comments where id = tests.id('reply')
    and (reply_to_user_id, reply_to_name, reply_to_kind) = (tests.id('fan'), 'listener', 'fan')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read a reply naming the banned user it answers',
  $$select 1 from public.track_comments where id = tests.id('reply to the banned')
    and (reply_to_user_id is not null or reply_to_name is not null or reply_to_kind is not null)$$, array[]::text[]);
select tests.each_actor('read a reply to the banned, alone',
  $$select 1 from public.track_comments where id = tests.id('reply to the banned') and content = 'Agreed'$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('comment as oneself',
  $$insert into public.comments (content, track_id, user_id) values ('Great', tests.id('track'), (select auth.uid()))$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('comment as the fan',
  $$insert into public.comments (content, track_id, user_id) values ('Again', tests.id('track'), tests.id('fan'))$$, array['fan']);
select tests.one_actor('comment while banned', 'banned fan',
  $$insert into public.comments (content, track_id, user_id) values ('Great', tests.id('track'), tests.id('banned fan'))$$, false);
select tests.one_actor('comment while banned', 'banned artist',
  $$insert into public.comments (content, track_id, user_id) values ('Great', tests.id('track'), tests.id('banned artist'))$$, false);
select tests.each_actor('comment on an upcoming track as the fan',
  $$insert into public.comments (content, track_id, user_id) values ('Early', tests.id('upcoming track'), tests.id('fan'))$$, array[]::text[]);
select tests.each_actor('edit a comment', $$update public.comments set content = 'Edited' where id = tests.id('comment')$$, array[]::text[]);
select tests.each_actor('delete a comment', $$delete from public.comments where id = tests.id('comment')$$, array['fan']);

-- Likes: each user's own, of tracks they can see; a like names only its track.
select tests.each_actor('read a like', $$select 1 from public.likes where user_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('like a released track', $$insert into public.likes (track_id) values (tests.id('other track'))$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('like while banned', 'banned fan', $$insert into public.likes (track_id) values (tests.id('other track'))$$, false);
select tests.each_actor('like an upcoming track', $$insert into public.likes (track_id) values (tests.id('upcoming track'))$$, array['artist']);
select tests.each_actor('like as someone else', $$insert into public.likes (user_id, track_id) values (tests.id('fan'), tests.id('other track'))$$,
  array[]::text[]);
select tests.each_actor('remove the fan''s like', $$delete from public.likes where user_id = tests.id('fan')$$, array['fan']);

-- The fan dashboard answers whoever is signed in, about themselves.
select tests.each_actor('read one''s fan dashboard', $$select public.fan_dashboard()$$, array['artist', 'other artist', 'fan', 'admin']);

select plan((select count(*)::integer from tests.cases) + 3);
select * from tests.proved_cases();
-- Five comments a minute from one user on one track; a sixth waits.
select is(tests.attempt('fan', $$insert into public.comments (content, track_id) select 'Quick ' || n, tests.id('other track') from generate_series(1, 6) n$$),
  'refused:54000', 'six comments at once are refused');
insert into public.comments (content, track_id, user_id) select 'Quick ' || n, tests.id('other track'), tests.id('fan') from generate_series(1, 5) n;
select is(tests.attempt('fan', $$insert into public.comments (content, track_id) values ('One more', tests.id('other track'))$$),
  'refused:54000', 'a sixth in the minute is refused');
select is(tests.attempt('artist', $$insert into public.comments (content, track_id) values ('Mine', tests.id('other track'))$$),
  'done:1', 'while another user still comments');
select * from finish();
rollback;
