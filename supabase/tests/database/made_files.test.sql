-- Made files (12_made_files.sql): only the marketplace's media queue reads a job and names a made file
-- (a track's stream, a download format); its artist asks for a failed one again through the marketplace;
-- a listener is handed the stream's path and never the master's, which only the track's artist streams
-- while the stream is prepared. Tried as a visitor, the owner, another artist, a fan, an administrator, a
-- banned artist and through the marketplace.
begin;
\ir helpers.sql

do $$
begin
  -- The released track with a master (set as the operator: the file check is the Worker's, tried in catalog.test.sql).
  update public.tracks set file_url = tests.id('artist') || '/1700000000000-aaaaaaaa.wav' where id = tests.id('track');
  update public.tracks set file_url = tests.id('banned artist') || '/1700000000000-bbbbbbbb.wav' where id = tests.id('banned artist track');
end
$$;

-- The made files: nobody reads or writes them through the API, the marketplace included (it goes through the functions).
select tests.each_actor('read the made files directly', $$select 1 from private.made_files$$, array[]::text[]);
select tests.each_actor('name a track''s stream directly',
  $$update private.made_files set path = tests.id('artist') || '/renditions/x.mp3', state = 'ready' where track_id = tests.id('track')$$,
  array[]::text[]);
select tests.one_actor('name a track''s stream directly', 'artist through the marketplace',
  $$update private.made_files set path = tests.id('artist') || '/renditions/x.mp3', state = 'ready' where track_id = tests.id('track')$$,
  false);

-- The queue's functions answer the marketplace alone, whoever signed in.
select tests.each_actor('read a made-file job', $$select 1 from public.made_file_job(tests.id('track'), 'stream')$$, array[]::text[]);
select tests.one_actor('read a made-file job', 'visitor through the marketplace',
  $$select 1 from public.made_file_job(tests.id('track'), 'stream') j
    where j.title = 'Released' and j.artist_name = 'Owner' and j.master_path like '%aaaaaaaa.wav'$$, true);
select tests.one_actor('read a made-file job of a track without audio', 'visitor through the marketplace',
  $$select 1 from public.made_file_job(tests.id('upcoming track'), 'stream')$$, false);
select tests.one_actor('read a made-file job nobody asked for', 'visitor through the marketplace',
  $$select 1 from public.made_file_job(tests.id('track'), 'flac')$$, false);
select tests.each_actor('finish a made file',
  $$select 1 where public.finish_made_file(tests.id('track'), 'stream', tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
    tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3',
    1000, 123, 52000, 456, 44100, 3.25)$$, array[]::text[]);
select tests.one_actor('finish a made file', 'visitor through the marketplace',
  $$select 1 where public.finish_made_file(tests.id('track'), 'stream', tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
    tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3',
    1000, 123, 52000, 456, 44100, 3.25)$$, true);
select tests.one_actor('finish a made file of a master the track no longer has', 'visitor through the marketplace',
  $$select 1 where public.finish_made_file(tests.id('track'), 'stream', tests.id('artist') || '/1600000000000-cccccccc.wav',
    tests.id('artist') || '/renditions/1600000000000-cccccccc.128k.mp3',
    1000, 123, 52000, 456, 44100, 3.25)$$, false);
select tests.one_actor('finish a made file in another artist''s folder', 'visitor through the marketplace',
  $$select 1 where public.finish_made_file(tests.id('track'), 'stream', tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
    tests.id('other artist') || '/renditions/x.128k.mp3',
    1000, 123, 52000, 456, 44100, 3.25)$$, false);
select tests.each_actor('fail a made file',
  $$select 1 where public.fail_made_file(tests.id('track'), 'stream', tests.id('artist') || '/1700000000000-aaaaaaaa.wav', 'broken', true)$$,
  array[]::text[]);
select tests.one_actor('fail a made file', 'visitor through the marketplace',
  $$select 1 where public.fail_made_file(tests.id('track'), 'stream', tests.id('artist') || '/1700000000000-aaaaaaaa.wav', 'broken', true)$$,
  true);
select tests.each_actor('list the tracks waiting for a stream', $$select 1 from public.stream_backlog('.128k.mp3')$$, array[]::text[]);
select tests.one_actor('list the tracks waiting for a stream', 'visitor through the marketplace',
  $$select 1 from public.stream_backlog('.128k.mp3')$$, true);

-- Retry: the track's own artist, through the marketplace, once it has failed.
do $$
begin
  update private.made_files set state = 'failed', failure = 'broken' where track_id = tests.id('track');
  update private.made_files set state = 'failed', failure = 'broken' where track_id = tests.id('banned artist track');
end
$$;
select tests.each_actor('retry a failed stream', $$select 1 where public.retry_made_file(tests.id('track'), 'stream')$$, array[]::text[]);
select tests.one_actor('retry a failed stream', 'artist through the marketplace',
  $$select 1 where public.retry_made_file(tests.id('track'), 'stream')$$, true);
select tests.one_actor('retry another artist''s failed stream', 'other artist through the marketplace',
  $$select 1 where public.retry_made_file(tests.id('track'), 'stream')$$, false);
select tests.one_actor('retry a failed stream while banned', 'banned artist through the marketplace',
  $$select 1 where public.retry_made_file(tests.id('banned artist track'), 'stream')$$, false);

-- Why it failed is its artist's to read, nobody else's.
select tests.each_actor('read why a stream failed',
  $$select 1 from public.track_stream(tests.id('track')) where failure = 'broken'$$, array['artist']);

-- Before the stream is made: the master streams to its artist alone.
select tests.each_actor('stream the master before the stream is made',
  $$select 1 from public.track_stream(tests.id('track')) where path = tests.id('artist') || '/1700000000000-aaaaaaaa.wav'$$, array['artist']);
select tests.each_actor('stream a track whose stream is being made',
  $$select 1 from public.track_stream(tests.id('track')) where path is not null$$, array['artist']);

-- A failed stream is no longer on its way, for anyone who asks.
select tests.each_actor('see a failed stream as being prepared',
  $$select 1 from public.track_stream(tests.id('track')) where preparing$$, array[]::text[]);

-- A master's path is its artist's and the marketplace's: a visitor's REST reads every column but it.
select tests.each_actor('read a track''s master path',
  $$select 1 from public.tracks where id = tests.id('track') and file_url is not null$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read a track''s master format',
  $$select 1 from public.tracks where id = tests.id('track') and master_format = 'wav'$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
-- The MP3 bitrate a master warrants is the marketplace's to set (its stream's job measures the master).
select tests.each_actor('set a track''s MP3 bitrate', $$update public.tracks set mp3_kbps = 320 where id = tests.id('track')$$,
  array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 16);
select * from tests.proved_cases();

-- Once made, everyone who sees the track streams it, its artist too; nobody gets the master.
update private.made_files
set path = tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3', state = 'ready', failure = null
where track_id = tests.id('track') and format = 'stream';
select is(tests.attempt(actor, $$select 1 from public.track_stream(tests.id('track'))
    where path = tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.128k.mp3'$$), 'done:1',
  format('the stream plays to %s', actor))
from unnest(array['visitor', 'artist', 'other artist', 'fan', 'admin']) as actor;
select is(tests.attempt('visitor', $$select 1 from public.track_stream(tests.id('track')) where path like '%.wav'$$), 'done:0',
  'a visitor is never handed the master');
select is(tests.attempt('visitor', $$select 1 from public.track_stream(tests.id('upcoming track'))$$), 'done:0',
  'nor anything of a track not out yet');

-- A new master starts the stream afresh (the old one is not served for it), and its download files are
-- made again when next asked for.
insert into private.made_files (track_id, format, master_path, path, state)
values (tests.id('track'), 'flac', tests.id('artist') || '/1700000000000-aaaaaaaa.wav',
  tests.id('artist') || '/renditions/1700000000000-aaaaaaaa.flac', 'ready');
update public.tracks set file_url = tests.id('artist') || '/1800000000000-dddddddd.wav' where id = tests.id('track');
select is((select array_agg((format, master_path, path, state, failure)::text) from private.made_files where track_id = tests.id('track')),
  array[format('(stream,%s/1800000000000-dddddddd.wav,,preparing,)', tests.id('artist'))], 'a new master starts its made files afresh');

-- What an MP3 download is made at: no more than the master warrants, at the master's own sample rate.
select is(private.download_mp3_kbps(false, 1200000, 1200, 8000), 8, 'a 20-minute 1.2 MB master at 8 kHz makes an 8 kbps MP3, not 320');
select is(private.download_mp3_kbps(false, 4800000, 300, 44100), 128, 'a 128 kbps master makes a 128 kbps MP3');
select is(private.download_mp3_kbps(false, 1200000, 1200, 44100), 32, 'at 44.1 kHz, MP3 takes no less than 32 kbps');
select is(private.download_mp3_kbps(true, null, null, 44100), 320, 'a lossless master makes MP3 at 320 kbps');
select is(private.download_mp3_kbps(true, null, null, 22050), 160, 'at 22.05 kHz, MP3 carries at most 160 kbps');
select is(private.download_mp3_kbps(false, null, 300, 44100), null, 'a lossy master not measured yet promises no bitrate');

-- An account causes at most hourly_bound('media jobs') jobs an hour: the one past it is refused, and marks nothing.
insert into public.tracks (artist_id, title, genre, price, description, release_date, file_url)
select tests.id('artist'), 'Many ' || n, 'Rock', 1.99, 'Many', current_date - 1,
  tests.id('artist') || '/1700000000' || lpad(n::text, 3, '0') || '-bbbbbbbb.wav'
from generate_series(1, private.hourly_bound('media jobs')) as n;
update private.made_files f set requested_by = tests.id('artist'), requested_at = now()
from public.tracks t where t.id = f.track_id and t.title like 'Many %';
select is(tests.attempt('artist through the marketplace', $$select 1 from public.download_track(tests.id('track'), null, 'mp3')$$),
  'refused:54000', 'an account past its jobs of the hour is refused');
-- The bound counts files asked to be made, not files served: past it (this one made, the account's job
-- past the bound), a file made already is still handed over.
insert into private.made_files (track_id, format, master_path, path, state, requested_by)
values (tests.id('track'), 'mp3', tests.id('artist') || '/1800000000000-dddddddd.wav',
  tests.id('artist') || '/renditions/1800000000000-dddddddd.320k.mp3', 'ready', tests.id('artist'));
select is(tests.attempt('artist through the marketplace', $$select 1 from public.download_track(tests.id('track'), null, 'mp3')$$),
  'done:1', 'past its jobs of the hour, an account still takes a file made already');
select * from finish();
rollback;
