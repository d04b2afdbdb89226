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
end
$$;

-- Downloads a track `times` times, then reads the download events the caller may see of it.
create function tests.download_events_after(times integer)
returns setof integer
language plpgsql
as $$
begin
  for i in 1..times loop
    perform public.download_track(tests.id('track'), 'GB');
  end loop;
  return query select 1 from public.analytics_events e where e.type = 'download' and e.track_id = tests.id('track');
end
$$;

grant execute on function tests.download_events_after(integer) to anon, authenticated;

select tests.each_actor('download a bought track', $$select 1 from public.download_track(tests.id('track'))$$,
  array['artist', 'fan']);
select tests.one_actor('download a bought track while banned', 'banned fan',
  $$select 1 from public.download_track(tests.id('track'))$$, false);
select tests.each_actor('download a release one bought from', $$select 1 from public.download_release(tests.id('release'))$$,
  array['artist', 'fan']);
select tests.each_actor('download a track bought by no one', $$select 1 from public.download_track(tests.id('upcoming track'))$$,
  array[]::text[]);
select tests.each_actor('read a bought track''s master in Storage',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-master.wav'$$,
  array['artist', 'fan']);
select tests.one_actor('read a bought track''s master in Storage while banned', 'banned fan',
  $$select 1 from storage.objects where bucket_id = 'tracks' and name = tests.id('artist') || '/1700000000000-master.wav'$$, false);
select tests.each_actor('list one''s purchases by release',
  $$select 1 from public.owned_releases() o where jsonb_array_length(o -> 'releases') = 1$$, array['fan']);

select plan((select count(*)::integer from tests.cases) + 5);
select * from tests.proved_cases();

select is(tests.attempt('fan', 'select * from tests.download_events_after(2)'), 'done:1',
  'a buyer''s download is one download event, however often it is taken the same day');
select is(tests.attempt('artist', 'select * from tests.download_events_after(2)'), 'done:0',
  'an artist taking their own track is not a download');
select is(tests.attempt('fan', $$select 1 from public.download_track(tests.id('track')) d
    where d.path = tests.id('artist') || '/1700000000000-master.wav' and d.title = 'Released' and d.artist_name = 'Owner'$$),
  'done:1', 'a download names its file, title and artist');
select is(tests.attempt('fan', $$select public.download_track(tests.id('other artist'))$$), 'refused:42501',
  'what is no track is not the caller''s to download');
select is(tests.attempt('fan', $$select 1 from public.owned_releases() o
    where o #>> '{releases,0,title}' = 'Released' and o #>> '{releases,0,tracks,0,title}' = 'Released'
      and (o #>> '{releases,0,tracks,0,has_audio}')::boolean$$),
  'done:1', 'Purchased lists the release with the tracks bought of it');
select * from finish();
rollback;
