-- Recommendations computed ahead (20_recommendations.sql): a fan reads their own alone (not another fan,
-- nor a visitor) and nobody writes them; a purchase or a follow computes them at once, the fan dashboard
-- reads them as kept, and a change of many fans at once leaves theirs to the hourly job, which only the
-- marketplace runs.
begin;
\ir helpers.sql

insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('fan'));

select tests.each_actor('read the fan''s recommendations', $$select 1 from public.fan_recommendations where fan_id = tests.id('fan')$$,
  array['fan']);
select tests.each_actor('read any recommendations', $$select 1 from public.fan_recommendations where fan_id <> (select auth.uid())$$,
  array[]::text[]);
select tests.each_actor('keep one''s own recommendations',
  $$insert into public.fan_recommendations (fan_id, releases) values ((select auth.uid()), '[]')
    on conflict (fan_id) do update set releases = '[]'$$, array[]::text[]);
select tests.each_actor('change the fan''s recommendations', $$update public.fan_recommendations set releases = '[]' where fan_id = tests.id('fan')$$,
  array[]::text[]);
select tests.each_actor('remove the fan''s recommendations', $$delete from public.fan_recommendations where fan_id = tests.id('fan')$$,
  array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 8);
select * from tests.proved_cases();

-- A follow computed them at once: the followed artist's release, saying why.
select ok((select releases from public.fan_recommendations where fan_id = tests.id('fan'))
    @> jsonb_build_array(jsonb_build_object('id', (select release_id from public.tracks where id = tests.id('track')), 'reason', 'follow')),
  'a follow computes the fan''s recommendations at once');
-- A purchase too: what the fan owns is no longer recommended.
insert into public.purchases (amount, track_id, user_id) values (1.99, tests.id('track'), tests.id('fan'));
select is((select releases from public.fan_recommendations where fan_id = tests.id('fan')), '[]'::jsonb,
  'a purchase computes them again: nothing the fan owns');

-- The dashboard reads them as kept.
update public.fan_recommendations set releases = '[{"kept": true}]' where fan_id = tests.id('fan');
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('fan'), 'role', 'authenticated')::text, true);
select is(public.fan_dashboard() -> 'recommended_releases', '[{"kept": true}]'::jsonb, 'the fan dashboard reads the row');
select set_config('request.jwt.claims', '', true);

-- Eleven fans following at once (more than a statement computes): left to the hourly job, first in its line.
do $$
begin
  for n in 1..11 loop
    perform tests.new_user('fan ' || n, jsonb_build_object('role', 'fan', 'username', 'bulk-fan-' || n));
  end loop;
end
$$;
insert into public.followers (artist_id, fan_id) select tests.id('artist'), tests.id('fan ' || n) from generate_series(1, 11) n;
select is((select count(*) from public.fan_recommendations where computed_at = '-infinity' and releases is null), 11::bigint,
  'many fans at once are left to the hourly job');
select throws_ok($$select public.refresh_due_recommendations(50)$$, '28000', null, 'only the marketplace runs the job');
select set_config('request.headers', jsonb_build_object('x-marketplace-secret', tests.marketplace_secret())::text, true);
select is(public.refresh_due_recommendations(5), '{"refreshed": 5, "more": true}'::jsonb, 'the job computes at most as many as asked');
select is(public.refresh_due_recommendations(50), '{"refreshed": 6, "more": false}'::jsonb, 'and the rest on the next call');
select set_config('request.headers', '', true);
select is((select count(*) from public.fan_recommendations where computed_at = '-infinity' or releases is null), 0::bigint,
  'every fan''s recommendations are kept');

select * from finish();
rollback;
