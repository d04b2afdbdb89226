-- What is sold (03_sellables.sql, 16_orders.sql, 17_fulfilment.sql, 18_admin_money.sql, 18_ledger.sql): an
-- order line names its item as the cart does, by kind and id, and the database holds that item to exist and to
-- be of the line's kind; a deleted item leaves its lines their kind and title. Every read of sales (Payments
-- and its CSV, the filter of what sold, Your Tracks' sales, analytics, balances, the administrators' figures,
-- receipts and mails) gives the figures it gave when a line had a column per kind (these figures were taken
-- then): an order of an album, merch and a track, the track refunded, and a guest's track.
begin;
\ir helpers.sql

do $$
begin
  perform tests.remember('track release', $q$select release_id from public.tracks where id = tests.id('track')$q$);
  perform tests.remember('upcoming release', $q$select release_id from public.tracks where id = tests.id('upcoming track')$q$);
  perform tests.remember('album', $q$
    insert into public.releases (artist_id, kind, title) values (tests.id('artist'), 'album', 'Long Player') returning id$q$);
  perform tests.remember('first album track', $q$
    insert into public.tracks (artist_id, release_id, track_number, title, genre, price, description, release_date)
    values (tests.id('artist'), tests.id('album'), 1, 'Side A', 'Rock', 1.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('second album track', $q$
    insert into public.tracks (artist_id, release_id, track_number, title, genre, price, description, release_date)
    values (tests.id('artist'), tests.id('album'), 2, 'Side B', 'Rock', 2.00, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('shirt', $q$
    insert into public.merch (artist_id, title, price, description, stock, ships_from, shipping_home, shipping_elsewhere)
    values (tests.id('artist'), 'Shirt', 10.00, 'Cotton', 5, 'GB', 2.00, 5.00) returning id$q$);
  perform tests.remember('other track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('other artist'), 'Elsewhere', 'Rock', 1.49, 'Out now', current_date - 1) returning id$q$);
  perform tests.remember('other release', $q$select release_id from public.tracks where id = tests.id('other track')$q$);
end
$$;

-- A fixture's name for its id (what an item is called in the figures below), or the id.
create function tests.named(id text)
returns text
language sql
as $$
  select coalesce((select f.name from tests.fixtures f where f.id::text = named.id limit 1), named.id)
$$;

-- The fan's order (the album, two shirts to GB and the track) and a guest's (the other artist's track),
-- paid as the marketplace applies a payment; then the artist refunds the fan's track.
do $$
declare
  opened jsonb;
begin
  opened := tests.through_marketplace($q$select public.open_order(jsonb_build_array(jsonb_build_object('kind', 'album', 'id', tests.id('album')),
      jsonb_build_object('kind', 'merch', 'id', tests.id('shirt'), 'quantity', 2), jsonb_build_object('kind', 'track', 'id', tests.id('track'))),
    '{}', 'USD', false, true, null, 'GB')$q$, 'fan');
  insert into tests.fixtures values ('fan order', (opened ->> 'order_id')::uuid);
  perform tests.through_marketplace(format($q$select to_jsonb(public.attach_checkout(%L, 'cs_fan'))$q$, opened ->> 'order_id'), 'fan');
  perform tests.through_marketplace($q$select to_jsonb(public.apply_checkout('cs_fan', 'paid', 'pi_fan', 'GB', null, null, null,
    '{"name": "Fan", "line1": "1 High St", "city": "Leeds", "postal_code": "LS1 1AA", "country": "GB"}'))$q$, 'fan');
  opened := tests.as_marketplace($q$select public.open_order(jsonb_build_array(jsonb_build_object('kind', 'track', 'id', tests.id('other track'))),
    '{}', 'USD', false, false, 'guest@tests.example')$q$);
  insert into tests.fixtures values ('guest order', (opened ->> 'order_id')::uuid);
  perform tests.as_marketplace(format($q$select to_jsonb(public.attach_checkout(%L, 'cs_guest'))$q$, opened ->> 'order_id'));
  perform tests.as_marketplace($q$select to_jsonb(public.apply_checkout('cs_guest', 'paid', 'pi_guest', 'GB'))$q$);
  perform tests.through_marketplace($q$select to_jsonb(public.record_refund((select l.id from public.order_lines l
    where l.order_id = tests.id('fan order') and l.kind = 'track'), 're_track'))$q$, 'artist');
end
$$;

select plan(23);

-- Payments and its CSV: each line's figures, and what it counts under (a track its release).
select is(
  tests.through_marketplace($q$select jsonb_agg(jsonb_build_array(s.kind, s.title, s.amount, s.discount, s.shipping, s.total, s.artist_share,
      s.quantity, s.refunded_at is not null, tests.named(s.item_id::text)) order by s.title) from public.sales(1000) s$q$, 'artist'),
  $$[["album", "Long Player", 300, 0, 0, 300, 264, 1, false, "album"],
     ["track", "Released", 199, 0, 0, 199, 175, 1, true, "track release"],
     ["merch", "Shirt", 2000, 0, 400, 2400, 2240, 2, false, "shirt"]]$$::jsonb,
  'Payments lists each line''s figures and what it counts under');
select is(
  tests.through_marketplace($q$select jsonb_object_agg(tests.named(i.item_id::text),
      (select jsonb_agg(s.title order by s.title) from public.sales(1000, i.item_id) s)) from public.sold_items() i$q$, 'artist'),
  '{"album": ["Long Player"], "shirt": ["Shirt"], "track release": ["Released"]}'::jsonb,
  'Payments filters by what a line counts under');
select is(
  tests.through_marketplace($q$select jsonb_agg(jsonb_build_array(tests.named(i.item_id::text), i.title, i.kind) order by i.title)
    from public.sold_items() i$q$, 'artist'),
  '[["album", "Long Player", "album"], ["track release", "Released", "single"], ["shirt", "Shirt", "merch"]]'::jsonb,
  'what sold names each release and merch item, with its kind');
-- The administrators see every artist's lines.
select is(
  tests.through_marketplace($q$select jsonb_agg(jsonb_build_array(s.title, s.total, s.artist_share, tests.named(s.item_id::text)) order by s.title)
    from public.sales(1000) s$q$, 'admin'),
  $$[["Elsewhere", 149, 131, "other release"], ["Long Player", 300, 264, "album"], ["Released", 199, 175, "track release"],
     ["Shirt", 2400, 2240, "shirt"]]$$::jsonb,
  'the administrators'' sales list every line');
select is(
  (tests.through_marketplace($q$select jsonb_path_query_array(public.admin_money(7), '$.currencies[*] ? (@.currency == "USD")')$q$, 'admin')
    -> 0) - 'paid_out' - 'failed' - 'failed_count' - 'disputed' - 'dispute_count' - 'due',
  '{"currency": "USD", "gross": 3048, "crate": 214, "refunded": 199}'::jsonb,
  'the administrators'' figures: gross, Crate''s part and refunds');
-- The ledger: each line's share credited under what it counts under; the refund debited under the same.
select is(
  (select jsonb_agg(jsonb_build_array(e.kind, e.amount_cents, tests.named(e.item_id::text)) order by e.kind, e.amount_cents)
   from public.ledger_entries e where e.artist_id = tests.id('artist')),
  $$[["refund", -175, "track release"], ["sale", 175, "track release"], ["sale", 264, "album"], ["sale", 2240, "shirt"]]$$::jsonb,
  'the ledger credits each share, and debits the refund, under what the line counts under');
select is(
  (select jsonb_agg(jsonb_build_array(b.currency, b.pending, b.available, b.earned)) from private.balances(tests.id('artist')) b),
  '[["USD", 2504, 0, 2504]]'::jsonb,
  'the artist''s balance is the shares less the refund');
-- Your Tracks and analytics count sales and revenue per release and merch item.
select is(
  tests.through_marketplace($q$select jsonb_build_object(
      'releases', (select jsonb_object_agg(tests.named(r.key), r.value) from jsonb_each(c -> 'release_sales') r),
      'merch', (select jsonb_agg(jsonb_build_array(m ->> 'title', m -> 'sales', m -> 'revenue', m -> 'units_left')) from jsonb_array_elements(c -> 'merch') m))
    from public.studio_catalog('all', 1, 50) c$q$, 'artist'),
  $${"releases": {"album": {"sales": 1, "revenue": 2.64}, "track release": {"sales": 0, "revenue": 0},
     "upcoming release": {"sales": 0, "revenue": 0}},
     "merch": [["Shirt", 1, 22.40, 3]]}$$::jsonb,
  'Your Tracks counts each release''s and merch item''s sales and revenue');
select is(
  tests.through_marketplace($q$select jsonb_agg(jsonb_build_array(t ->> 'kind', tests.named(t ->> 'id'), t -> 'sales', t -> 'revenue') order by t ->> 'title')
    from jsonb_array_elements(public.artist_analytics(30) -> 'top_sellers') t$q$, 'artist'),
  '[["album", "album", 1, 2.64], ["merch", "shirt", 1, 22.40]]'::jsonb,
  'analytics'' best sellers are releases and merch, with the ledger''s sales and revenue');
select is(
  tests.through_marketplace($q$select jsonb_agg(jsonb_build_array(a ->> 'title', tests.named(a ->> 'track_id'), tests.named(a ->> 'album_id'), a -> 'amount',
      a -> 'refunded') order by a ->> 'title') from jsonb_array_elements(public.artist_dashboard() -> 'activity') a where a ->> 'type' = 'purchase'$q$,
    'artist'),
  '[["Long Player", null, "album", 3.00, false], ["Released", "track", null, 1.99, true], ["Shirt", null, null, 24.00, false]]'::jsonb,
  'Recent Activity names each sale''s page: a track''s, an album''s, none for merch');
-- The purchases the album gave: its total divided between its tracks by their prices.
select is(
  (select jsonb_agg(jsonb_build_array(tests.named(p.track_id::text), p.amount) order by p.amount)
   from public.purchases p join public.order_lines l on l.id = p.order_line_id where l.order_id = tests.id('fan order')),
  '[["first album track", 1.00], ["second album track", 2.00]]'::jsonb,
  'an album line gives its tracks, its total divided by their prices');
-- Receipts and mails name each line's item by its kind and id.
select is(
  tests.through_marketplace($q$select jsonb_agg(jsonb_build_array(l ->> 'kind', tests.named(l ->> 'item_id'), l -> 'total') order by l ->> 'title')
    from jsonb_array_elements(public.checkout_order('cs_fan') -> 'lines') l$q$, 'fan'),
  '[["album", "album", 300], ["track", "track", 199], ["merch", "shirt", 2400]]'::jsonb,
  'the return page names each line''s item');
-- (the guest's receipt link: the marketplace names their order)
do $$
begin
  perform tests.send_marketplace_headers(jsonb_build_object('x-guest-order', tests.id('guest order')));
end
$$;
select is(
  (select jsonb_agg(jsonb_build_array(l ->> 'kind', tests.named(l ->> 'item_id'), l -> 'total'))
   from jsonb_array_elements(public.guest_receipt() -> 'lines') l),
  '[["track", "other track", 149]]'::jsonb,
  'a guest''s receipt names each line''s item');
reset request.headers;
select is(
  tests.as_marketplace($q$select jsonb_agg(jsonb_build_array(m.kind, l ->> 'kind', tests.named(l ->> 'item_id'), l -> 'total', l -> 'artist_share',
      l -> 'refunded') order by m.kind, l ->> 'title')
    from private.mails m cross join jsonb_array_elements(public.mail_to_send(m.id) -> 'lines') l where m.order_id = tests.id('fan order')$q$),
  $$[["receipt", "album", "album", 300, 264, false], ["receipt", "track", "track", 199, 175, true], ["receipt", "merch", "shirt", 2400, 2240, false],
     ["refund", "track", "track", 199, 175, true], ["sale", "album", "album", 300, 264, false], ["sale", "track", "track", 199, 175, true],
     ["sale", "merch", "shirt", 2400, 2240, false]]$$::jsonb,
  'the mails name each line''s item, with its figures');

-- What is sold is the database's to keep: a line names an item of its kind that exists.
select throws_ok($$insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, total_cents,
    artist_share_cents, crate_cents)
  values (tests.id('fan order'), tests.id('artist'), 'album', tests.id('track'), 'Not an album', 100, 100, 88, 12)$$,
  '23503', null, 'a line''s item is of its kind');
select throws_ok($$insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, total_cents,
    artist_share_cents, crate_cents)
  values (tests.id('fan order'), tests.id('artist'), 'track', gen_random_uuid(), 'Nothing', 100, 100, 88, 12)$$,
  '23503', null, 'a line''s item exists');
select is(tests.attempt('visitor', 'select 1 from public.sellables'), 'refused:42501', 'a visitor reads nothing of what is sold');
select is(tests.attempt('other artist', $$select 1 from public.sellables where artist_id = tests.id('artist')$$), 'done:0',
  'an artist reads what they sell alone');
select is(tests.attempt('artist', $$update public.merch set title = 'Tee' where id = tests.id('shirt')$$), 'done:1',
  'an artist renames their merch');
select is(tests.through_marketplace($q$select jsonb_agg(i.title order by i.title) from public.sold_items() i$q$, 'artist'),
  '["Long Player", "Released", "Shirt"]'::jsonb, 'what sold follows its item (the rename was undone)');
update public.merch set title = 'Tee' where id = tests.id('shirt');
select is(tests.through_marketplace($q$select jsonb_agg(i.title order by i.title) from public.sold_items() i$q$, 'artist'),
  '["Long Player", "Released", "Tee"]'::jsonb, 'what sold is named as its item is now');
-- An item deleted (merch, or a track whose sale was refunded: a track with purchases stays) leaves its lines
-- their kind, title and figures; only the reference goes.
delete from public.merch where id = tests.id('shirt');
delete from public.tracks where id = tests.id('track');
select is(
  (select jsonb_agg(jsonb_build_array(l.kind, l.title, tests.named(l.item_id::text), l.total_cents) order by l.title)
   from public.order_lines l where l.order_id = tests.id('fan order')),
  '[["album", "Long Player", "album", 300], ["track", "Released", null, 199], ["merch", "Shirt", null, 2400]]'::jsonb,
  'a deleted item''s lines keep their kind, title and figures');
select is(
  (select jsonb_agg(jsonb_build_array(e.kind, e.amount_cents, e.item_id is null) order by e.kind, e.amount_cents)
   from public.ledger_entries e where e.artist_id = tests.id('artist')),
  $$[["refund", -175, true], ["sale", 175, true], ["sale", 264, false], ["sale", 2240, true]]$$::jsonb,
  'the ledger keeps every entry of a deleted item');

select * from finish();
rollback;
