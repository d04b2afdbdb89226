-- Recommendations: releases and artists for a fan from what they follow, bought, liked and played, each
-- with its reason, and a release page's "fans who bought this also bought". Definer, because they count
-- other fans' purchases; they answer releases and counts alone, never who bought what, and only what a
-- visitor could see (released, its artist not banned). Bounded at every step (a release's newest 200
-- buyers and their newest 50 purchases; for a fan's recommendations, their newest 5 purchases with 100
-- buyers each and 20 purchases of theirs, 50 follows, 200 plays, 50 likes), so a call costs the same at 100
-- times the data as now (`npm run bench:backend -- --catalog`).
set check_function_bodies = off;

-- Whether a visitor may see `release_id` now (the tracks' policy, for a definer's reads).
create or replace function private.is_released(release_id uuid, banned uuid[])
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1 from public.tracks t
    where t.release_id = is_released.release_id and t.release_date <= current_date and t.artist_id <> all (banned))
$$;

revoke execute on function private.is_released(uuid, uuid[]) from public, anon, authenticated;

-- A release as a recommendation's card shows it.
create or replace function private.release_card(release_id uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object('id', r.id, 'kind', r.kind, 'title', r.title, 'artist_id', a.id, 'artist_name', a.artist_name,
    'artwork_url', (select coalesce(t.artwork_small_url, t.artwork_url) from public.tracks t
      where t.release_id = r.id order by t.track_number nulls last, t.created_at limit 1),
    'first_track_id', (select t.id from public.tracks t
      where t.release_id = r.id order by t.track_number nulls last, t.created_at limit 1))
  from public.releases r join public.artist_profiles a on a.id = r.artist_id
  where r.id = release_card.release_id
$$;

revoke execute on function private.release_card(uuid) from public, anon, authenticated;

-- The releases that the newest `max_buyers` buyers of `release_id` bought besides it (of each buyer's
-- newest `purchases_each`), with how many of them did. `buyer` is left out (a fan's own purchases recommend
-- nothing to them). Nothing for a release with fewer than 3 buyers besides `buyer`: with one, the answer
-- is exactly that fan's other purchases (and a follow notice in the same second names them).
create or replace function private.bought_together(release_id uuid, buyer uuid, max_buyers integer, purchases_each integer)
returns table (release_id uuid, buyers bigint)
language sql
stable
set search_path = ''
as $$
  with buyers as (
    select p.user_id
    from public.tracks t
    join public.purchases p on p.track_id = t.id
    where t.release_id = bought_together.release_id and p.user_id is not null
      and p.user_id is distinct from bought_together.buyer
      -- Buyers who paid: a download code (or a free order) makes no buyer, so an artist's own codes cannot
      -- make up the three buyers around one fan.
      and p.download_code_id is null and p.amount > 0
      -- A purchase its buyer keeps off their page counts for nothing here either.
      and not private.purchase_hidden(p.user_id, bought_together.release_id)
    group by p.user_id
    order by max(p.created_at) desc
    limit bought_together.max_buyers
  )
  select t.release_id, count(distinct b.user_id)
  from buyers b
  cross join lateral (
    select p.track_id from public.purchases p where p.user_id = b.user_id order by p.created_at desc limit bought_together.purchases_each) p
  join public.tracks t on t.id = p.track_id
  where t.release_id <> bought_together.release_id
    and not exists (select 1 from public.hidden_purchases h where h.fan_id = b.user_id and h.release_id = t.release_id)
    and (select count(*) from buyers) >= 3
  group by t.release_id
$$;

revoke execute on function private.bought_together(uuid, uuid, integer, integer) from public, anon, authenticated;

-- A release page's "fans who bought this also bought": at most `max_count` (6) released releases, by how
-- many of its buyers bought them; none of the reader's own (signed in: nor what they own, and their
-- purchases count neither as a buyer nor as a release bought). A track's page names its track
-- (`track_id`): its release's.
create or replace function private.also_bought(release_id uuid, track_id uuid, max_count integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with banned as (select private.banned_accounts() as ids),
  me as (select (select auth.uid()) as id),
  this as (
    select coalesce(also_bought.release_id, (select t.release_id from public.tracks t where t.id = also_bought.track_id)) as id
  )
  select coalesce(jsonb_agg(private.release_card(picked.release_id) order by picked.buyers desc, picked.release_id), '[]')
  from (
    select b.release_id, b.buyers
    from me cross join this cross join lateral private.bought_together(this.id, me.id, 200, 50) b, banned
    where private.is_released(b.release_id, banned.ids)
      and not exists (select 1 from public.releases r where r.id = b.release_id and r.artist_id = me.id)
      and not exists (select 1 from public.purchases p join public.tracks t on t.id = p.track_id
        where p.user_id = me.id and t.release_id = b.release_id)
    order by b.buyers desc, b.release_id
    limit least(greatest(coalesce(also_bought.max_count, 6), 1), 12)
  ) picked
$$;

revoke execute on function private.also_bought(uuid, uuid, integer) from public;

grant execute on function private.also_bought(uuid, uuid, integer) to anon, authenticated;

create or replace function public.also_bought(release_id uuid default null, track_id uuid default null, max_count integer default 6)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.also_bought(also_bought.release_id, also_bought.track_id, also_bought.max_count)
$$;

revoke execute on function public.also_bought(uuid, uuid, integer) from public;

grant execute on function public.also_bought(uuid, uuid, integer) to anon, authenticated;

-- The newest released releases of an artist or of a genre, at most `max_count`: read from the newest tracks
-- through their index (tracks_artist_id_release_date_idx, tracks_genre_release_date_idx), never a whole
-- catalogue grouped.
create or replace function private.newest_releases(artist_id uuid, genre text, max_count integer)
returns table (release_id uuid, released timestamptz)
language sql
stable
set search_path = ''
as $$
  select t.release_id, max(t.release_date)::timestamptz
  from (
    select t.release_id, t.release_date from public.tracks t
    where t.artist_id = newest_releases.artist_id and t.release_date <= current_date
    order by t.release_date desc limit newest_releases.max_count * 10) t
  where newest_releases.artist_id is not null
  group by t.release_id
  union all
  select t.release_id, max(t.release_date)::timestamptz
  from (
    select t.release_id, t.release_date from public.tracks t
    where t.genre = newest_releases.genre and t.release_date <= current_date
    order by t.release_date desc, t.created_at desc limit newest_releases.max_count * 10) t
  where newest_releases.genre is not null
  group by t.release_id
  order by 2 desc
  limit newest_releases.max_count
$$;

revoke execute on function private.newest_releases(uuid, text, integer) from public, anon, authenticated;

-- The caller's recommended releases, at most `max_count` (8), each with why: bought by fans who bought
-- what the caller bought ("bought", naming it); new from an artist they follow ("follow"); from an artist
-- of a track they liked ("like"); the newest in the genre they play most ("genre"). The first reason a
-- release has, in that order, is the one shown; never a release the caller owns, their own, an unreleased
-- one or a banned artist's.
create or replace function private.recommended_releases(max_count integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with me as (select (select auth.uid()) as id),
  -- Read once: inlined, banned_accounts() ran once for every candidate.
  banned as materialized (select private.banned_accounts() as ids),
  owned as (
    select distinct t.release_id from me join public.purchases p on p.user_id = me.id join public.tracks t on t.id = p.track_id
  ),
  -- The caller's own releases, read by artist (releases_artist_id_created_at_idx): a fan has none. As a
  -- `not exists` on each candidate, the planner, counting on a thousand rows from each function, hashed
  -- every release of the marketplace (100,000 at 100× the demo data, most of the dashboard's time).
  mine as (
    select r.id from me join public.releases r on r.artist_id = me.id
  ),
  bought as (
    select t.release_id, max(p.created_at) as at
    from me join public.purchases p on p.user_id = me.id join public.tracks t on t.id = p.track_id
    group by t.release_id order by max(p.created_at) desc limit 5
  ),
  played_genres as (
    select t.genre, count(*) as plays
    from (select e.track_id from me join public.analytics_events e on e.user_id = me.id and e.type = 'play'
      order by e.created_at desc limit 200) e
    join public.tracks t on t.id = e.track_id
    group by t.genre order by count(*) desc, t.genre limit 2
  ),
  candidates as (
    select together.release_id, 1 as rank, together.buyers::numeric as score, 'bought' as reason,
      (select r.title from public.releases r where r.id = b.release_id) as because, b.release_id as because_id
    from bought b cross join lateral private.bought_together(b.release_id, (select id from me), 100, 20) together
    union all
    select newest.release_id, 2, extract(epoch from newest.released), 'follow', a.artist_name, a.id
    from (select f.artist_id from me join public.followers f on f.fan_id = me.id order by f.created_at desc limit 50) f
    join public.artist_profiles a on a.id = f.artist_id
    cross join lateral private.newest_releases(f.artist_id, null, 3) newest
    union all
    select other.release_id, 3, extract(epoch from other.released), 'like', liked.title, liked.id
    from (select l.track_id from me join public.likes l on l.user_id = me.id order by l.created_at desc limit 50) l
    join public.tracks liked on liked.id = l.track_id
    cross join lateral private.newest_releases(liked.artist_id, null, 4) other
    where other.release_id <> liked.release_id
    union all
    select newest.release_id, 4, g.plays * 1e12 + extract(epoch from newest.released), 'genre', g.genre, null
    from played_genres g
    cross join lateral private.newest_releases(null, g.genre, 20) newest
  ),
  picked as (
    select distinct on (c.release_id) c.*
    from candidates c
    where c.release_id not in (select o.release_id from owned o)
      and c.release_id not in (select m.id from mine m)
    order by c.release_id, c.rank, c.score desc
  ),
  -- In the order shown; `offset 0` keeps the release check below out of this subquery, so it runs on the
  -- first releases alone, until `max_count` pass, not on every candidate (a few hundred at 100×). Whether
  -- a release is out is the release's, whichever reason brought it.
  ranked as (
    select p.* from picked p order by p.rank, p.score desc, p.release_id offset 0
  )
  select coalesce(jsonb_agg(private.release_card(top.release_id)
      || jsonb_build_object('reason', top.reason, 'because', top.because, 'because_id', top.because_id)
      order by top.rank, top.score desc, top.release_id), '[]')
  from (
    select r.* from ranked r
    where private.is_released(r.release_id, (select b.ids from banned b))
    limit least(greatest(coalesce(recommended_releases.max_count, 8), 1), 24)
  ) top
$$;

revoke execute on function private.recommended_releases(integer) from public, anon;

grant execute on function private.recommended_releases(integer) to authenticated;
