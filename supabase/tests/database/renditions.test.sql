-- Streaming renditions (12_renditions.sql): only the marketplace's rendition queue reads a job and writes a
-- track's rendition; its artist asks for a failed one again through the marketplace; a listener is handed
-- the rendition's path and never the master's, which only the track's artist streams while the rendition is
-- prepared. Tried as a visitor, the owner, another artist, a fan, an administrator, a banned artist and
-- through the marketplace.
begin;
\ir helpers.sql

do $$
begin
  -- The released track with a master (set as the operator: the file check is the Worker's, tried in catalog.test.sql).
  update public.tracks set file_url = tests.id('artist') || '/1700000000000-aaaaaaaa.wav' where id = tests.id('track');
  update public.tracks set file_url = tests.id('banned artist') || '/1700000000000-bbbbbbbb.wav' where id = tests.id('banned artist track');
end
$$;

-- Writing the rendition columns: nobody through the API, the marketplace included (it goes through the functions).
select tests.each_actor('name a track''s rendition directly',
  $$update public.tracks set rendition_path = tests.id('artist') || '/renditions/x.mp3' where id = tests.id('track')$$, array[]::text[]);
select tests.each_actor('change a track''s stream state directly',
  $$update public.tracks set rendition_state = 'preparing', rendition_failure = null where id = tests.id('track')$$, array[]::text[]);
select tests.one_actor('name a track''s rendition directly', 'artist through the marketplace',
  $$update public.tracks set rendition_path = tests.id('artist') || '/renditions/x.mp3' where id = tests.id('track')$$, false);
select tests.each_actor('publish a track with its stream ready',
  $$insert into public.tracks (artist_id, title, genre, price, description, rendition_state)
    values ((select auth.uid()), 'Ready', 'Rock', 1.99, 'Ready at once', 'failed')$$, array[]::text[]);

-- The queue's functions answer the marketplace alone, whoever signed in.
select tests.each_actor('read a rendition job', $$select 1 from public.rendition_job(tests.id('track'))$$, array[]::text[]);
select tests.one_actor('read a rendition job', 'visitor through the marketplace', $$select 1 from public.rendition_job(tests.id('track'))$$, true);
select tests.one_actor('read a rendition job of a track without audio', 'visitor through the marketplace',
  $$select 1 from public.rendition_job(tests.id('upcoming track'))$$, false);
select tests.each_actor('finish a rendition',
  $$select 1 where public.finish_rendition(tests.id('track'), tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
    tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3')$$, array[]::text[]);
select tests.one_actor('finish a rendition', 'visitor through the marketplace',
  $$select 1 where public.finish_rendition(tests.id('track'), tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
    tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3')$$, true);
select tests.one_actor('finish a rendition of a master the track no longer has', 'visitor through the marketplace',
  $$select 1 where public.finish_rendition(tests.id('track'), tests.id('artist') || '/1600000000000-cccccccc.wav',
    tests.id('artist') || '/renditions/1600000000000-cccccccc.128k.mp3')$$, false);
select tests.one_actor('finish a rendition in another artist''s folder', 'visitor through the marketplace',
  $$select 1 where public.finish_rendition(tests.id('track'), tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
    tests.id('other artist') || '/renditions/x.128k.mp3')$$, false);
select tests.each_actor('fail a rendition',
  $$select 1 where public.fail_rendition(tests.id('track'), tests.id('artist') || '/1700000000000-aaaaaaaa.wav', 'broken', true)$$,
  array[]::text[]);
select tests.one_actor('fail a rendition', 'visitor through the marketplace',
  $$select 1 where public.fail_rendition(tests.id('track'), tests.id('artist') || '/1700000000000-aaaaaaaa.wav', 'broken', true)$$, true);
select tests.each_actor('list the tracks waiting for a rendition', $$select 1 from public.rendition_backlog('.128k.mp3')$$, array[]::text[]);
select tests.one_actor('list the tracks waiting for a rendition', 'visitor through the marketplace',
  $$select 1 from public.rendition_backlog('.128k.mp3')$$, true);

-- Retry: the track's own artist, through the marketplace, once it has failed.
do $$
begin
  update public.tracks set rendition_state = 'failed', rendition_failure = 'broken' where id = tests.id('track');
end
$$;
select tests.each_actor('retry a failed rendition', $$select 1 where public.retry_rendition(tests.id('track'))$$, array[]::text[]);
select tests.one_actor('retry a failed rendition', 'artist through the marketplace',
  $$select 1 where public.retry_rendition(tests.id('track'))$$, true);
select tests.one_actor('retry another artist''s failed rendition', 'other artist through the marketplace',
  $$select 1 where public.retry_rendition(tests.id('track'))$$, false);
select tests.one_actor('retry a failed rendition while banned', 'banned artist through the marketplace',
  $$select 1 where public.retry_rendition(tests.id('banned artist track'))$$, false);

-- Before the rendition: the master streams to its artist alone.
select tests.each_actor('stream the master before the rendition is made',
  $$select 1 from public.track_stream(tests.id('track')) where path = tests.id('artist') || '/1700000000000-aaaaaaaa.wav'$$, array['artist']);
select tests.each_actor('stream a track whose rendition is being made',
  $$select 1 from public.track_stream(tests.id('track')) where path is not null$$, array['artist']);

-- A failed stream is no longer on its way, for anyone who asks.
select tests.each_actor('see a failed stream as being prepared',
  $$select 1 from public.track_stream(tests.id('track')) where preparing$$, array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 8);
select * from tests.proved_cases();

-- Once made, everyone who sees the track streams the rendition, its artist too; nobody gets the master.
update public.tracks
set rendition_path = tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3', rendition_state = 'ready'
where id = tests.id('track');
select is(tests.attempt(actor, $$select 1 from public.track_stream(tests.id('track'))
    where path = tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3'$$), 'done:1',
  format('the rendition streams to %s', actor))
from unnest(array['visitor', 'artist', 'other artist', 'fan', 'admin']) as actor;
select is(tests.attempt('visitor', $$select 1 from public.track_stream(tests.id('track')) where path like '%.wav'$$), 'done:0',
  'a visitor is never handed the master');
select is(tests.attempt('visitor', $$select 1 from public.track_stream(tests.id('upcoming track'))$$), 'done:0',
  'nor anything of a track not out yet');

-- A new master starts the stream afresh: the old rendition is not served for it.
update public.tracks set file_url = tests.id('artist') || '/1800000000000-dddddddd.wav' where id = tests.id('track');
select is((select (rendition_path, rendition_state, rendition_failure)::text from public.tracks where id = tests.id('track')),
  '(,preparing,)', 'a new master clears the rendition');
select * from finish();
rollback;
