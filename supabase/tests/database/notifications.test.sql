-- Notifications, announcements and recommendations (19_*.sql, 20_recommendations.sql): users
-- read and mark their own notices alone, and nobody writes one; follows, replies, sales and shipments
-- notify once; a release is announced once on its day (run twice: nothing more), never withdrawn, upcoming
-- or a banned artist's, to followers, account buyers and newsletter signups who take the artist's mail;
-- mail goes as one message per address per hour (a digest for the rest) or weekly; unsubscribing goes
-- through the marketplace alone and leaves other artists' mail; recommendations never offer what the fan
-- owns, their own, an unreleased release or a banned artist's, and say why.
begin;
\ir helpers.sql

-- `statement`'s answer through the marketplace (its secret), as `who` when named.
create function tests.answer(statement text, who text default null)
returns jsonb
language plpgsql
as $$
declare
  answer jsonb;
begin
  if who is not null then
    perform set_config('request.jwt.claims', jsonb_build_object('sub', tests.id(who), 'role', 'authenticated')::text, true);
  end if;
  perform tests.send_marketplace_headers();
  execute statement into answer;
  perform set_config('request.jwt.claims', '', true);
  perform tests.send_no_headers();
  return answer;
end
$$;

-- A release of `artist` out `days` from today (negative: out already), remembered by its track's `name`.
create function tests.release(artist text, name text, days integer default 0)
returns uuid
language plpgsql
as $$
begin
  perform tests.remember(name, format($q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (%L, %L, 'Rock', 1.99, 'New', current_date + %s) returning id$q$, tests.id(artist), name, days));
  return (select release_id from public.tracks where id = tests.id(name));
end
$$;

create function tests.release_of(name text)
returns uuid
language sql
as $$
  select release_id from public.tracks where id = tests.id(name)
$$;

-- What announcing did for a release: [users told in the site, addresses with an item].
create function tests.announced(name text)
returns jsonb
language sql
as $$
  select jsonb_build_array(
    (select count(*) from public.notifications n where n.release_id = tests.release_of(name) and n.kind = 'release'),
    (select count(*) from private.announcement_items i where i.release_id = tests.release_of(name)))
$$;

-- The fixtures' releases are out already (as the seed's are).
update private.release_announcements set announced_at = now();

select tests.new_user('buyer', '{"role": "fan", "username": "buyer"}');
select tests.new_user('shunned', '{"role": "fan", "username": "shunned"}');
insert into public.followers (artist_id, fan_id) values
  (tests.id('artist'), tests.id('fan')), (tests.id('artist'), tests.id('shunned')), (tests.id('other artist'), tests.id('fan'));
update auth.users set banned_until = now() + interval '30 days' where id = tests.id('shunned');
insert into public.purchases (amount, track_id, user_id) values (1.99, tests.id('track'), tests.id('buyer'));
-- A confirmed signup (confirming is newsletters.test.sql's).
insert into public.newsletter_signups (artist_id, email, confirmed_at) values (tests.id('artist'), 'letters@tests.example', now());
insert into public.email_settings (user_id) values (tests.id('fan'));

-- Reading and marking: one's own notices alone; nobody writes or deletes one.
select tests.each_actor('read the artist''s notices', $$select 1 from public.notifications where user_id = tests.id('artist')$$,
  array['artist']);
select tests.each_actor('mark the artist''s notices read',
  $$update public.notifications set read_at = now() where user_id = tests.id('artist')$$, array['artist']);
select tests.each_actor('write a notice',
  $$insert into public.notifications (user_id, kind, actor_id) values (tests.id('fan'), 'follower', tests.id('artist'))$$,
  array[]::text[]);
select tests.each_actor('delete the artist''s notices', $$delete from public.notifications where user_id = tests.id('artist')$$,
  array[]::text[]);
select tests.each_actor('read the artist''s notices by the bell''s page',
  $$select 1 where jsonb_array_length(jsonb_path_query_array(public.read_notifications(), '$[*] ? (@.kind == "follower")')) = 2$$,
  array['artist']);
select tests.each_actor('read email settings', $$select 1 from public.email_settings where user_id = tests.id('fan')$$,
  array['fan']);
select tests.each_actor('write one''s email settings', $$select public.save_email_settings(true, 'weekly', true)$$,
  array['artist', 'other artist', 'fan', 'admin']);
select tests.one_actor('write email settings while banned', 'banned fan', $$select public.save_email_settings(true, 'weekly', true)$$, false);
select tests.each_actor('write another''s email settings',
  $$update public.email_settings set release_emails = false where user_id = tests.id('fan')$$, array['fan']);
select tests.each_actor('read the artist''s newsletter signups', $$select 1 from public.newsletter_export()$$, array['artist']);
select tests.each_actor('announce releases without the marketplace', $$select public.announce_releases()$$, array[]::text[]);
select tests.each_actor('unsubscribe without the marketplace',
  $$select public.set_release_mail('fan@tests.example', false, tests.id('artist'))$$, array[]::text[]);
select tests.each_actor_through_marketplace('unsubscribe',
  $$select public.set_release_mail('fan@tests.example', false, tests.id('artist'))$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read what fans bought together', $$select 1 where jsonb_array_length(public.also_bought(track_id => tests.id('track'))) >= 0$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);

select plan((select count(*)::integer from tests.cases) + 43);
select * from tests.proved_cases();

-- Follows, replies, sales, shipments.
select is((select count(*) from public.notifications where user_id = tests.id('artist') and kind = 'follower'), 2::bigint,
  'each new follower is told to the artist');
delete from public.followers where artist_id = tests.id('artist') and fan_id = tests.id('fan');
insert into public.followers (artist_id, fan_id) values (tests.id('artist'), tests.id('fan'));
select is((select count(*) from public.notifications where user_id = tests.id('artist') and kind = 'follower'), 2::bigint,
  'following again tells nothing new');

select tests.remember('comment', $$insert into public.comments (content, track_id, user_id) values ('Lovely', tests.id('track'), tests.id('fan')) returning id$$);
insert into public.comments (content, track_id, user_id, reply_to) values ('Thanks!', tests.id('track'), tests.id('artist'), tests.id('comment'));
insert into public.comments (content, track_id, user_id, reply_to) values ('Me again', tests.id('track'), tests.id('fan'), tests.id('comment'));
select is((select jsonb_agg(actor_id) from public.notifications where kind = 'reply'), jsonb_build_array(tests.id('artist')),
  'a reply tells the comment''s author, and one to oneself tells nobody');
select throws_ok($$insert into public.comments (content, track_id, user_id, reply_to)
    values ('Elsewhere', tests.id('banned artist track'), tests.id('fan'), tests.id('comment'))$$, '23514', null,
  'a reply answers a comment on its own track');

select tests.remember('order', $$insert into public.orders (buyer_id, buyer_email, currency, total_cents, state)
  values (tests.id('fan'), 'fan@tests.example', 'USD', 199, 'open') returning id$$);
select tests.remember('line', $$insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, total_cents, artist_share_cents, crate_cents)
  values (tests.id('order'), tests.id('artist'), 'merch', null, 'Poster', 199, 199, 175, 24) returning id$$);
update public.orders set state = 'paid', paid_at = now() where id = tests.id('order');
update public.orders set state = 'paid' where id = tests.id('order');
select is((select count(*) from public.notifications where user_id = tests.id('artist') and kind = 'sale'), 1::bigint,
  'a paid order tells its artist once');
update public.order_lines set shipped_at = now() where id = tests.id('line');
select is((select count(*) from public.notifications where user_id = tests.id('fan') and kind = 'shipped'), 1::bigint,
  'merch sent tells its buyer');

-- Announcing.
select tests.release('artist', 'today');
select tests.release('artist', 'next week', 7);
select tests.release('artist', 'withdrawn');
delete from public.releases where id = tests.release_of('withdrawn');
select tests.release('banned artist', 'banned today');
select tests.answer($$select public.announce_releases()$$);
select is(tests.announced('today'), '[2, 3]'::jsonb,
  'a release out today tells the follower and the account buyer (not the banned follower), and mails them and the signup');
select is(tests.announced('next week'), '[0, 0]'::jsonb, 'an upcoming release waits for its day');
select is(tests.announced('banned today'), '[0, 0]'::jsonb, 'a banned artist''s release is not announced');
select ok((select announced_at is not null from private.release_announcements where release_id = tests.release_of('banned today')),
  'and it is closed, never announced later');
select is((select count(*) from private.mails where kind = 'releases'), 3::bigint, 'one mail an address');
select tests.answer($$select public.announce_releases()$$);
select is(tests.announced('today') || to_jsonb((select count(*) from private.mails where kind = 'releases')), '[2, 3, 3]'::jsonb,
  'the job run again announces and mails nothing more');
select is((select count(*) from public.notifications where kind = 'release'), 2::bigint, 'nothing else was announced');
select is((select jsonb_agg(r -> 'title') from jsonb_array_elements(tests.answer(format($$select public.mail_to_send(%L)$$,
    (select m.id from private.mails m where m.recipient = 'fan@tests.example' and m.kind = 'releases')))
    -> 'releases') r), '["today"]'::jsonb, 'the mail names its release');

update public.tracks set release_date = current_date where id = tests.id('next week');
select tests.answer($$select public.announce_releases()$$);
select is(tests.announced('next week'), '[2, 3]'::jsonb, 'its day come, the upcoming release is announced');
select is((select count(*) from private.mails where kind = 'releases'), 3::bigint,
  'within the hour of the last mail, its items wait');

-- A day of many releases: the fan gets one message for all of them.
update private.mails set created_at = created_at - interval '2 hours' where kind = 'releases';
select tests.release('other artist', 'busy ' || n) from generate_series(1, 20) n;
select tests.answer($$select public.announce_releases()$$);
select is((select count(*) from private.mails where kind = 'releases' and recipient = 'fan@tests.example'), 2::bigint,
  'an hour on, one message for twenty-one releases');
select is((select count(*) from private.announcement_items i join private.mails m on m.id = i.mail_id
    where m.recipient = 'fan@tests.example' and m.created_at > now() - interval '1 minute'), 21::bigint,
  'the digest holds every waiting release');

-- Unsubscribing from one artist leaves the others.
select tests.answer($$select to_jsonb(public.set_release_mail('FAN@tests.example', false, tests.id('artist')))$$);
update private.mails set created_at = created_at - interval '2 hours' where kind = 'releases';
select tests.release('artist', 'after leaving');
select tests.release('other artist', 'still wanted');
select tests.answer($$select public.announce_releases()$$);
select is(tests.announced('after leaving'), '[2, 2]'::jsonb, 'an unsubscribed fan is still told in the site, but not mailed');
select is((select count(*) from private.announcement_items where release_id = tests.release_of('still wanted') and email = 'fan@tests.example'),
  1::bigint, 'the other artist''s mail still comes');
select is((select subscribed from public.newsletter_export() e where e.email = 'letters@tests.example'), null,
  'nobody but the artist reads the signups');
select is(tests.answer($$select to_jsonb(array_agg(e.subscribed)) from public.newsletter_export() e$$, 'artist'), '[true]'::jsonb,
  'the artist''s CSV lists the signup, still subscribed');

-- Turned off, or weekly.
insert into public.email_settings (user_id, release_emails) values (tests.id('buyer'), false);
update public.email_settings set release_digest = 'weekly' where user_id = tests.id('fan');
update private.mails set created_at = created_at - interval '2 hours' where kind = 'releases';
select tests.release('other artist', 'weekly one');
select tests.release('artist', 'buyer off');
select tests.answer($$select public.announce_releases()$$);
select is(tests.announced('buyer off'), '[2, 1]'::jsonb, 'release mail turned off: told in the site alone');
select is((select count(*) from private.announcement_items where email = 'fan@tests.example' and mail_id is null), 1::bigint,
  'a weekly fan''s release waits for the digest');
update private.mails set created_at = created_at - interval '8 days' where recipient = 'fan@tests.example';
select tests.answer($$select public.announce_releases()$$);
select is((select count(*) from private.announcement_items where email = 'fan@tests.example' and mail_id is null), 0::bigint,
  'a week on, it goes');
select is((select jsonb_agg(r -> 'title') from jsonb_array_elements(tests.answer(format($$select public.mail_to_send(%L)$$,
    (select i.mail_id from private.announcement_items i where i.release_id = tests.release_of('today') and i.email = 'fan@tests.example')))
    -> 'releases') r), null, 'a mail waiting to go leaves out an artist unsubscribed from since');

-- A run stopped after the database made its mail and before the queue took it: the next run queues that
-- mail again (never one the queue already tried, nor one just made).
update private.mails set attempts = 1 where kind = 'releases';
select is(tests.answer($$select to_jsonb(public.unsent_release_mails())$$), '[]'::jsonb, 'mail the queue tried is not queued again');
update private.mails set attempts = 0, created_at = now()
where id = (select id from private.mails where kind = 'releases' order by created_at desc, id limit 1);
select is(tests.answer($$select to_jsonb(public.unsent_release_mails())$$), '[]'::jsonb, 'mail just made is not queued twice');
update private.mails set created_at = now() - interval '11 minutes' where kind = 'releases' and attempts = 0;
select is(jsonb_array_length(tests.answer($$select to_jsonb(public.unsent_release_mails())$$)), 1,
  'mail left unqueued for ten minutes is queued again');
select throws_ok($$select public.unsent_release_mails()$$, '28000', null, 'only the marketplace asks');

-- The bell's page marks what it shows read, and keeps 90 days.
select is((select count(*) from public.notifications where user_id = tests.id('fan') and read_at is null) > 0, true, 'the fan has unread notices');
select tests.answer($$select public.read_notifications(null, 50)$$, 'fan');
select is((select count(*) from public.notifications where user_id = tests.id('fan') and read_at is null), 0::bigint,
  'seen is read');
update public.notifications set created_at = now() - interval '91 days' where user_id = tests.id('fan') and kind = 'shipped';
select is(jsonb_path_exists(tests.answer($$select public.read_notifications(null, 50)$$, 'fan'), '$[*] ? (@.kind == "shipped")'), false,
  'a notice older than 90 days is not shown');
select is(private.forget_old_notifications(), 1, 'and the hourly job forgets it');

-- Recommendations.
select tests.release('other artist', 'bought together');
update public.tracks set release_date = current_date - 1 where id = tests.id('bought together');
insert into public.purchases (amount, track_id, user_id) values
  (1.99, tests.id('bought together'), tests.id('buyer')),
  (1.99, tests.id('upcoming track'), tests.id('buyer')),
  (1.99, tests.id('banned artist track'), tests.id('buyer')),
  (1.99, tests.id('track'), tests.id('fan'));
-- Fewer than 3 buyers besides the reader: nothing, or it would be exactly one fan's other purchases.
select is(public.also_bought(tests.release_of('track')), '[]'::jsonb, 'fans who bought this also bought: nothing with 2 buyers');
select ok(not jsonb_path_exists(tests.answer($$select private.recommended_releases(24)$$, 'fan'), '$[*] ? (@.reason == "bought")'),
  'nor is a fan recommended what the one other buyer of their track bought');
-- Nor do fans given it for nothing (the artist's own codes, free orders) make up the three.
select tests.new_user('gifted one', '{"role": "fan", "username": "gifted-one"}');
select tests.new_user('gifted two', '{"role": "fan", "username": "gifted-two"}');
insert into public.purchases (amount, track_id, user_id) values
  (0, tests.id('track'), tests.id('gifted one')), (0, tests.id('track'), tests.id('gifted two'));
select is(public.also_bought(tests.release_of('track')), '[]'::jsonb, 'fans who bought this also bought: nothing with 2 buyers and 2 given it');
select tests.new_user('second buyer', '{"role": "fan", "username": "second-buyer"}');
select tests.new_user('third buyer', '{"role": "fan", "username": "third-buyer"}');
insert into public.purchases (amount, track_id, user_id) values
  (1.99, tests.id('track'), tests.id('second buyer')), (1.99, tests.id('track'), tests.id('third buyer'));
select is((select jsonb_agg(r -> 'id') from jsonb_array_elements(public.also_bought(tests.release_of('track'))) r),
  jsonb_build_array(tests.release_of('bought together')),
  'fans who bought this also bought: released, not banned');
select ok(tests.answer($$select private.recommended_releases(24)$$, 'fan')
    @> jsonb_build_array(jsonb_build_object('id', tests.release_of('bought together'), 'reason', 'bought', 'because', 'Released')),
  'a fan is recommended what the track''s other buyers bought, saying why');
select ok(not jsonb_path_exists(tests.answer($$select private.recommended_releases(24)$$, 'fan'),
    '$[*] ? (@.id == $owned || @.id == $upcoming || @.id == $banned)',
    jsonb_build_object('owned', tests.release_of('track'), 'upcoming', tests.release_of('upcoming track'),
      'banned', tests.release_of('banned artist track'))),
  'never what the fan owns, an unreleased release or a banned artist''s');
select ok(tests.answer($$select private.recommended_releases(24)$$, 'fan')
    @> jsonb_build_array(jsonb_build_object('reason', 'follow', 'because', 'Other')),
  'new releases from the artists the fan follows');
-- Nor the reader's own: an artist who likes their own track is brought their other releases by it.
insert into public.likes (user_id, track_id) values (tests.id('artist'), tests.id('buyer off'));
select ok(exists (select 1 from private.newest_releases(tests.id('artist'), null, 4) n where n.release_id <> tests.release_of('buyer off')),
  'the artist has other releases out, which liking their own track brings');
select ok(not jsonb_path_exists(tests.answer($$select private.recommended_releases(24)$$, 'artist'),
    '$[*] ? (@.artist_id == $me)', jsonb_build_object('me', tests.id('artist'))),
  'never the reader''s own releases');

select * from finish();
rollback;
