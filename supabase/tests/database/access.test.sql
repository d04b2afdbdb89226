-- Who may read and write each table and view of `public`, and each storage bucket: a visitor (the anon
-- key), the owner, another artist, a fan and an administrator, for select, insert, update and delete.
-- "Allowed" means the statement read or wrote a row; denied is a refusal or nothing touched (RLS).
begin;
\ir helpers.sql

-- What they own, besides the artist's released track (helpers.sql).
do $$
begin
  perform tests.remember('upcoming track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Upcoming', 'Rock', 1.99, 'Soon', current_date + 7) returning id$q$);
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Theirs', 'Pop', 1.99, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('merch', $q$
    insert into public.merch (artist_id, title, price, description) values (tests.id('artist'), 'Poster', 15, 'A2') returning id$q$);
  perform tests.remember('purchase', $q$
    insert into public.purchases (amount, track_id, user_id) values (1.99, tests.id('track'), tests.id('fan')) returning id$q$);
  perform tests.remember('play', $q$
    insert into public.analytics_events (type, track_id, artist_id, user_id, country, embedded_on)
    values ('play', tests.id('track'), tests.id('artist'), tests.id('fan'), 'GB', 'https://blog.example') returning id$q$);
  perform tests.remember('comment', $q$
    insert into public.comments (content, track_id, user_id) values ('Love it', tests.id('track'), tests.id('fan')) returning id$q$);
  perform tests.remember('news', $q$
    insert into public.news_items (title, content) values ('Hello', 'World') returning id$q$);
  perform tests.remember('draft news', $q$
    insert into public.news_items (title, content, active) values ('Draft', 'Soon', false) returning id$q$);
  perform tests.remember('follow', $q$
    insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('fan')) returning id$q$);
  insert into public.likes (user_id, track_id) values (tests.id('fan'), tests.id('track'));
  insert into public.store_settings (artist_id) values (tests.id('artist'));
  insert into storage.objects (bucket_id, name) values
    ('tracks', tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'),
    ('artwork', tests.id('artist') || '/1700000000000-aaaaaaaa.png');
  -- The released track and the artist's profile show that picture, its size not yet known.
  update public.tracks set artwork_url = 'http://localhost/storage/v1/object/public/artwork/' || tests.id('artist') || '/1700000000000-aaaaaaaa.png'
  where id = tests.id('track');
  update public.artist_profiles
  set profile_image_url = 'http://localhost/storage/v1/object/public/artwork/' || tests.id('artist') || '/1700000000000-aaaaaaaa.png'
  where id = tests.id('artist');
end
$$;

create table tests.cases (subject text, actor text, statement text, allowed boolean);

-- One case per actor: `allowed` names those who may.
create function tests.each_actor(subject text, statement text, allowed text[])
returns void
language sql
as $$
  insert into tests.cases
  select subject, actor, statement, actor = any (allowed)
  from unnest(array['visitor', 'artist', 'other artist', 'fan', 'admin']) as actor
$$;

-- Profiles: public to read, each their own to change; made by the sign-up trigger alone, never deleted here.
select tests.each_actor('read an artist profile', $$select 1 from public.artist_profiles where id = tests.id('artist')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('change an artist profile', $$update public.artist_profiles set short_description = 'x' where id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('add an artist profile', $$insert into public.artist_profiles (id, artist_name) values (tests.id('fan'), 'Impostor')$$,
  array[]::text[]);
select tests.each_actor('delete an artist profile', $$delete from public.artist_profiles where id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('read a fan profile', $$select 1 from public.fan_profiles where id = tests.id('fan')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('change a fan profile', $$update public.fan_profiles set bio = 'x' where id = tests.id('fan')$$, array['fan']);
select tests.each_actor('delete a fan profile', $$delete from public.fan_profiles where id = tests.id('fan')$$, array[]::text[]);

-- Payout settings: their owner's alone.
select tests.each_actor('read an artist''s payout settings', $$select 1 from public.artist_payout_settings where artist_id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('change an artist''s payout settings',
  $$update public.artist_payout_settings set paypal_email = 'new@tests.example' where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('delete an artist''s payout settings', $$delete from public.artist_payout_settings where artist_id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('read a fan''s payout settings', $$select 1 from public.fan_payout_settings where fan_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('change a fan''s payout settings',
  $$update public.fan_payout_settings set payment_settings = '{"default_currency": "EUR"}' where fan_id = tests.id('fan')$$, array['fan']);

-- Tracks and merch: released tracks and all merch are public; an artist writes their own.
select tests.each_actor('read a released track', $$select 1 from public.tracks where id = tests.id('track')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read an upcoming track', $$select 1 from public.tracks where id = tests.id('upcoming track')$$, array['artist']);
select tests.each_actor('publish a track as the artist',
  $$insert into public.tracks (artist_id, title, genre, price, description) values (tests.id('artist'), 'New', 'Rock', 1.99, 'x')$$,
  array['artist']);
select tests.each_actor('change a track', $$update public.tracks set title = 'Renamed' where id = tests.id('track')$$, array['artist']);
-- A picture's size is read from its bytes by the Worker alone (which sends its secret; these do not),
-- like the file it belongs to; forgetting it needs nothing.
select tests.each_actor('set a track''s artwork size', $$update public.tracks set artwork_width = 9000, artwork_height = 1 where id = tests.id('track')$$,
  array[]::text[]);
select tests.each_actor('forget a track''s artwork size',
  $$update public.tracks set artwork_width = null, artwork_height = null where id = tests.id('track')$$, array['artist']);
select tests.each_actor('set an artist''s picture size',
  $$update public.artist_profiles set profile_image_width = 9000, profile_image_height = 1 where id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('delete a track', $$delete from public.tracks where id = tests.id('upcoming track')$$, array['artist']);
select tests.each_actor('read merch', $$select 1 from public.merch where id = tests.id('merch')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('add merch as the artist',
  $$insert into public.merch (artist_id, title, price, description) values (tests.id('artist'), 'Tee', 20, 'Cotton')$$, array['artist']);
select tests.each_actor('change merch', $$update public.merch set title = 'Big poster' where id = tests.id('merch')$$, array['artist']);
select tests.each_actor('delete merch', $$delete from public.merch where id = tests.id('merch')$$, array['artist']);

-- Followers: public to read; a user follows and unfollows as themselves.
select tests.each_actor('read a follow', $$select 1 from public.followers where id = tests.id('follow')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('follow as the fan',
  $$insert into public.followers (artist_id, fan_id) values (tests.id('other artist'), tests.id('fan'))$$, array['fan']);
select tests.each_actor('end the fan''s follow', $$delete from public.followers where id = tests.id('follow')$$, array['fan']);

-- Store settings and analytics: the artist's own.
select tests.each_actor('read store settings', $$select 1 from public.store_settings where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('change store settings', $$update public.store_settings set discounts = '[]' where artist_id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('create store settings for the other artist',
  $$insert into public.store_settings (artist_id) values (tests.id('other artist'))$$, array['other artist']);
select tests.each_actor('delete store settings', $$delete from public.store_settings where artist_id = tests.id('artist')$$, array[]::text[]);
select tests.each_actor('create the artist''s analytics row', $$insert into public.analytics (artist_id) values (tests.id('artist'))$$,
  array['artist']);

-- Purchases and plays: the buyer or listener, and the track's artist; written by the server alone.
select tests.each_actor('read a purchase', $$select 1 from public.purchases where id = tests.id('purchase')$$, array['artist', 'fan']);
select tests.each_actor('record a purchase',
  $$insert into public.purchases (amount, track_id, user_id) values (0.01, tests.id('track'), tests.id('fan'))$$, array[]::text[]);
select tests.each_actor('change a purchase', $$update public.purchases set amount = 0 where id = tests.id('purchase')$$, array[]::text[]);
select tests.each_actor('delete a purchase', $$delete from public.purchases where id = tests.id('purchase')$$, array[]::text[]);
select tests.each_actor('read a play', $$select 1 from public.analytics_events where id = tests.id('play')$$, array['artist', 'fan']);
select tests.each_actor('write a play directly',
  $$insert into public.analytics_events (type, track_id, artist_id) values ('play', tests.id('track'), tests.id('artist'))$$, array[]::text[]);
select tests.each_actor('delete a play', $$delete from public.analytics_events where id = tests.id('play')$$, array[]::text[]);
select tests.each_actor('read the artist''s daily track figures', $$select 1 from public.track_daily_stats where artist_id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('read the artist''s daily country figures',
  $$select 1 from public.country_daily_stats where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('read the artist''s daily figures of embedding sites',
  $$select 1 from public.embed_daily_stats where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('change daily figures', $$update public.track_daily_stats set plays = 1000 where artist_id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('change daily figures of embedding sites',
  $$update public.embed_daily_stats set plays = 1000 where artist_id = tests.id('artist')$$, array[]::text[]);

-- Comments: public on visible tracks; signed-in users write as themselves and delete their own.
select tests.each_actor('read a comment', $$select 1 from public.comments where id = tests.id('comment')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('comment as the fan',
  $$insert into public.comments (content, track_id, user_id) values ('Again', tests.id('track'), tests.id('fan'))$$, array['fan']);
select tests.each_actor('comment on an upcoming track as the fan',
  $$insert into public.comments (content, track_id, user_id) values ('Early', tests.id('upcoming track'), tests.id('fan'))$$, array[]::text[]);
select tests.each_actor('edit a comment', $$update public.comments set content = 'Edited' where id = tests.id('comment')$$, array[]::text[]);
select tests.each_actor('delete a comment', $$delete from public.comments where id = tests.id('comment')$$, array['fan']);

-- Likes: each user's own.
select tests.each_actor('read a like', $$select 1 from public.likes where user_id = tests.id('fan')$$, array['fan']);
-- (a like names only its track: its user is always the one who likes)
select tests.each_actor('like a released track', $$insert into public.likes (track_id) values (tests.id('other track'))$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('like an upcoming track', $$insert into public.likes (track_id) values (tests.id('upcoming track'))$$, array['artist']);
select tests.each_actor('like as someone else', $$insert into public.likes (user_id, track_id) values (tests.id('fan'), tests.id('other track'))$$,
  array[]::text[]);
select tests.each_actor('remove the fan''s like', $$delete from public.likes where user_id = tests.id('fan')$$, array['fan']);

-- News: active items are public; administrators read, write and delete all.
select tests.each_actor('read active news', $$select 1 from public.news_items where id = tests.id('news')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read inactive news', $$select 1 from public.news_items where id = tests.id('draft news')$$, array['admin']);
select tests.each_actor('add news', $$insert into public.news_items (title, content) values ('New', 'Item')$$, array['admin']);
select tests.each_actor('change news', $$update public.news_items set title = 'Changed' where id = tests.id('news')$$, array['admin']);
select tests.each_actor('delete news', $$delete from public.news_items where id = tests.id('news')$$, array['admin']);

-- The audit log: administrators read it; nobody rewrites it through the API.
select tests.each_actor('read the audit log', $$select 1 from public.audit_log$$, array['admin']);
select tests.each_actor('write the audit log', $$insert into public.audit_log (actor_id, action, summary) values (tests.id('admin'), 'news.add', 'x')$$,
  array[]::text[]);
select tests.each_actor('change the audit log', $$update public.audit_log set summary = 'x'$$, array[]::text[]);
select tests.each_actor('delete the audit log', $$delete from public.audit_log$$, array[]::text[]);

-- The catalog's views answer from what the reader may see.
select tests.each_actor('read the artist''s followers', $$select 1 from public.artist_followers where artist_id = tests.id('artist')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read a comment with its author', $$select 1 from public.track_comments where id = tests.id('comment')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read the genre counts', $$select 1 from public.genre_counts where genre = 'Rock'$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);

-- Storage: track audio is private to its artist, who alone writes it; each user writes artwork in their
-- own folder; nobody writes in another's.
select tests.each_actor('upload track audio to the artist''s folder',
  $$insert into storage.objects (bucket_id, name) values ('tracks', tests.id('artist') || '/1700000000001-bbbbbbbb.mp3')$$, array['artist']);
select tests.each_actor('upload track audio to one''s own folder',
  $$insert into storage.objects (bucket_id, name)
    select 'tracks', coalesce(auth.uid()::text, 'nobody') || '/1700000000001-cccccccc.mp3'$$, array['artist', 'other artist']);
select tests.each_actor('read the artist''s track audio',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'$$, array['artist']);
select tests.each_actor('delete the artist''s track audio',
  $$delete from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'$$, array['artist']);
select tests.each_actor('upload artwork to the artist''s folder',
  $$insert into storage.objects (bucket_id, name) values ('artwork', tests.id('artist') || '/1700000000001-bbbbbbbb.png')$$, array['artist']);
select tests.each_actor('upload artwork to one''s own folder',
  $$insert into storage.objects (bucket_id, name)
    select 'artwork', coalesce(auth.uid()::text, 'nobody') || '/1700000000001-cccccccc.png'$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('list the artist''s artwork',
  $$select 1 from storage.objects where bucket_id = 'artwork' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.png'$$, array['artist']);
select tests.each_actor('delete the artist''s artwork',
  $$delete from storage.objects where bucket_id = 'artwork' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.png'$$, array['artist']);

select plan((select count(*)::integer from tests.cases));
select ok(
  tests.allowed(actor, statement) = allowed,
  format('%s: %s as %s', subject, case when allowed then 'allowed' else 'denied' end, actor))
from tests.cases
order by subject, actor;
select * from finish();
rollback;
