-- Memberships (22_memberships.sql): tiers read by everyone but a banned artist's, written by their artist
-- alone, at most 5, a tier with members closed but never deleted; memberships read by the member, their
-- artist and administrators, written by the marketplace alone. Each paid period is an order of its own, once
-- per invoice, its artist's share credited to the ledger, pending; joining gives the back catalogue, and the
-- announcement job each new release, once however often it runs; what was given stays when it ends. The
-- artist's page shows the open tiers to all, a member their own membership, and the artist hears of each new member.
begin;
\ir helpers.sql

do $$
begin
  perform tests.new_user('other fan', '{"role": "fan", "username": "other-listener"}');
  perform tests.remember('tier', $q$
    insert into public.membership_tiers (artist_id, name, description, monthly_price_cents, yearly_price_cents, currency,
      grants_new_releases, grants_back_catalogue, discount_percent)
    values (tests.id('artist'), 'Inner circle', 'Everything, as it comes out', 500, 5000, 'USD', true, true, 10) returning id$q$);
  perform tests.remember('empty tier', $q$
    insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
    values (tests.id('artist'), 'Supporter', 300, 'USD') returning id$q$);
  perform tests.remember('banned tier', $q$
    insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
    values (tests.id('banned artist'), 'Hidden', 300, 'USD') returning id$q$);
end
$$;

-- The fan joins: the subscription's first invoice, paid, as the marketplace applies it.
create function tests.pay_period(invoice text, period_end timestamptz)
returns jsonb
language sql
as $$
  select tests.as_marketplace(format($q$select public.membership_paid(%L, 'sub_fan', tests.id('fan'), tests.id('tier'), 'month', 500, 95,
    'usd', %L, 'pi_' || %L, 'DE')$q$, invoice, period_end, invoice))
$$;

do $$
begin
  perform tests.remember('membership', $q$select (tests.pay_period('in_first', now() + interval '1 month') ->> 'membership_id')::uuid$q$);
end
$$;

-- Tiers.
select tests.each_actor('read a tier', $$select 1 from public.membership_tiers where id = tests.id('tier')$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read a banned artist''s tier', $$select 1 from public.membership_tiers where id = tests.id('banned tier')$$,
  array['admin']);
select tests.each_actor('add a tier', $$insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
  values (tests.id('artist'), 'Patron', 1000, 'USD')$$, array['artist']);
select tests.each_actor('change a tier', $$update public.membership_tiers set monthly_price_cents = 600 where id = tests.id('tier')$$,
  array['artist']);
select tests.each_actor('close a tier', $$update public.membership_tiers set closed = true where id = tests.id('tier')$$, array['artist']);
select tests.each_actor('delete a tier without members', $$delete from public.membership_tiers where id = tests.id('empty tier')$$,
  array['artist']);
select tests.one_actor('add a tier', 'banned artist', $$insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
  values (tests.id('banned artist'), 'Again', 300, 'USD')$$, false);
select tests.one_actor('change a tier', 'banned artist', $$update public.membership_tiers set name = 'Seen' where id = tests.id('banned tier')$$,
  false);
select tests.one_actor('read a tier', 'banned fan', $$select 1 from public.membership_tiers where id = tests.id('tier')$$, true);
select tests.one_actor('read a tier', 'other fan', $$select 1 from public.membership_tiers where id = tests.id('tier')$$, true);

-- Memberships.
select tests.each_actor('read a membership', $$select 1 from public.memberships where id = tests.id('membership')$$,
  array['fan', 'artist', 'admin']);
select tests.one_actor('read a membership', 'other fan', $$select 1 from public.memberships where id = tests.id('membership')$$, false);
select tests.one_actor('read a membership', 'banned fan', $$select 1 from public.memberships where id = tests.id('membership')$$, false);
select tests.each_actor('make a membership', $$insert into public.memberships (fan_id, tier_id, artist_id, billing_interval, amount_cents,
  currency, subscription_id, current_period_end) values (tests.id('fan'), tests.id('empty tier'), tests.id('artist'), 'month', 0, 'USD',
  'sub_free', now() + interval '1 year')$$, array[]::text[]);
select tests.each_actor('change a membership', $$update public.memberships set current_period_end = now() + interval '10 years'
  where id = tests.id('membership')$$, array[]::text[]);
select tests.each_actor('end a membership by deleting it', $$delete from public.memberships where id = tests.id('membership')$$,
  array[]::text[]);
select tests.each_actor('pay a period without the marketplace', $$select public.membership_paid('in_forged', 'sub_forged', tests.id('fan'),
  tests.id('tier'), 'month', 0, 0, 'USD', now() + interval '1 year')$$, array[]::text[]);
select tests.each_actor('change a membership without the marketplace', $$select public.membership_changed('sub_fan', 'ended')$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('change a membership through the marketplace',
  $$select 1 where public.membership_changed('sub_fan', 'cancelling') = 'cancelling'$$, array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('cancel a membership without the marketplace', $$select public.cancel_membership(tests.id('membership'))$$,
  array[]::text[]);
select tests.each_actor_through_marketplace('cancel a membership through the marketplace',
  $$select 1 where public.cancel_membership(tests.id('membership')) = 'cancelling'$$, array['fan']);
select tests.one_actor('cancel a membership through the marketplace', 'other fan through the marketplace',
  $$select 1 where public.cancel_membership(tests.id('membership')) = 'cancelling'$$, false);
select tests.each_actor('read one''s tiers and members in the studio',
  $$select 1 from jsonb_array_elements(public.studio_memberships()) t cross join jsonb_array_elements(t -> 'members') m
    where m ->> 'name' = 'listener' and (t ->> 'member_count')::integer = 1$$, array['artist']);
select tests.each_actor('give new releases outside the job', $$select private.give_members_new_releases()$$, array[]::text[]);
-- The artist's page: its open tiers for everyone, and a member's own membership for the member alone.
select tests.each_actor('read the open tiers on the artist''s page',
  $$select 1 from jsonb_array_elements(public.artist_page(tests.id('artist')) -> 'membership_tiers') t where t ->> 'name' = 'Inner circle'$$,
  array['visitor', 'artist', 'other artist', 'fan', 'admin']);
select tests.each_actor('read one''s own membership on the artist''s page',
  $$select 1 where public.artist_page(tests.id('artist')) ->> 'membership' = 'Inner circle'$$, array['fan']);

select plan((select count(*)::integer from tests.cases) + 23);
select * from tests.proved_cases();

-- A paid period is an order of its own: one membership line, the artist's 88%, paid; its share pending in the ledger.
select is(
  (select jsonb_agg(jsonb_build_array(o.state, o.currency, o.total_cents, o.tax_cents, l.kind, l.title, l.item_id = tests.id('tier'),
     l.artist_share_cents, l.crate_cents))
   from public.orders o join public.order_lines l on l.order_id = o.id where o.buyer_id = tests.id('fan') and l.kind = 'membership'),
  '[["paid", "USD", 500, 95, "membership", "Inner circle", true, 440, 60]]'::jsonb,
  'a paid period is an order of its own, the artist''s share 88%');
select is(
  (select jsonb_agg(jsonb_build_array(e.kind, e.amount_cents, e.currency, e.item_id = tests.id('tier'), e.available_at > now()))
   from public.ledger_entries e join public.order_lines l on l.id = e.order_line_id where l.kind = 'membership'),
  '[["sale", 440, "USD", true, true]]'::jsonb,
  'its share is credited to the artist, pending');
select is(
  (select jsonb_build_array(m.state, m.billing_interval, m.amount_cents, m.currency, m.artist_id = tests.id('artist'))
   from public.memberships m where m.id = tests.id('membership')),
  '["active", "month", 500, "USD", true]'::jsonb,
  'the fan is a member');
select ok(exists (select 1 from public.followers f where f.artist_id = tests.id('artist') and f.fan_id = tests.id('fan')),
  'a new member follows the artist');
select is(
  (select jsonb_agg(n.actor_id = tests.id('fan')) from public.notifications n where n.user_id = tests.id('artist') and n.kind = 'member'),
  '[true]'::jsonb,
  'the artist is told of a new member');
-- The back catalogue: every track out by now, at 0 on the period's line; nothing not out yet.
select is(
  (select jsonb_agg(jsonb_build_array(p.amount, l.kind))
   from public.purchases p join public.order_lines l on l.id = p.order_line_id where p.user_id = tests.id('fan') and p.track_id = tests.id('track')),
  '[[0.00, "membership"]]'::jsonb,
  'joining a tier with the back catalogue gives its tracks out by now, at 0');
select ok(not exists (select 1 from public.purchases p where p.user_id = tests.id('fan') and p.track_id = tests.id('upcoming track')),
  'a track not out yet is not given');
-- Once per invoice; each renewal its own order.
select is(tests.pay_period('in_first', now() + interval '1 month') ->> 'duplicate', 'true', 'the same invoice again is taken once');
select is((select count(*)::integer from public.order_lines l where l.kind = 'membership'), 1, 'and makes no second order');
select is(tests.pay_period('in_second', now() + interval '2 months') ->> 'joined', 'false', 'a renewal is not a join');
select is(
  (select jsonb_build_array(count(*), sum(e.amount_cents)) from public.ledger_entries e
   join public.order_lines l on l.id = e.order_line_id where l.kind = 'membership'),
  '[2, 880]'::jsonb,
  'each paid period credits the artist once');
select ok((select m.current_period_end > now() + interval '59 days' from public.memberships m where m.id = tests.id('membership')),
  'a renewal moves the paid period on');
-- At most 5 tiers; a tier with members closed, never deleted.
select is(tests.attempt('artist', $$insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
  select tests.id('artist'), 'Tier ' || n, 100 * n, 'USD' from generate_series(1, 4) n$$), 'refused:54000', 'a sixth tier is refused');
select is(tests.attempt('artist', $$insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
  select tests.id('artist'), 'Tier ' || n, 100 * n, 'USD' from generate_series(1, 3) n$$), 'done:3', 'up to five are made');
select is(tests.attempt('artist', $$delete from public.membership_tiers where id = tests.id('tier')$$), 'refused:23503',
  'a tier with members is not deleted');
-- New releases on their day, through the announcement job, once however often it runs.
do $$
begin
  perform tests.remember('new track', $q$
    insert into public.tracks (artist_id, title, genre, price, description, release_date)
    values (tests.id('artist'), 'Out today', 'Rock', 1.99, 'New', current_date) returning id$q$);
  perform tests.as_marketplace('select public.announce_releases()');
  perform tests.as_marketplace('select public.announce_releases()');
end
$$;
select is(
  (select jsonb_agg(jsonb_build_array(p.amount, l.kind)) from public.purchases p join public.order_lines l on l.id = p.order_line_id
   where p.user_id = tests.id('fan') and p.track_id = tests.id('new track')),
  '[[0.00, "membership"]]'::jsonb,
  'a new release is given to members on its day, once');
select is(private.give_members_new_releases(), 0, 'a later run gives nothing again');
-- Ended: what was given stays, and an ended membership stays ended.
select is(tests.as_marketplace($$select to_jsonb(public.membership_changed('sub_fan', 'ended'))$$),
  '"ended"'::jsonb, 'the subscription''s end ends the membership');
select is(
  (select jsonb_build_array(m.state, m.ended_at is not null) from public.memberships m where m.id = tests.id('membership')),
  '["ended", true]'::jsonb, 'an ended membership says when');
select is(
  (select jsonb_agg(p.track_id = tests.id('new track') order by p.track_id = tests.id('new track')) from public.purchases p
   where p.user_id = tests.id('fan') and p.track_id in (tests.id('track'), tests.id('new track'))),
  '[false, true]'::jsonb, 'what the membership gave stays the fan''s');
select is(tests.as_marketplace($$select to_jsonb(public.membership_changed('sub_fan', 'active'))$$), '"ended"'::jsonb,
  'an ended membership stays ended');
select is(tests.through_marketplace($$select to_jsonb(public.cancel_membership(tests.id('membership')))$$, 'fan'), '"ended"'::jsonb,
  'an ended membership is not cancelled');

-- An artist's account removed takes its tiers along, members and all.
with tier as (
  insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency)
  values (tests.id('other artist'), 'Theirs', 300, 'USD') returning id)
insert into public.memberships (fan_id, tier_id, artist_id, billing_interval, amount_cents, currency, subscription_id, current_period_end)
select tests.id('other fan'), tier.id, tests.id('other artist'), 'month', 300, 'USD', 'sub_other', now() + interval '1 month' from tier;
select lives_ok($$delete from auth.users where id = tests.id('other artist')$$,
  'an artist''s account removed takes its tiers and their memberships along');

select * from finish();
rollback;
