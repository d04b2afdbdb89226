-- Analytics (spec sections 2, 3 and 7): where plays and sales come from, and daily rollups that keep an
-- artist's figures fast however many events they have.
--
-- Why rollups rather than indexes alone: an artist's figures for a year are sums over every event of that
-- year. With an index that is still one index entry per event (a million plays is a million entries to
-- count on every visit); a rollup is one row per track per day and one per country per day, whatever the
-- number of events (a year of fifty tracks is about 18,000 rows). The database keeps them itself, in the
-- same transaction as the events (statement triggers, so a bulk insert costs one grouped write), so they
-- are never stale and nothing else has to run.

-- The listener's or buyer's country (ISO 3166-1 alpha-2, as Cloudflare reports it on the request); null
-- when unknown (locally, or when Cloudflare cannot tell).
alter table public.analytics_events add column country text check (country ~ '^[A-Z]{2}$');
alter table public.purchases add column country text check (country ~ '^[A-Z]{2}$');

-- One row per track and UTC day. Read by the track's artist only; written only by the triggers below.
create table public.track_daily_stats (
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  day date not null,
  track_id uuid not null references public.tracks (id) on delete cascade,
  plays integer not null default 0,
  downloads integer not null default 0,
  sales integer not null default 0,
  revenue numeric(14, 2) not null default 0,
  primary key (artist_id, day, track_id)
);

create index track_daily_stats_track_id_idx on public.track_daily_stats (track_id);

-- One row per artist, country and UTC day; 'ZZ' (CLDR's "unknown region") stands for an unknown country.
create table public.country_daily_stats (
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  day date not null,
  country text not null check (country ~ '^[A-Z]{2}$'),
  plays integer not null default 0,
  downloads integer not null default 0,
  primary key (artist_id, day, country)
);

revoke all on public.track_daily_stats, public.country_daily_stats from anon, authenticated;
grant select on public.track_daily_stats, public.country_daily_stats to authenticated;

alter table public.track_daily_stats enable row level security;
alter table public.country_daily_stats enable row level security;

create policy "Artists read their own daily track figures" on public.track_daily_stats
  for select to authenticated using (artist_id = (select auth.uid()));
create policy "Artists read their own daily country figures" on public.country_daily_stats
  for select to authenticated using (artist_id = (select auth.uid()));

-- Definer: the rollups take no writes from users; these add (or, for deleted rows, take away) each
-- statement's events, grouped, so a bulk insert is one write per track and day. Rows of a track or
-- artist being deleted are skipped: their rollups go with them (cascade).
create or replace function private.roll_up_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  sign integer := case when tg_op = 'DELETE' then -1 else 1 end;
begin
  insert into public.track_daily_stats as s (artist_id, day, track_id, plays, downloads)
  select e.artist_id, (e.created_at at time zone 'UTC')::date, e.track_id,
    sign * count(*) filter (where e.type = 'play'), sign * count(*) filter (where e.type = 'download')
  from changed_events e
  join public.tracks t on t.id = e.track_id
  group by 1, 2, 3
  on conflict (artist_id, day, track_id) do update
    set plays = s.plays + excluded.plays, downloads = s.downloads + excluded.downloads;

  insert into public.country_daily_stats as s (artist_id, day, country, plays, downloads)
  select e.artist_id, (e.created_at at time zone 'UTC')::date, coalesce(e.country, 'ZZ'),
    sign * count(*) filter (where e.type = 'play'), sign * count(*) filter (where e.type = 'download')
  from changed_events e
  join public.artist_profiles a on a.id = e.artist_id
  group by 1, 2, 3
  on conflict (artist_id, day, country) do update
    set plays = s.plays + excluded.plays, downloads = s.downloads + excluded.downloads;
  return null;
end
$$;

create or replace function private.roll_up_purchases()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  sign integer := case when tg_op = 'DELETE' then -1 else 1 end;
begin
  insert into public.track_daily_stats as s (artist_id, day, track_id, sales, revenue)
  select p.artist_id, (p.created_at at time zone 'UTC')::date, p.track_id, sign * count(*), sign * sum(p.amount)
  from changed_purchases p
  join public.tracks t on t.id = p.track_id
  group by 1, 2, 3
  on conflict (artist_id, day, track_id) do update
    set sales = s.sales + excluded.sales, revenue = s.revenue + excluded.revenue;
  return null;
end
$$;

revoke execute on function private.roll_up_events(), private.roll_up_purchases() from public;

-- Events and purchases are never updated through the API (no grants); inserts and deletes (a track's
-- removal cascades to its events) are what change the figures.
create trigger roll_up_new_events
  after insert on public.analytics_events referencing new table as changed_events
  for each statement execute function private.roll_up_events();
create trigger roll_up_removed_events
  after delete on public.analytics_events referencing old table as changed_events
  for each statement execute function private.roll_up_events();
create trigger roll_up_new_purchases
  after insert on public.purchases referencing new table as changed_purchases
  for each statement execute function private.roll_up_purchases();
create trigger roll_up_removed_purchases
  after delete on public.purchases referencing old table as changed_purchases
  for each statement execute function private.roll_up_purchases();

-- What is already there.
insert into public.track_daily_stats (artist_id, day, track_id, plays, downloads, sales, revenue)
select artist_id, day, track_id, sum(plays), sum(downloads), sum(sales), sum(revenue)
from (
  select artist_id, (created_at at time zone 'UTC')::date as day, track_id,
    count(*) filter (where type = 'play') as plays, count(*) filter (where type = 'download') as downloads,
    0 as sales, 0 as revenue
  from public.analytics_events group by 1, 2, 3
  union all
  select artist_id, (created_at at time zone 'UTC')::date, track_id, 0, 0, count(*), sum(amount)
  from public.purchases group by 1, 2, 3
) changes
group by 1, 2, 3;

insert into public.country_daily_stats (artist_id, day, country, plays, downloads)
select artist_id, (created_at at time zone 'UTC')::date, coalesce(country, 'ZZ'),
  count(*) filter (where type = 'play'), count(*) filter (where type = 'download')
from public.analytics_events
group by 1, 2, 3;

-- Plays now carry the listener's country (the Worker passes what Cloudflare says; null when unknown).
drop function public.record_play(uuid);
drop function private.record_play(uuid);

create or replace function private.record_play(track_id uuid, country text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  listener uuid := (select auth.uid());
  track_artist uuid;
begin
  select t.artist_id into track_artist
  from public.tracks t
  where t.id = record_play.track_id
    and (t.release_date <= current_date or t.artist_id = listener);

  if track_artist is null then
    raise exception 'track not found' using errcode = 'P0002';
  end if;

  insert into public.analytics_events (type, track_id, artist_id, user_id, country)
  values ('play', record_play.track_id, track_artist, listener, record_play.country);
end
$$;

revoke execute on function private.record_play(uuid, text) from public;
grant execute on function private.record_play(uuid, text) to anon, authenticated, service_role;

create or replace function public.record_play(track_id uuid, country text default null)
returns void
language sql
security invoker
set search_path = ''
as $$
  select private.record_play(record_play.track_id, record_play.country)
$$;

revoke execute on function public.record_play(uuid, text) from public;
grant execute on function public.record_play(uuid, text) to anon, authenticated, service_role;

-- The raw figures of one period for the artist-analytics Edge Function, which shapes them (totals, trends,
-- daily or weekly history): per day for this period and the one before (for the trend), and the
-- period's top tracks and countries. Runs as the caller, so an artist only ever reads their own rollups;
-- it also creates the caller's analytics row with its defaults when missing (spec section 4). Null for a
-- caller who is not an artist.
create or replace function public.artist_analytics(days integer)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  today date := (now() at time zone 'UTC')::date;
  first_day date := today - (days - 1);
begin
  if days is null or days not in (7, 30, 90, 365) then
    raise exception 'period must be 7, 30, 90 or 365 days' using errcode = '22023';
  end if;
  if not exists (select 1 from public.artist_profiles a where a.id = me) then
    return null;
  end if;

  insert into public.analytics (artist_id) values (me) on conflict (artist_id) do nothing;

  return jsonb_build_object(
    'today', today,
    'days', coalesce((
      select jsonb_agg(jsonb_build_object('day', d.day, 'plays', d.plays, 'downloads', d.downloads,
          'sales', d.sales, 'revenue', d.revenue) order by d.day)
      from (
        select s.day, sum(s.plays) as plays, sum(s.downloads) as downloads, sum(s.sales) as sales, sum(s.revenue) as revenue
        from public.track_daily_stats s
        where s.artist_id = me and s.day >= first_day - days
        group by s.day
      ) d), '[]'),
    'top_tracks', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'plays', top.plays,
          'downloads', top.downloads, 'sales', top.sales, 'revenue', top.revenue)
        order by top.revenue desc, top.plays desc, t.title)
      from (
        select s.track_id, sum(s.plays) as plays, sum(s.downloads) as downloads, sum(s.sales) as sales, sum(s.revenue) as revenue
        from public.track_daily_stats s
        where s.artist_id = me and s.day >= first_day
        group by s.track_id
        order by sum(s.revenue) desc, sum(s.plays) desc
        limit 10
      ) top
      join public.tracks t on t.id = top.track_id), '[]'),
    'geography', coalesce((
      select jsonb_agg(jsonb_build_object('country', nullif(g.country, 'ZZ'), 'plays', g.plays, 'downloads', g.downloads)
        order by g.plays + g.downloads desc, g.country)
      from (
        select c.country, sum(c.plays) as plays, sum(c.downloads) as downloads
        from public.country_daily_stats c
        where c.artist_id = me and c.day >= first_day
        group by c.country
        having sum(c.plays) + sum(c.downloads) > 0
        order by sum(c.plays) + sum(c.downloads) desc
        limit 50
      ) g), '[]')
  );
end
$$;

revoke execute on function public.artist_analytics(integer) from public, anon;
grant execute on function public.artist_analytics(integer) to authenticated, service_role;

-- The dashboard's statistics row now sums the rollups instead of counting every event: the same figures
-- (sales, downloads and plays of the last 30 UTC days against the 30 before), at any number of events.
create or replace function public.artist_dashboard()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with me as (
    select (select auth.uid()) as id, (now() at time zone 'UTC')::date - 29 as recent_from,
      (now() at time zone 'UTC')::date - 59 as previous_from, now() - interval '30 days' as recent_since,
      now() - interval '60 days' as previous_since
  ),
  figures as (
    select coalesce(sum(s.revenue), 0) as revenue,
      coalesce(sum(s.revenue) filter (where s.day >= me.recent_from), 0) as recent_revenue,
      coalesce(sum(s.revenue) filter (where s.day >= me.previous_from and s.day < me.recent_from), 0) as previous_revenue,
      coalesce(sum(s.downloads), 0) as downloads,
      coalesce(sum(s.downloads) filter (where s.day >= me.recent_from), 0) as recent_downloads,
      coalesce(sum(s.downloads) filter (where s.day >= me.previous_from and s.day < me.recent_from), 0) as previous_downloads,
      coalesce(sum(s.plays), 0) as plays,
      coalesce(sum(s.plays) filter (where s.day >= me.recent_from), 0) as recent_plays,
      coalesce(sum(s.plays) filter (where s.day >= me.previous_from and s.day < me.recent_from), 0) as previous_plays
    from me left join public.track_daily_stats s on s.artist_id = me.id
    group by me.id
  ),
  follows as (
    select count(*) filter (where f.created_at >= me.recent_since) as recent,
      count(*) filter (where f.created_at >= me.previous_since and f.created_at < me.recent_since) as previous
    from me left join public.followers f on f.artist_id = me.id
    group by me.id
  ),
  activity as (
    (select 'purchase' as type, p.id, p.track_id, p.user_id, p.amount, null::text as content, p.created_at
      from me join public.purchases p on p.artist_id = me.id order by p.created_at desc limit 5)
    union all
    (select e.type, e.id, e.track_id, e.user_id, null, null, e.created_at
      from me join public.analytics_events e on e.artist_id = me.id order by e.created_at desc limit 5)
    union all
    (select 'comment', c.id, c.track_id, c.user_id, null, c.content, c.created_at
      from me join public.comments c on c.artist_id = me.id order by c.created_at desc limit 5)
  )
  select jsonb_build_object(
    'stats', (
      select jsonb_build_object(
        'revenue', jsonb_build_object('total', f.revenue, 'trend', private.trend(f.recent_revenue, f.previous_revenue)),
        'downloads', jsonb_build_object('total', f.downloads, 'trend', private.trend(f.recent_downloads, f.previous_downloads)),
        'streams', jsonb_build_object('total', f.plays, 'trend', private.trend(f.recent_plays, f.previous_plays)),
        'followers', (select jsonb_build_object('total', a.follower_count, 'trend', private.trend(fo.recent, fo.previous))
          from me join public.artist_profiles a on a.id = me.id cross join follows fo))
      from figures f),
    'library', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title, 'type', t.type,
          'artwork_url', coalesce(t.artwork_small_url, t.artwork_url), 'release_date', t.release_date)
        order by t.release_date desc, t.created_at desc)
      from (
        select t.* from me join public.tracks t on t.artist_id = me.id order by t.release_date desc, t.created_at desc limit 3
      ) t), '[]'),
    'activity', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'type', a.type, 'track_title', t.title, 'track_id', a.track_id,
          'username', coalesce(fan.username, artist.artist_name), 'amount', a.amount, 'content', a.content,
          'created_at', a.created_at) order by a.created_at desc)
      from (select * from activity order by created_at desc limit 10) a
      left join public.tracks t on t.id = a.track_id
      left join public.fan_profiles fan on fan.id = a.user_id
      left join public.artist_profiles artist on artist.id = a.user_id), '[]')
  )
$$;

-- Your Tracks' play counts read the rollups too: a track's days instead of each of its plays. The index
-- that served the count of each play has nothing left to serve, and every play paid for it.
drop index public.analytics_events_plays_by_track_idx;

create or replace function public.studio_catalog(kind text default 'all', page integer default 1, page_size integer default 50)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with mine as (
    select t.*
    from public.tracks t
    where t.artist_id = (select auth.uid())
      and (studio_catalog.kind = 'all' or t.type = studio_catalog.kind)
  ),
  shown as (
    select m.* from mine m
    order by m.release_date desc, m.album_title nulls first, m.track_number nulls last, m.created_at desc
    limit least(greatest(studio_catalog.page_size, 1), 100)
    offset (greatest(studio_catalog.page, 1) - 1) * least(greatest(studio_catalog.page_size, 1), 100)
  )
  select jsonb_build_object(
    'track_count', (select count(*) from mine),
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', s.id, 'title', s.title, 'type', s.type, 'album_title', s.album_title,
          'track_number', s.track_number, 'price', s.price, 'artwork_url', s.artwork_url,
          'artwork_small_url', s.artwork_small_url,
          'release_date', s.release_date, 'upcoming', s.release_date > current_date,
          'plays', (select coalesce(sum(d.plays), 0) from public.track_daily_stats d where d.track_id = s.id))
        order by s.release_date desc, s.album_title nulls first, s.track_number nulls last, s.created_at desc)
      from shown s), '[]'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'image_url', m.image_url, 'image_small_url', m.image_small_url) order by m.created_at desc)
      from (
        select * from public.merch m where m.artist_id = (select auth.uid()) order by m.created_at desc limit 100
      ) m), '[]')
  )
$$;

