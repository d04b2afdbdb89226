-- Analytics: the artist's totals, the daily roll-ups fed by events and purchases, trends, and the
-- analytics page's function (spec sections 2, 3 and 7).
--
-- Why rollups rather than indexes alone: an artist's figures for a year are sums over every event of that
-- year. With an index that is still one index entry per event (a million plays is a million entries to
-- count on every visit); a rollup is one row per track per day and one per country per day, whatever the
-- number of events (a year of fifty tracks is about 18,000 rows). The database keeps them itself, in the
-- same transaction as the events (statement triggers, so a bulk insert costs one grouped write), so they
-- are never stale and nothing else has to run.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The spec's analytics row (one per artist: revenue, downloads, top tracks, geography; a default empty
-- row made when missing). The analytics page reads the daily roll-ups below instead; artist_analytics()
-- still makes the row the spec asks for. Filled by the service role; the artist only creates it empty.
create table public.analytics (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  revenue jsonb not null default '{"total": 0, "trend": 0, "history": []}',
  downloads jsonb not null default '{"total": 0, "trend": 0, "history": []}',
  top_tracks jsonb not null default '[]' check (jsonb_typeof(top_tracks) = 'array'),
  geography jsonb not null default '[]' check (jsonb_typeof(geography) = 'array'),
  created_at timestamptz not null default now()
);

alter table public.analytics enable row level security;

revoke all on public.analytics from anon, authenticated;

grant select, insert (artist_id) on public.analytics to authenticated;

create policy "Artists read their own analytics" on public.analytics
  for select to authenticated using (artist_id = (select auth.uid()));

create policy "Artists create their own analytics" on public.analytics
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

-- From nothing to something is no percentage: it was read as "+100%", a figure nobody earned. The trend is
-- null then, which the pages show as "New"; from nothing to nothing it stays 0.
create or replace function private.trend(recent numeric, previous numeric)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case
    when previous = 0 then case when recent > 0 then null else 0 end
    else round((recent - previous) / previous * 100, 1)
  end
$$;

grant execute on function private.trend(numeric, numeric) to authenticated, service_role;

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

alter table public.track_daily_stats enable row level security;

create index track_daily_stats_track_id_idx on public.track_daily_stats (track_id);

revoke all on public.track_daily_stats from anon, authenticated;

grant select on public.track_daily_stats to authenticated;

create policy "Artists read their own daily track figures" on public.track_daily_stats
  for select to authenticated using (artist_id = (select auth.uid()));

-- One row per artist, country and UTC day; 'ZZ' (CLDR's "unknown region") stands for an unknown country.
create table public.country_daily_stats (
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  day date not null,
  country text not null check (country ~ '^[A-Z]{2}$'),
  plays integer not null default 0,
  downloads integer not null default 0,
  primary key (artist_id, day, country)
);

alter table public.country_daily_stats enable row level security;

revoke all on public.country_daily_stats from anon, authenticated;

grant select on public.country_daily_stats to authenticated;

create policy "Artists read their own daily country figures" on public.country_daily_stats
  for select to authenticated using (artist_id = (select auth.uid()));

-- One row per artist, embedding site and UTC day: the plays in embedded players on other sites.
create table public.embed_daily_stats (
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  day date not null,
  origin text not null,
  plays integer not null default 0,
  primary key (artist_id, day, origin)
);

alter table public.embed_daily_stats enable row level security;

revoke all on public.embed_daily_stats from anon, authenticated;

grant select on public.embed_daily_stats to authenticated;

create policy "Artists read their own daily embed figures" on public.embed_daily_stats
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

  insert into public.embed_daily_stats as s (artist_id, day, origin, plays)
  select e.artist_id, (e.created_at at time zone 'UTC')::date, e.embedded_on, sign * count(*)
  from changed_events e
  join public.artist_profiles a on a.id = e.artist_id
  where e.type = 'play' and e.embedded_on is not null
  group by 1, 2, 3
  on conflict (artist_id, day, origin) do update set plays = s.plays + excluded.plays;
  return null;
end
$$;

-- Events and purchases are never updated through the API (no grants); inserts and deletes (a track's
-- removal cascades to its events) are what change the figures.
create trigger roll_up_new_events
  after insert on public.analytics_events referencing new table as changed_events
  for each statement execute function private.roll_up_events();

create trigger roll_up_removed_events
  after delete on public.analytics_events referencing old table as changed_events
  for each statement execute function private.roll_up_events();

revoke execute on function private.roll_up_events() from public;

create or replace function private.roll_up_purchases()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  sign integer := case when tg_op = 'DELETE' then -1 else 1 end;
begin
  -- A track's revenue is the artist's share of what it sold for, as the ledger counts it (an album's share
  -- falls to its tracks as its price did, to the cent).
  insert into public.track_daily_stats as s (artist_id, day, track_id, sales, revenue)
  select p.artist_id, (p.created_at at time zone 'UTC')::date, p.track_id, sign * count(*),
    sign * sum(coalesce(round(p.amount * l.artist_share_cents / nullif(l.total_cents, 0), 2), 0))
  from changed_purchases p
  join public.tracks t on t.id = p.track_id
  left join public.order_lines l on l.id = p.order_line_id
  -- a release given with a download code is no sale
  where p.download_code_id is null
  group by 1, 2, 3
  on conflict (artist_id, day, track_id) do update
    set sales = s.sales + excluded.sales, revenue = s.revenue + excluded.revenue;
  return null;
end
$$;

create trigger roll_up_new_purchases
  after insert on public.purchases referencing new table as changed_purchases
  for each statement execute function private.roll_up_purchases();

create trigger roll_up_removed_purchases
  after delete on public.purchases referencing old table as changed_purchases
  for each statement execute function private.roll_up_purchases();

revoke execute on function private.roll_up_purchases() from public;

-- The raw figures of one period for the artist-analytics Edge Function, which shapes them (totals, trends,
-- daily or weekly history): per day for this period and the one before (for the trend), and the
-- period's top sellers, countries and the sites that embed the artist's music. Sales and revenue are the
-- ledger's (18_ledger.sql), as the dashboard, Payments and Your Tracks count them: a line sold is one sale
-- (an album once, not once per track; merch too), and a refund or a lost dispute takes it off on its day.
-- Runs as the caller, so an artist only ever reads their own rollups and ledger;
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
    -- What the revenue is in: the artist's currency, which their prices are in.
    'currency', private.artist_currency(me),
    'days', coalesce((
      select jsonb_agg(jsonb_build_object('day', d.day, 'plays', d.plays, 'downloads', d.downloads,
          'sales', d.sales, 'revenue', d.revenue) order by d.day)
      from (
        select f.day, sum(f.plays) as plays, sum(f.downloads) as downloads, sum(f.sales) as sales, sum(f.revenue) as revenue
        from (
          select s.day, s.plays, s.downloads, 0 as sales, 0 as revenue
          from public.track_daily_stats s
          where s.artist_id = me and s.day >= first_day - days
          union all
          select (e.created_at at time zone 'UTC')::date, 0, 0, case when e.kind = 'sale' then 1 else -1 end, e.amount_cents / 100.0
          from public.ledger_entries e
          where e.artist_id = me and e.currency = private.artist_currency(me) and e.kind in ('sale', 'refund', 'dispute_loss')
            and e.created_at >= (first_day - days)::timestamp at time zone 'UTC'
        ) f
        group by f.day
      ) d), '[]'),
    -- What sold best: what sales count under (an album, a single with its track for the link, merch), with
    -- the ledger's sales and revenue and, for a release, its tracks' plays and downloads.
    'top_sellers', coalesce((
      select jsonb_agg(jsonb_build_object('kind', sold.kind, 'id', top.item_id, 'track_id', single.id, 'title', sold.title,
          'sales', top.sales, 'revenue', top.revenue, 'plays', top.plays, 'downloads', top.downloads)
        order by top.revenue desc, top.sales desc, top.plays desc, sold.title)
      from (
        select i.item_id, sum(i.sales) as sales, sum(i.revenue) as revenue, sum(i.plays) as plays, sum(i.downloads) as downloads
        from (
          select e.item_id, case when e.kind = 'sale' then 1 else -1 end as sales, e.amount_cents / 100.0 as revenue,
            0 as plays, 0 as downloads
          from public.ledger_entries e
          where e.artist_id = me and e.currency = private.artist_currency(me) and e.kind in ('sale', 'refund', 'dispute_loss')
            and e.created_at >= first_day::timestamp at time zone 'UTC' and e.item_id is not null
          union all
          select t.release_id, 0, 0, s.plays, s.downloads
          from public.track_daily_stats s
          join public.tracks t on t.id = s.track_id
          where s.artist_id = me and s.day >= first_day
        ) i
        group by i.item_id
        having sum(i.sales) <> 0 or sum(i.revenue) <> 0 or sum(i.plays) > 0 or sum(i.downloads) > 0
        order by sum(i.revenue) desc, sum(i.sales) desc, sum(i.plays) desc
        limit 10
      ) top
      join public.sellables sold on sold.id = top.item_id
      left join lateral (
        select t.id from public.tracks t where sold.kind = 'single' and t.release_id = sold.id
        order by t.track_number nulls last, t.created_at limit 1
      ) single on true), '[]'),
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
      ) g), '[]'),
    'embeds', coalesce((
      select jsonb_agg(jsonb_build_object('origin', x.origin, 'plays', x.plays) order by x.plays desc, x.origin)
      from (
        select m.origin, sum(m.plays) as plays
        from public.embed_daily_stats m
        where m.artist_id = me and m.day >= first_day
        group by m.origin
        having sum(m.plays) > 0
        order by sum(m.plays) desc, m.origin
        limit 20
      ) x), '[]')
  );
end
$$;

revoke execute on function public.artist_analytics(integer) from public, anon;

grant execute on function public.artist_analytics(integer) to authenticated, service_role;

comment on function public.artist_analytics(integer) is
  'Runs as its caller: it reads the caller''s own roll-ups and ledger, and makes their analytics row, as row-level security lets them.';
