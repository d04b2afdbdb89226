-- Pre-orders (19_preorders.sql, and what they change in 03_catalog.sql, 06_listening.sql, 12_made_files.sql,
-- 13_downloads.sql, 16_cart.sql, 17_fulfilment.sql): only its artist puts a release dated ahead on
-- pre-order, moves its day or withdraws it; everyone reads its tracks, but only its instant ones play and are
-- handed over before the day (to an account's buyer and a guest's receipt link alike); it sells for the whole
-- release's price, once to a buyer; the hourly job gives the rest on the day, once, however many runs at once;
-- moving the day tells its buyers, withdrawing it names their lines to refund.
begin;
\ir helpers.sql

-- An album of the artist's dated ahead, its first track instant; a banned artist's album dated ahead; a buyer.
do $$
begin
  perform tests.new_user('buyer', '{"role": "fan", "username": "early-bird"}');
  perform tests.remember('album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Soon Enough') returning id$q$);
  perform tests.remember('instant track', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'First Taste', 1, 'Rock', 1.00, 'Now', current_date + 5) returning id$q$);
  perform tests.remember('later track', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'The Rest', 2, 'Rock', 2.00, 'Soon', current_date + 5) returning id$q$);
  perform tests.remember('banned album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('banned artist'), 'album', 'Never') returning id$q$);
  insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
  values (tests.id('banned album'), tests.id('banned artist'), 'Never', 1, 'Rock', 1.00, 'Soon', current_date + 5);

  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
  perform public.save_preorder(tests.id('album'), current_date + 5, array[tests.id('instant track')]);

  perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('buyer'), 'role', 'authenticated')::text, true);
  perform tests.send_marketplace_headers();
  perform tests.remember('order', $q$
    select (public.open_order(jsonb_build_array(jsonb_build_object('kind', 'album', 'id', tests.id('album'))), '{}', 'USD')
      ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('order'), 'cs_test_preorder');
  perform public.apply_checkout('cs_test_preorder', 'paid', 'pi_preorder', 'FR', 'evt_preorder', 'checkout.session.completed');
  perform tests.remember('line', $q$select id from public.order_lines where order_id = tests.id('order')$q$);
  -- And a guest, with an email alone.
  perform set_config('request.jwt.claims', '{"role": "anon"}', true);
  perform tests.remember('guest order', $q$
    select (public.open_order(jsonb_build_array(jsonb_build_object('kind', 'album', 'id', tests.id('album'))), '{}', 'USD',
      true, true, 'early@tests.example') ->> 'order_id')::uuid$q$);
  perform public.attach_checkout(tests.id('guest order'), 'cs_test_guest_preorder');
  perform public.apply_checkout('cs_test_guest_preorder', 'paid', 'pi_guest_preorder', 'FR', 'evt_guest_preorder',
    'checkout.session.completed');
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
end
$$;

-- Everyone reads a pre-order's tracks; another release dated ahead stays its artist's alone.
select tests.each_actor('read a pre-order''s track dated ahead', $$select 1 from public.tracks where id = tests.id('later track')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('read a pre-order''s track dated ahead', 'buyer',
  $$select 1 from public.tracks where id = tests.id('later track')$$, true);
select tests.each_actor('read a release dated ahead not on pre-order',
  $$select 1 from public.tracks where id = tests.id('upcoming track')$$, array['artist']);
select tests.each_actor('read a pre-order on its album page',
  $$select 1 where (public.album_page(tests.id('album')) ->> 'preorder')::boolean$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);

-- Only the instant tracks play before the day (its artist hears all).
select tests.each_actor('stream a pre-order''s instant track', $$select 1 from public.track_stream(tests.id('instant track'))$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('stream a pre-order''s track not out', $$select 1 from public.track_stream(tests.id('later track'))$$,
  array['artist']);
select tests.one_actor('stream a pre-order''s track not out', 'buyer',
  $$select 1 from public.track_stream(tests.id('later track'))$$, false);

-- And only their plays count.
select tests.one_actor('count a play of a pre-order''s instant track', 'visitor through the marketplace',
  $$select public.record_play(tests.id('instant track'), 'GB', 'a-listener', '192.0.2.1')$$, true);
select tests.one_actor('count a play of a pre-order''s track not out', 'visitor through the marketplace',
  $$select public.record_play(tests.id('later track'), 'GB', 'a-listener', '192.0.2.1')$$, false);

-- Only the instant tracks are handed over before the day: to the buyer and the artist.
select tests.each_actor('download a pre-order''s instant track',
  $$select 1 where private.may_download(tests.id('instant track'))$$, array['artist']);
select tests.one_actor('download a pre-order''s instant track', 'buyer',
  $$select 1 where private.may_download(tests.id('instant track'))$$, true);
select tests.one_actor('download a pre-order''s track not out', 'buyer',
  $$select 1 where private.may_download(tests.id('later track'))$$, false);
select tests.one_actor('download a pre-order''s track not out', 'artist',
  $$select 1 where private.may_download(tests.id('later track'))$$, true);

-- Only its artist (active) puts a release on pre-order, moves it or withdraws it.
select tests.each_actor('put a release on pre-order',
  $$select public.save_preorder(tests.id('album'), current_date + 6, array[tests.id('instant track')])$$, array['artist']);
select tests.one_actor('put a release on pre-order', 'buyer',
  $$select public.save_preorder(tests.id('album'), current_date + 6, '{}')$$, false);
select tests.one_actor('put their own release on pre-order while banned', 'banned artist',
  $$select public.save_preorder(tests.id('banned album'), current_date + 6, '{}')$$, false);
select tests.one_actor('put a release on pre-order', 'banned fan',
  $$select public.save_preorder(tests.id('album'), current_date + 6, '{}')$$, false);
select tests.each_actor('withdraw a pre-order', $$select public.withdraw_preorder(tests.id('album'))$$, array['artist']);
select tests.one_actor('withdraw their own pre-order while banned', 'banned artist',
  $$select public.withdraw_preorder(tests.id('banned album'))$$, false);
select tests.one_actor('withdraw a pre-order', 'buyer', $$select public.withdraw_preorder(tests.id('album'))$$, false);
select tests.each_actor('set the pre-order flag directly', $$update public.releases set preorder = false where id = tests.id('album')$$,
  array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 21);

select * from tests.proved_cases();

-- Sold whole, once; the instant track the buyer's at once.
select is((select total_cents from public.orders where id = tests.id('order')), 300, 'a pre-order costs every track of it');
select is((select array_agg(track_id) from public.purchases where order_line_id = tests.id('line')),
  array[tests.id('instant track')], 'its instant track is the buyer''s at once, the rest not yet');
select is((select sum(amount) from public.purchases where order_line_id = tests.id('line')), 3.00::numeric,
  'the line''s total goes to what it gave');
select is(private.priced_cart(jsonb_build_array(jsonb_build_object('kind', 'album', 'id', tests.id('album'))), '{}', tests.id('buyer'))
    #>> '{lines,0,problem}', 'owned', 'a buyer does not pre-order it twice');
select is(private.priced_cart(jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id('upcoming track'))), '{}', tests.id('fan'))
    #>> '{lines,0,problem}', 'unavailable', 'a release dated ahead not on pre-order is not sold');

-- A guest's receipt link downloads the instant track alone before the day.
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select tests.send_marketplace_headers(jsonb_build_object('x-guest-order', tests.id('guest order')));
set local role anon;
select throws_ok(format('select * from public.download_track(%L)', tests.id('instant track')), 'P0002', null,
  'a guest''s receipt link may download the instant track (this one has no audio file)');
select throws_ok(format('select * from public.download_track(%L)', tests.id('later track')), '42501', null,
  'but not the track not out');
reset role;
select set_config('request.jwt.claims', '', true);
select tests.send_no_headers();

-- Only a release dated ahead may be on pre-order.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
select throws_ok(format($$select public.save_preorder(%L, current_date + 3, '{}')$$,
    (select release_id from public.tracks where id = tests.id('track'))), '23514', null,
  'a release out already is not put on pre-order');
select throws_ok(format($$select public.save_preorder(%L, current_date, '{}')$$, tests.id('album')), '23514', null,
  'nor moved to a day that has come');

-- A track's own edit keeps a pre-order's day: the pre-order moves it, telling its buyers.
select throws_ok(format($$select public.save_track(%L, jsonb_build_object('release_date', current_date + 20))$$, tests.id('later track')),
  '23514', null, 'a pre-order''s track is not moved alone');
select is(public.save_track(tests.id('later track'), jsonb_build_object('title', 'The Rest', 'release_date', current_date + 5)), true,
  'its other details are saved as ever');

-- Moving the day tells its buyer, in the site and by mail.
select is(jsonb_array_length(public.save_preorder(tests.id('album'), current_date + 12, array[tests.id('instant track')]) -> 'mails'), 2,
  'moving the day mails each buyer, a guest too');
select is((select count(*)::integer from public.notifications where user_id = tests.id('buyer') and kind = 'moved'), 1,
  'and tells them in the site');
select is((select detail from private.mails where kind = 'preorder_moved' and order_line_id = tests.id('line')),
  to_char(current_date + 12, 'YYYY-MM-DD'), 'the mail names the new day');
select is(tests.through_marketplace($$select public.read_notifications() -> 0 -> 'release' -> 'release_date'$$, 'buyer') #>> '{}',
  to_char(current_date + 12, 'YYYY-MM-DD'), 'the notice names the pre-order and its new day');
select is(jsonb_array_length(public.save_preorder(tests.id('album'), current_date + 12, '{}') -> 'mails'), 0,
  'changing its instant tracks alone tells nobody');
select public.save_preorder(tests.id('album'), current_date + 12, array[tests.id('instant track')]);
select set_config('request.jwt.claims', '', true);

-- Its day comes: the job gives the rest to its buyer once, even run twice at once (the second run's insert
-- meets the first's row in purchases_line_track_once, and gives nothing).
update public.tracks set release_date = current_date where release_id = tests.id('album');
select is(private.give_released_album_tracks(), 2, 'the release day gives the rest to each buyer, a guest too');
select is(private.give_released_album_tracks(), 0, 'once');
select throws_ok(format($$insert into public.purchases (amount, track_id, user_id, order_line_id) values (0, %L, %L, %L)$$,
    tests.id('later track'), tests.id('buyer'), tests.id('line')), '23505', null,
  'a concurrent run cannot give a line''s track twice');
update public.tracks set release_date = current_date + 12 where release_id = tests.id('album');
delete from public.purchases where track_id = tests.id('later track');

-- Withdrawn: hidden and unsold again, and its buyer's line named for the refund.
select set_config('request.jwt.claims', jsonb_build_object('sub', tests.id('artist'), 'role', 'authenticated')::text, true);
select is(public.withdraw_preorder(tests.id('album')),
  (select array_agg(l.id order by l.id) from public.order_lines l where l.order_id in (tests.id('order'), tests.id('guest order'))),
  'withdrawing names each buyer''s line to refund');
select set_config('request.jwt.claims', '', true);
select ok(not tests.allowed('visitor', $$select 1 from public.tracks where id = tests.id('later track')$$),
  'a withdrawn pre-order is hidden again');

select * from finish();
rollback;
