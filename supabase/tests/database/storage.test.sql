-- Storage (09_storage.sql): track audio is private to its artist, who alone writes it; each user writes
-- pictures in their own folder; nobody writes in another's. For a visitor, the owner, another artist, a
-- fan, an administrator and a banned artist. (Storage's HTTP API itself: tests/integration/api-access.test.ts.)
begin;
\ir helpers.sql

insert into storage.objects (bucket_id, name) values
  ('tracks', tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'),
  ('artwork', tests.id('artist') || '/1700000000000-aaaaaaaa.png');

select tests.each_actor('upload track audio to the artist''s folder',
  $$insert into storage.objects (bucket_id, name) values ('tracks', tests.id('artist') || '/1700000000001-bbbbbbbb.mp3')$$, array['artist']);
select tests.each_actor('upload track audio to one''s own folder',
  $$insert into storage.objects (bucket_id, name)
    select 'tracks', coalesce(auth.uid()::text, 'nobody') || '/1700000000001-cccccccc.mp3'$$, array['artist', 'other artist']);
select tests.one_actor('upload track audio to one''s own folder while banned', 'banned artist',
  $$insert into storage.objects (bucket_id, name) values ('tracks', tests.id('banned artist') || '/1700000000001-cccccccc.mp3')$$, false);
select tests.each_actor('read the artist''s track audio',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'$$, array['artist']);
select tests.each_actor('replace the artist''s track audio',
  $$update storage.objects set metadata = '{"mimetype": "audio/mpeg"}'
    where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'$$, array['artist']);
select tests.each_actor('delete the artist''s track audio',
  $$delete from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.mp3'$$, array['artist']);
select tests.each_actor('upload artwork to the artist''s folder',
  $$insert into storage.objects (bucket_id, name) values ('artwork', tests.id('artist') || '/1700000000001-bbbbbbbb.png')$$, array['artist']);
select tests.each_actor('upload artwork to one''s own folder',
  $$insert into storage.objects (bucket_id, name)
    select 'artwork', coalesce(auth.uid()::text, 'nobody') || '/1700000000001-cccccccc.png'$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('upload artwork to one''s own folder while banned', 'banned artist',
  $$insert into storage.objects (bucket_id, name) values ('artwork', tests.id('banned artist') || '/1700000000001-cccccccc.png')$$, false);
select tests.each_actor('list the artist''s artwork',
  $$select 1 from storage.objects where bucket_id = 'artwork' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.png'$$, array['artist']);
select tests.each_actor('delete the artist''s artwork',
  $$delete from storage.objects where bucket_id = 'artwork' and name = tests.id('artist') || '/1700000000000-aaaaaaaa.png'$$, array['artist']);

select plan((select count(*)::integer from tests.cases));
select * from tests.proved_cases();
select * from finish();
rollback;
