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

select plan((select count(*)::integer from tests.cases));
select * from tests.proved_cases();
select * from finish();
rollback;
