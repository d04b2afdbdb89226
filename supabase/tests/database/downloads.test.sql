-- Downloads (13_downloads.sql): who may take a track's file home, through every door (the download
-- functions, Storage's object rows the signing reads), for a visitor, the artist, another artist, a fan
-- who bought it, an administrator, a banned buyer; and what a download records.
begin;
\ir helpers.sql

do $$
begin
  -- The artist's released track has its master; the fan and the banned fan bought it (before the ban).
  update public.tracks set file_url = tests.id('artist') || '/1700000000000-master.wav' where id = tests.id('track');
  insert into storage.objects (bucket_id, name) values ('tracks', tests.id('artist') || '/1700000000000-master.wav');
  insert into public.purchases (amount, track_id, user_id)
  values (1.99, tests.id('track'), tests.id('fan')), (1.99, tests.id('track'), tests.id('banned fan'));
  perform tests.remember('release', $q$select release_id from public.tracks where id = tests.id('track')$q$);
  -- A second track of the release, which nobody bought: a code for the release gives it.
  insert into public.tracks (artist_id, release_id, title, genre, price, description, release_date)
  values (tests.id('artist'), tests.id('release'), 'Not bought', 'Rock', 1.99, 'Out now', current_date - 1);
  -- Its FLAC is made and stored.
  insert into private.made_files (track_id, format, master_path, path, state)
  values (tests.id('track'), 'flac', tests.id('artist') || '/1700000000000-master.wav',
    tests.id('artist') || '/renditions/1700000000000-master.flac', 'ready');
  insert into storage.objects (bucket_id, name) values ('tracks', tests.id('artist') || '/renditions/1700000000000-master.flac');
  perform tests.remember('banned release', $q$select release_id from public.tracks where id = tests.id('banned artist track')$q$);
  -- Codes for the release: two unused, one disabled.
  insert into public.download_codes (release_id, artist_id, code, disabled_at)
  values (tests.id('release'), tests.id('artist'), 'ABCDEFGHJKMN', null),
    (tests.id('release'), tests.id('artist'), 'PQRSTUVWXYZ2', null),
    (tests.id('release'), tests.id('artist'), '23456789ABCD', now());
end
$$;

-- Redeems `codes` one after another as the caller; their outcomes in order, comma-separated.
create function tests.redeem_outcomes(codes text[])
returns setof text
language plpgsql
as $$
declare
  outcomes text[] := '{}';
  typed text;
begin
  foreach typed in array codes loop
    outcomes := outcomes || (select r.outcome from public.redeem_download_code(typed) r);
  end loop;
  return next array_to_string(outcomes, ',');
end
$$;

grant execute on function tests.redeem_outcomes(text[]) to anon, authenticated;

-- Downloads a track `times` times (as uploaded, or in `format`; or only asks whether it is ready, without
-- `take`), then reads the download events the caller may see of it.
create function tests.download_events_after(times integer, format text default 'original', take boolean default true)
returns setof integer
language plpgsql
as $$
begin
  for i in 1..times loop
    perform public.download_track(tests.id('track'), 'GB', format, take);
  end loop;
  return query select 1 from public.analytics_events e where e.type = 'download' and e.track_id = tests.id('track');
end
$$;

grant execute on function tests.download_events_after(integer, text, boolean) to anon, authenticated;

-- Asks for the track's MP3 twice, then reads the download events of it: whether each call asked for it to
-- be made, and the events.
create function tests.mp3_requests()
returns setof text
language plpgsql
as $$
declare
  asked text[] := '{}';
begin
  for i in 1..2 loop
    asked := asked || (select d.requested::text || ':' || d.state from public.download_track(tests.id('track'), 'GB', 'mp3') d);
  end loop;
  return next array_to_string(asked, ',') || ',events:'
    || (select count(*) from public.analytics_events e where e.type = 'download' and e.track_id = tests.id('track'));
end
$$;

grant execute on function tests.mp3_requests() to anon, authenticated;

select tests.each_actor_through_marketplace('download a bought track', $$select 1 from public.download_track(tests.id('track'))$$,
  array['artist', 'fan']);
select tests.one_actor('download a bought track while banned', 'banned fan through the marketplace',
  $$select 1 from public.download_track(tests.id('track'))$$, false);
select tests.each_actor_through_marketplace('download a release one bought from', $$select 1 from public.download_release(tests.id('release'))$$,
  array['artist', 'fan']);
select tests.each_actor_through_marketplace('download a track bought by no one', $$select 1 from public.download_track(tests.id('upcoming track'))$$,
  array[]::text[]);
select tests.each_actor('read a bought track''s master in Storage',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-master.wav'$$,
  array['artist']);
select tests.each_actor_through_marketplace('read a bought track''s master in Storage for its buyer',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-master.wav'$$,
  array['artist', 'fan']);
select tests.one_actor('read a bought track''s master in Storage while banned', 'banned fan through the marketplace',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-master.wav'$$, false);
-- Made formats: asked for by those who may download; made and named by the marketplace's queue alone.
select tests.each_actor_through_marketplace('ask for a track''s MP3', $$select 1 from public.download_track(tests.id('track'), null, 'mp3') d
    where d.state = 'preparing' and d.requested and d.path is null$$, array['artist', 'fan']);
-- Whatever marks a file "preparing" also queues it: only the marketplace, which queues what it asked for.
select tests.one_actor('ask for a track''s MP3 directly', 'fan',
  $$select 1 from public.download_track(tests.id('track'), null, 'mp3') d where d.requested$$, false);
select tests.one_actor('take a bought track directly', 'fan', $$select 1 from public.download_track(tests.id('track'))$$, false);
select tests.each_actor_through_marketplace('take a track''s FLAC', $$select 1 from public.download_track(tests.id('track'), null, 'flac') d
    where d.state = 'ready' and d.path = tests.id('artist') || '/renditions/1700000000000-master.flac'$$, array['artist', 'fan']);
select tests.each_actor('read a track''s download files directly', $$select 1 from private.made_files$$, array[]::text[]);
-- Made and named by the marketplace's queue: made_files.test.sql tries the job, finish and fail functions.
select tests.one_actor('read a download file''s job', 'visitor through the marketplace',
  $$select 1 from public.made_file_job(tests.id('track'), 'flac') j
    where j.state = 'ready' and j.master_path like '%master.wav'$$, true);
select tests.each_actor('read a bought track''s made FLAC in Storage',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/renditions/1700000000000-master.flac'$$,
  array['artist']);
select tests.each_actor_through_marketplace('read a bought track''s made FLAC in Storage for its buyer',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/renditions/1700000000000-master.flac'$$,
  array['artist', 'fan']);
select tests.one_actor('read a bought track''s made FLAC in Storage while banned', 'banned fan through the marketplace',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/renditions/1700000000000-master.flac'$$, false);
select tests.each_actor('list one''s purchases by release',
  $$select 1 from public.owned_releases() o where jsonb_array_length(o -> 'releases') = 1$$, array['fan']);

-- Download codes: the artist's to make, read and disable; a fan's to redeem, once.
select tests.each_actor('read a release''s codes', $$select 1 from public.download_codes where release_id = tests.id('release')$$,
  array['artist']);
select tests.each_actor('read a release''s codes page', $$select 1 from public.release_codes(tests.id('release')) c
    where (c ->> 'total')::integer = 3 and (c #>> '{codes,0,code}') is not null$$,
  array['artist']);
select tests.each_actor('make codes for a release', $$select 1 where public.create_download_codes(tests.id('release'), 3) = 3$$,
  array['artist']);
select tests.one_actor('make codes for one''s release while banned', 'banned artist',
  $$select 1 where public.create_download_codes(tests.id('banned release'), 1) = 1$$, false);
select tests.each_actor('disable an unused code', $$update public.download_codes set disabled_at = now() where code = 'ABCDEFGHJKMN'$$,
  array['artist']);
select tests.each_actor('redeem a code', $$select 1 from public.redeem_download_code('abcd-efgh-jkmn') r where r.outcome = 'redeemed'$$,
  array['fan']);
select tests.one_actor('redeem a code while banned', 'banned fan',
  $$select 1 from public.redeem_download_code('ABCDEFGHJKMN') r where r.outcome = 'redeemed'$$, false);
select tests.each_actor('write a code''s redeemer', $$update public.download_codes set redeemed_by = auth.uid(), redeemed_at = now()
    where code = 'PQRSTUVWXYZ2'$$, array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 25);
select * from tests.proved_cases();

select is(tests.attempt('fan through the marketplace', 'select * from tests.download_events_after(2)'), 'done:1',
  'a buyer''s download is one download event, however often it is taken the same day');
select is(tests.attempt('artist through the marketplace', 'select * from tests.download_events_after(2)'), 'done:0',
  'an artist taking their own track is not a download');
select is(tests.attempt('fan through the marketplace', $$select 1 from public.download_track(tests.id('track')) d
    where d.path = tests.id('artist') || '/1700000000000-master.wav' and d.title = 'Released' and d.artist_name = 'Owner'$$),
  'done:1', 'a download names its file, title and artist');
select is(tests.attempt('fan through the marketplace', $$select 1 from tests.mp3_requests() r where r = 'true:preparing,false:preparing,events:0'$$), 'done:1',
  'an MP3 is asked for once, not again while it is being made, and nothing is downloaded until it is ready');
select is(tests.attempt('fan through the marketplace', $$select * from tests.download_events_after(1, 'flac')$$), 'done:1',
  'a ready FLAC taken is a download');
select is(tests.attempt('fan through the marketplace', $$select * from tests.download_events_after(1, 'flac', false)$$), 'done:0',
  'asking whether a file is ready takes nothing');
select is(tests.attempt('fan through the marketplace', $$select public.download_track(tests.id('track'), null, 'ogg')$$), 'refused:22023',
  'a download is in one of the formats on offer');
select ok(private.is_lossless_master('a/b.WAV') and not private.is_lossless_master('a/b.mp3') and not private.is_lossless_master(null),
  'a WAV master is lossless, an MP3 is not');
select is(tests.attempt('fan through the marketplace', $$select public.download_track(tests.id('other artist'))$$), 'refused:42501',
  'what is no track is not the caller''s to download');
select is(tests.attempt('fan', $$select 1 from public.owned_releases() o
    where o #>> '{releases,0,title}' = 'Released' and o #>> '{releases,0,tracks,0,title}' = 'Released'
      and (o #>> '{releases,0,tracks,0,has_audio}')::boolean$$),
  'done:1', 'Purchased lists the release with the tracks bought of it');
select is(tests.attempt('fan', $$select 1 from tests.redeem_outcomes(array['ABCDEFGHJKMN', 'abcd efgh jkmn', 'PQRSTUVWXYZ2']) o
    where o = 'redeemed,used,owned'$$), 'done:1',
  'a code works once: the second time it is used; another code for a release the fan owns whole is refused unused');
select is(tests.attempt('fan', $$select 1 from tests.redeem_outcomes(array['23456789ABCD']) o where o = 'unknown'$$), 'done:1',
  'a disabled code is no code');
select is(tests.attempt('fan', $$select 1 from tests.redeem_outcomes(array_fill('ZZZZZZZZZZZZ'::text, array[10]) || 'PQRSTUVWXYZ2'::text) o
    where o = repeat('unknown,', 10) || 'too_many'$$), 'done:1',
  'guessing is counted, wrong or right: the eleventh attempt in an hour is refused, even with a good code');
select is(tests.attempt('artist', $$select public.redeem_download_code('PQRSTUVWXYZ2')$$), 'refused:42501',
  'codes are redeemed with a fan account');
select is(tests.attempt('artist', $$select public.create_download_codes(tests.id('release'), 1001)$$), 'refused:23514',
  'at most 1000 codes are made at a time');
select is(tests.attempt('artist', $$select 1 from public.download_codes where code !~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{12}$'
    and public.create_download_codes(tests.id('release'), 50) = 50$$), 'done:0',
  'made codes are 12 characters without look-alikes');

-- Redeemed by a fan who owns none of it (their claims, this session): $0 purchases marked with the code,
-- owned, no sale.
do $$
begin
  perform tests.new_user('second fan', '{"role": "fan", "username": "second-listener"}');
  perform set_config('request.jwt.claims', json_build_object('sub', tests.id('second fan'), 'role', 'authenticated')::text, true);
end
$$;
select is((select r.outcome || ':' || r.title from public.redeem_download_code('PQRSTUVWXYZ2') r), 'redeemed:Released',
  'a redeemed code answers its release');
do $$
begin
  perform set_config('request.jwt.claims', '', true);
end
$$;
select is((select string_agg(p.amount::text || ':' || (p.download_code_id is not null)::text, ',') from public.purchases p
    where p.user_id = tests.id('second fan')), '0.00:true,0.00:true',
  'the release joins the collection as $0 purchases (one a track) marked as a code');
select ok(private.may_download(tests.id('track')) is false, 'nobody signed in downloads');
select is((select redeemed_by from public.download_codes where code = 'PQRSTUVWXYZ2'), tests.id('second fan'),
  'the code names who redeemed it');
select is((select coalesce(sum(sales), 0)::integer from public.track_daily_stats where track_id = tests.id('track')), 2,
  'a code is no sale: the two bought copies are the sales');
-- An artist makes at most hourly_bound('download codes') codes an hour.
insert into public.download_codes (release_id, artist_id, code)
select tests.id('release'), tests.id('artist'), private.new_download_code() from generate_series(1, private.hourly_bound('download codes'))
on conflict (code) do nothing;
select is(tests.attempt('artist', $$select public.create_download_codes(tests.id('release'), 1)$$), 'refused:54000',
  'an artist past the codes of the hour is refused');
delete from public.download_codes where created_at > now() - interval '1 minute' and redeemed_at is null
  and code not in ('ABCDEFGHJKMN', 'PQRSTUVWXYZ2');
-- An account takes at most hourly_bound('album zips') zips an hour.
insert into private.album_zips (user_id) select tests.id('fan') from generate_series(1, private.hourly_bound('album zips'));
select is(tests.attempt('fan through the marketplace', $$select 1 from public.download_release(tests.id('release'))$$),
  'refused:54000', 'an account past its album zips of the hour is refused');
delete from private.album_zips;
-- A new master: its FLAC is made again, and the old one is no longer the buyer's to read.
do $$
begin
  update public.tracks set file_url = tests.id('artist') || '/1800000000000-new.wav' where id = tests.id('track');
end
$$;
select is(tests.attempt('fan through the marketplace', $$select 1 from public.download_track(tests.id('track'), null, 'flac') d
    where d.requested and d.state = 'preparing' and d.path is null$$), 'done:1',
  'a track given a new master has its FLAC made again');
do $$
begin
  -- The fan asks for it (for good this time: attempts are undone).
  perform set_config('request.jwt.claims', json_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
  perform tests.send_marketplace_headers();
  perform public.download_track(tests.id('track'), null, 'flac');
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
end
$$;
select is(tests.attempt('fan through the marketplace', $$select 1 from storage.objects
    where bucket_id = 'tracks' and name = tests.id('artist') || '/renditions/1700000000000-master.flac'$$), 'done:0',
  'the FLAC of the old master is no longer the buyer''s to read');
select * from finish();
rollback;
