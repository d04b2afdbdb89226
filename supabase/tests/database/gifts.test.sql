-- Gifts (17_gifts.sql): bought from an account for someone else's address, downloads alone; the giver gets
-- nothing of it; mailed once on its send date (at once for today, else by the hourly job, once however
-- many runs); read by its giver and administrators; claimed through the marketplace (which checked the
-- link) by a signed-in holder who is not the giver, once; sent again, given to another address (the
-- earlier link claims nothing) or refunded by its giver while unclaimed; an album's later tracks go to the
-- claimant. Each as a visitor, the giver (the fan), the recipient, the artist, another artist, an
-- administrator and a banned fan.
begin;
\ir helpers.sql

do $$
begin
  perform tests.new_user('recipient', '{"role": "fan", "username": "friend"}');
  perform tests.new_user('second', '{"role": "fan", "username": "second-friend"}');
  perform tests.remember('album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Half Out') returning id$q$);
  perform tests.remember('out', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Out', 1, 'Rock', 1.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('ahead', $q$
    insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date)
    values (tests.id('album'), tests.id('artist'), 'Ahead', 2, 'Rock', 9.00, 'Soon', current_date + 3) returning id$q$);
  perform tests.remember('merch', $q$
    insert into public.merch (artist_id, title, price, description, ships_from)
    values (tests.id('artist'), 'Poster', 10, 'A poster', 'GB') returning id$q$);
end
$$;

-- The fan's gift of a track to the recipient, for today, and of the album to another address, in a week.
create function tests.gift(what jsonb, email text, send_on date, checkout text)
returns uuid
language plpgsql
as $$
declare
  opened jsonb := tests.through_marketplace(format($q$select public.open_order(%L::jsonb, '{}', 'USD', false, false,
    gift => jsonb_build_object('email', %L, 'message', 'Happy birthday', 'send_on', %L))$q$, what, email, send_on), 'fan');
begin
  perform tests.through_marketplace(format('select to_jsonb(public.attach_checkout(%L, %L))', opened ->> 'order_id', checkout), 'fan');
  perform tests.through_marketplace(format('select public.apply_checkout(%L, %L, %L, %L)', checkout, 'paid', 'pi_' || checkout, 'GB'), 'fan');
  return (select g.id from public.gifts g join public.order_lines l on l.id = g.order_line_id where l.order_id = (opened ->> 'order_id')::uuid);
end
$$;

-- A gift's order opened by `who` ('guest': a visitor with an email) for one item (a fixture's kind and name).
create function tests.open_gift(who text, item text, gift jsonb)
returns jsonb
language plpgsql
as $$
declare
  what jsonb := jsonb_build_array(jsonb_build_object('kind', item, 'id', tests.id(item)));
begin
  if who = 'guest' then
    return tests.as_marketplace(format('select public.open_order(%L::jsonb, email => %L, gift => %L::jsonb)', what, 'guest@tests.example', gift));
  end if;
  return tests.through_marketplace(format('select public.open_order(%L::jsonb, ship_to => %L, gift => %L::jsonb)', what, 'GB', gift), who);
end
$$;

do $$
begin
  perform tests.remember('track gift', format('select %L::uuid', tests.gift(
    jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id('track'))), 'recipient@tests.example', current_date, 'cs_gift_track')));
  perform tests.remember('album gift', format('select %L::uuid', tests.gift(
    jsonb_build_array(jsonb_build_object('kind', 'album', 'id', tests.id('album'))), 'later@tests.example', current_date + 7, 'cs_gift_album')));
  perform tests.remember('track gift line', format('select %L::uuid', (select order_line_id from public.gifts where id = tests.id('track gift'))));
end
$$;

-- Who reads gifts: their giver and administrators; nobody writes them but the functions.
select tests.each_actor('read a gift', $$select 1 from public.gifts where id = tests.id('track gift')$$, array['fan', 'admin']);
select tests.one_actor('read a gift given to one', 'recipient', $$select 1 from public.gifts$$, false);
select tests.one_actor('read a gift while banned', 'banned fan', $$select 1 from public.gifts$$, false);
select tests.each_actor('write a gift', $$update public.gifts set recipient_email = 'x@tests.example'$$, array[]::text[]);
select tests.each_actor('make a gift', $$insert into public.gifts (order_line_id, giver_id, recipient_email, send_on)
  values (tests.id('track gift line'), tests.id('fan'), 'x@tests.example', current_date)$$, array[]::text[]);
select tests.each_actor('list one''s gifts', $$select 1 from jsonb_array_elements(public.given_gifts())$$, array['fan']);

-- What a claim link shows: through the marketplace (which checked its signature), to anyone who holds it.
select tests.each_actor_through_marketplace('show a gift''s claim page',
  $$select 1 where public.gift_to_claim(tests.id('track gift'), 1) is not null$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('show a gift''s claim page without the marketplace',
  $$select 1 where public.gift_to_claim(tests.id('track gift'), 1) is not null$$, array[]::text[]);

-- Claiming: a signed-in holder who is not the giver, with the link of the gift's present recipient.
select tests.each_actor_through_marketplace('claim a gift',
  $$select 1 where public.claim_gift(tests.id('track gift'), 1) = 'claimed'$$, array['artist', 'other artist', 'admin']);
select tests.one_actor('claim a gift given to one', 'recipient through the marketplace',
  $$select 1 where public.claim_gift(tests.id('track gift'), 1) = 'claimed'$$, true);
select tests.one_actor('claim a gift while banned', 'banned fan through the marketplace',
  $$select 1 where public.claim_gift(tests.id('track gift'), 1) = 'claimed'$$, false);
select tests.one_actor('claim a gift with an earlier recipient''s link', 'recipient through the marketplace',
  $$select 1 where public.claim_gift(tests.id('track gift'), 2) = 'claimed'$$, false);
select tests.each_actor('claim a gift without the marketplace',
  $$select 1 where public.claim_gift(tests.id('track gift'), 1) = 'claimed'$$, array[]::text[]);

-- Its giver alone sends it again, gives it to another address, or refunds it, while it is unclaimed.
select tests.each_actor_through_marketplace('send a gift again',
  $$select 1 where public.send_gift_again(tests.id('track gift')) is not null$$, array['fan']);
select tests.one_actor('send a gift given to one again', 'recipient through the marketplace',
  $$select 1 where public.send_gift_again(tests.id('track gift')) is not null$$, false);
select tests.one_actor('send a gift again while banned', 'banned fan through the marketplace',
  $$select 1 where public.send_gift_again(tests.id('track gift')) is not null$$, false);
select tests.each_actor('send a gift again without the marketplace',
  $$select 1 where public.send_gift_again(tests.id('track gift')) is not null$$, array[]::text[]);
select tests.each_actor_through_marketplace('give a gift to another address',
  $$select 1 where public.change_gift_recipient(tests.id('track gift'), 'other@tests.example') is not null$$, array['fan']);
select tests.one_actor('give a gift given to one to another address', 'recipient through the marketplace',
  $$select 1 where public.change_gift_recipient(tests.id('track gift'), 'other@tests.example') is not null$$, false);
select tests.each_actor_through_marketplace('refund an unclaimed gift',
  $$select 1 where public.line_to_refund(tests.id('track gift line')) is not null$$, array['fan', 'artist', 'admin']);
select tests.one_actor('refund a gift given to one', 'recipient through the marketplace',
  $$select 1 where public.line_to_refund(tests.id('track gift line')) is not null$$, false);
select tests.each_actor_through_marketplace('mail the gifts due', $$select 1 where public.send_due_gifts() is not null$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('mail the gifts due without the marketplace', $$select 1 where public.send_due_gifts() is not null$$,
  array[]::text[]);

select plan((select count(*)::integer from tests.cases) + 24);

select * from tests.proved_cases();

-- The giver paid and gets nothing of it; the recipient of today's gift is mailed once, at once.
select is((select count(*)::integer from public.purchases where user_id = tests.id('fan')), 0, 'a gift is not its giver''s');
select is((select count(*)::integer from private.mails where kind = 'gift' and recipient = 'recipient@tests.example'), 1,
  'a gift for today is mailed as it is paid');
select is((select count(*)::integer from private.mails where kind = 'gift' and recipient = 'later@tests.example'), 0,
  'a gift for later waits for its day');
select is((select count(*)::integer from public.notifications where kind = 'sale' and user_id = tests.id('artist')), 2,
  'the artist hears of each gift as a sale');
select ok(tests.allowed('artist', $$select 1 from public.sales() where gift$$), 'the artist''s sales say a gift was one');

-- Refused gifts: from a guest, of merch, to oneself, a message too long, a date too far.
select throws_ok($$select tests.open_gift('guest', 'track', jsonb_build_object('email', 'x@tests.example', 'send_on', current_date))$$,
  '22023', null, 'a guest gives no gift');
select throws_ok($$select tests.open_gift('fan', 'merch', jsonb_build_object('email', 'x@tests.example', 'send_on', current_date))$$,
  '22023', null, 'merch is not giftable');
select throws_ok($$select tests.open_gift('fan', 'track', jsonb_build_object('email', 'fan@tests.example', 'send_on', current_date))$$,
  '22023', null, 'a gift is for someone else');
select throws_ok($$select tests.open_gift('fan', 'track',
    jsonb_build_object('email', 'x@tests.example', 'send_on', current_date, 'message', repeat('x', 501)))$$,
  '22023', null, 'a message is at most 500 characters');
select throws_ok($$select tests.open_gift('fan', 'track', jsonb_build_object('email', 'x@tests.example', 'send_on', current_date + 31))$$,
  '22023', null, 'a gift is sent within 30 days');

-- Its day comes: the hourly job mails it once, however often it runs.
update public.gifts set send_on = current_date where id = tests.id('album gift');
select is(jsonb_array_length(tests.as_marketplace('select to_jsonb(public.send_due_gifts())')), 1, 'the job mails a gift on its day');
select is(jsonb_array_length(tests.as_marketplace('select to_jsonb(public.send_due_gifts())')), 0, 'and once');

-- The giver cannot claim their own gift; the recipient claims it once; the link claims nothing for anyone else then.
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 1))', tests.id('track gift')), 'fan') #>> '{}',
  'own gift', 'the giver cannot claim their gift');
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 1))', tests.id('track gift')), 'recipient') #>> '{}',
  'claimed', 'the recipient claims it');
select is((select count(*)::integer from public.purchases where user_id = tests.id('recipient') and track_id = tests.id('track')), 1,
  'and the track is theirs');
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 1))', tests.id('track gift')), 'second') #>> '{}',
  'taken', 'the link claims nothing for anyone else after');
select ok(not tests.allowed('fan through the marketplace', format('select 1 where public.line_to_refund(%L) is not null',
  tests.id('track gift line'))), 'a claimed gift is not the giver''s to refund');

-- A gift of what one owns already stays unclaimed; given to another address, the earlier link claims nothing.
insert into public.purchases (amount, track_id, user_id) values (0, tests.id('out'), tests.id('second'));
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 1))', tests.id('album gift')), 'second') #>> '{}',
  'owned', 'a gift already owned stays unclaimed');
select ok(tests.through_marketplace(format('select to_jsonb(public.change_gift_recipient(%L, %L))', tests.id('album gift'),
  'recipient@tests.example'), 'fan') <> 'null'::jsonb, 'the giver gives it to another address, which is mailed');
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 1))', tests.id('album gift')), 'recipient') #>> '{}',
  'withdrawn', 'the earlier address''s link claims nothing');
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 2))', tests.id('album gift')), 'recipient') #>> '{}',
  'claimed', 'the new address''s link claims it');

-- An album's track whose day comes later goes to the claimant, not the giver.
update public.tracks set release_date = current_date where id = tests.id('ahead');
select is(private.give_released_album_tracks(), 1, 'the track''s day gives it once');
select is((select user_id from public.purchases where track_id = tests.id('ahead')), tests.id('recipient'),
  'to the gift''s claimant');

-- While its giver's refund is under way, nobody claims it (the refund lands on an unclaimed gift).
do $$
begin
  perform tests.remember('third gift', format('select %L::uuid', tests.gift(
    jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id('track'))), 'second@tests.example', current_date, 'cs_gift_third')));
  perform tests.through_marketplace(format('select public.line_to_refund(%L)',
    (select order_line_id from public.gifts where id = tests.id('third gift'))), 'fan');
end
$$;
select is(tests.through_marketplace(format('select to_jsonb(public.claim_gift(%L, 1))', tests.id('third gift')), 'second') #>> '{}',
  'withdrawn', 'a gift being refunded is not claimed meanwhile');

select * from finish();
rollback;
