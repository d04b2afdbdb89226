-- Studio (04_studio.sql): an artist's store settings are theirs alone, created on their first visit to
-- the store page; for a visitor, the owner, another artist, a fan, an administrator and a banned artist.
begin;
\ir helpers.sql

insert into public.store_settings (artist_id) values (tests.id('artist'));

select tests.each_actor('read store settings', $$select 1 from public.store_settings where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('change store settings',
  $$update public.store_settings
    set discounts = '[{"id": "d1", "code": "SPRING", "percentage": 15, "validUntil": null, "active": true}]'
    where artist_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('create store settings for the other artist',
  $$insert into public.store_settings (artist_id) values (tests.id('other artist'))$$, array['other artist']);
select tests.one_actor('create store settings as a fan', 'fan', $$insert into public.store_settings (artist_id) values (tests.id('fan'))$$, false);
select tests.one_actor('create store settings while banned', 'banned artist',
  $$insert into public.store_settings (artist_id) values (tests.id('banned artist'))$$, false);
select tests.each_actor('delete store settings', $$delete from public.store_settings where artist_id = tests.id('artist')$$, array[]::text[]);

-- The studio's own reads answer the signed-in artist about their own catalog, nobody else's.
select tests.each_actor('read one''s studio catalog', $$select 1 where jsonb_array_length(public.studio_catalog() -> 'tracks') > 0$$,
  array['artist']);

-- Your Tracks: releases of one date, the one made (published) last first, whatever their ids.
insert into public.releases (id, artist_id, kind, title, created_at) values
  ('00000000-0000-4000-8000-0000000000a1', tests.id('artist'), 'single', 'Made first', now() - interval '1 day'),
  ('00000000-0000-4000-8000-0000000000a2', tests.id('artist'), 'single', 'Made next', now());
insert into public.tracks (artist_id, release_id, title, genre, price, description, release_date)
select r.artist_id, r.id, r.title, 'Rock', 1.99, 'Out the same day', current_date - 30
from public.releases r where r.id in ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2');

select plan((select count(*)::integer from tests.cases) + 1);
select * from tests.proved_cases();
do $$ begin perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true); end $$;
select is((select jsonb_agg(t -> 'title' order by n) from jsonb_array_elements(public.studio_catalog() -> 'tracks') with ordinality e(t, n)
    where t ->> 'title' like 'Made %'), '["Made next", "Made first"]'::jsonb,
  'Your Tracks lists releases of one date newest first');
select * from finish();
rollback;
