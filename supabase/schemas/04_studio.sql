-- Studio: the store's settings, what the artist's dashboard and catalog read, and the uploads no
-- release names yet.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Store settings as the Store Settings form keeps them (spec section 5): the database holds the same rules
-- as the form's schema, so a write through the API cannot store what the form would refuse.
-- - pricing tiers: a name and an optional description of bounded length, a price from 0 to the catalog's
--   maximum in cents, at most 20 tiers;
-- - discount codes: a code (unique per artist whatever its case), a whole percentage 0-100, an optional
--   real date it is valid until, on or off; at most 50 codes;
-- - bundling: on or off, with a percentage 0-100.
create or replace function private.is_pricing_tiers(tiers jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(tiers) = 'array' and jsonb_array_length(tiers) <= 20 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(tier -> 'id') = 'string' and char_length(tier ->> 'id') <= 40
        and jsonb_typeof(tier -> 'name') = 'string' and btrim(tier ->> 'name') <> '' and char_length(tier ->> 'name') <= 100
        and private.is_json_number(tier -> 'price', 0, 1000) and private.is_cents(tier -> 'price')
        and (jsonb_typeof(tier -> 'description') is null or jsonb_typeof(tier -> 'description') = 'null'
          or (jsonb_typeof(tier -> 'description') = 'string' and char_length(tier ->> 'description') <= 500)), false)), true)
      from jsonb_array_elements(tiers) as tier)
    else false
  end
$$;

create or replace function private.is_discounts(discounts jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(discounts) = 'array' and jsonb_array_length(discounts) <= 50 then (
      select coalesce(bool_and(coalesce(
        jsonb_typeof(discount -> 'id') = 'string' and char_length(discount ->> 'id') <= 40
        and jsonb_typeof(discount -> 'code') = 'string' and btrim(discount ->> 'code') <> ''
        and char_length(discount ->> 'code') <= 40
        and private.is_json_number(discount -> 'percentage', 0, 100, true)
        and (jsonb_typeof(discount -> 'validUntil') is null or jsonb_typeof(discount -> 'validUntil') = 'null'
          or private.is_iso_date(discount ->> 'validUntil'))
        and jsonb_typeof(discount -> 'active') = 'boolean'
        and (jsonb_typeof(discount -> 'maxUses') is null or jsonb_typeof(discount -> 'maxUses') = 'null'
          or private.is_json_number(discount -> 'maxUses', 1, 1000000, true)), false)), true)
        and count(distinct lower(btrim(discount ->> 'code'))) = count(*)
      from jsonb_array_elements(discounts) as discount)
    else false
  end
$$;

-- { enabled, discountPercentage 0-100 }
create or replace function private.is_bundling(bundling jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(bundling) = 'object' then coalesce(
      jsonb_typeof(bundling -> 'enabled') = 'boolean'
      and private.is_json_number(bundling -> 'discountPercentage', 0, 100), false)
    else false
  end
$$;

create table public.store_settings (
  artist_id uuid primary key references public.artist_profiles (id) on delete cascade,
  pricing_tiers jsonb not null default '[]' check (private.is_pricing_tiers(pricing_tiers)),
  discounts jsonb not null default '[]' check (private.is_discounts(discounts)),
  bundling jsonb not null default '{"enabled": false, "discountPercentage": 10}' check (private.is_bundling(bundling)),
  created_at timestamptz not null default now()
);

alter table public.store_settings enable row level security;

revoke all on public.store_settings from anon, authenticated;

grant select, insert (artist_id, pricing_tiers, discounts, bundling),
  update (pricing_tiers, discounts, bundling) on public.store_settings to authenticated;

create policy "Artists read their own store settings" on public.store_settings
  for select to authenticated using (artist_id = (select auth.uid()));

create policy "Artists create their own store settings" on public.store_settings
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own store settings" on public.store_settings
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create or replace function public.studio_catalog(kind text default 'all', page integer default 1, page_size integer default 50)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with mine as (
    select t.*, r.kind as release_kind, r.title as release_title, r.created_at as release_created_at
    from public.tracks t
    join public.releases r on r.id = t.release_id
    where t.artist_id = (select auth.uid())
      and (studio_catalog.kind = 'all' or r.kind = studio_catalog.kind)
  ),
  shown as (
    -- Newest first: by release date, releases of one date by when they were published (made), then by id.
    select m.* from mine m
    order by m.release_date desc, m.release_created_at desc, m.release_id, m.track_number nulls last, m.created_at desc
    limit least(greatest(studio_catalog.page_size, 1), 100)
    offset (greatest(studio_catalog.page, 1) - 1) * least(greatest(studio_catalog.page_size, 1), 100)
  )
  select jsonb_build_object(
    -- What the artist's prices are in.
    'currency', private.artist_currency((select auth.uid())),
    'track_count', (select count(*) from mine),
    'tracks', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', s.id, 'title', s.title, 'track_number', s.track_number,
          'release', jsonb_build_object('id', s.release_id, 'kind', s.release_kind, 'title', s.release_title), 'price', s.price, 'artwork_url', s.artwork_url,
          'artwork_small_url', s.artwork_small_url,
          'release_date', s.release_date, 'upcoming', s.release_date > current_date,
          -- Its stream's state (12_made_files.sql); null for a track without audio.
          'stream_state', f.state,
          'stream_failure', f.failure,
          'plays', (select coalesce(sum(d.plays), 0) from public.track_daily_stats d where d.track_id = s.id))
        order by s.release_date desc, s.release_created_at desc, s.release_id, s.track_number nulls last, s.created_at desc)
      from shown s
      left join lateral private.stream_of(s.id) f on true), '[]'),
    -- Each shown release's sales and revenue, as the ledger counts them (18_ledger.sql): lines sold less
    -- those refunded, and the artist's share in their currency.
    'release_sales', coalesce((
      select jsonb_object_agg(r.release_id, private.item_sales(r.release_id))
      from (select distinct s.release_id from shown s) r), '{}'),
    'merch', coalesce((
      select jsonb_agg(jsonb_build_object(
          'id', m.id, 'title', m.title, 'price', m.price, 'image_url', m.image_url, 'image_small_url', m.image_small_url,
          'stock', m.stock, 'units_left', private.merch_left(m.id)) || private.item_sales(m.id)
        order by m.created_at desc)
      from (
        select * from public.merch m where m.artist_id = (select auth.uid()) order by m.created_at desc limit 100
      ) m), '[]')
  )
$$;

revoke execute on function public.studio_catalog(text, integer, integer) from public;

grant execute on function public.studio_catalog(text, integer, integer) to authenticated, service_role;

comment on function public.studio_catalog(text, integer, integer) is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';

-- Files the upload form stored ahead of publishing (resumable uploads start the moment a file is chosen)
-- that no release ever used, because the artist left the form. Removed files are taken care of by the
-- form itself; these are what is left: audio in the tracks bucket (masters, streaming renditions and
-- download files no track names any more: one made before its track's master was replaced or
-- re-rendered) and artwork renditions (the `small/`
-- folder) that no track or merch item names, older than a day. Full-size artwork is not listed: it shows
-- in the artist's Media Manager, where they see it and may use or remove it.
-- Read by the sweep-unpublished-uploads Edge Function with the service role, which removes them through
-- Storage (objects are never deleted in SQL: the bytes live in Storage).

create or replace function public.unpublished_uploads(older_than interval default '1 day', max_count integer default 500)
returns table (bucket_id text, name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select o.bucket_id, o.name
  from storage.objects o
  cross join lateral (
    select case when split_part(o.name, '/', 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then split_part(o.name, '/', 1)::uuid end as owner_id
  ) folder
  where o.created_at < now() - unpublished_uploads.older_than
    and (
      (o.bucket_id = 'tracks' and not exists (
        select 1 from public.tracks t
        where t.artist_id = folder.owner_id and t.file_url = o.name)
        and not exists (select 1 from private.made_files f where f.path = o.name))
      or (o.bucket_id = 'artwork' and split_part(o.name, '/', 2) = 'small'
        and not exists (
          select 1 from public.tracks t
          where t.artist_id = folder.owner_id and split_part(t.artwork_small_url, '/object/public/artwork/', 2) = o.name)
        and not exists (
          select 1 from public.merch m
          where m.artist_id = folder.owner_id and split_part(m.image_small_url, '/object/public/artwork/', 2) = o.name))
    )
  order by o.created_at
  limit least(greatest(unpublished_uploads.max_count, 1), 1000)
$$;

revoke execute on function public.unpublished_uploads(interval, integer) from public, anon, authenticated;

grant execute on function public.unpublished_uploads(interval, integer) to service_role;

comment on function public.unpublished_uploads(interval, integer) is
  'Runs as its caller: the service role''s read of stored files (the daily sweep), which Storage''s policies decide.';

-- The caller's newest sold lines, for Recent Activity: each line of a paid order once, as the ledger and the
-- Payments page count sales (an album is one sale at its line's price, merch one with its quantity),
-- refunded or not, with the buyer's account (none for a guest's). Definer: an artist reads their lines
-- but not the buyers' orders; of the order only when it was paid, its currency and its buyer's account
-- leave here (never an order id or an email).
create or replace function private.recent_sales(how_many integer)
returns table (
  line_id uuid, kind text, title text, item_id uuid, quantity integer, total integer, currency text, refunded boolean,
  buyer_id uuid, paid_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.id, l.kind, l.title, l.item_id, l.quantity, l.total_cents, o.currency, l.refunded_at is not null, o.buyer_id,
    o.paid_at
  from public.order_lines l
  join public.orders o on o.id = l.order_id
  where l.artist_id = (select auth.uid()) and o.state = 'paid'
  order by o.paid_at desc, l.id
  limit least(greatest(recent_sales.how_many, 1), 50)
$$;

revoke execute on function private.recent_sales(integer) from public;

grant execute on function private.recent_sales(integer) to authenticated;

-- The dashboard's statistics row sums the rollups rather than counting every event: sales, downloads and
-- plays of the last 30 UTC days against the 30 before, at any number of events.
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
  -- Revenue is the ledger's (18_ledger.sql): the artist's shares of sales in their currency, less refunds
  -- and lost disputes, as Payments and analytics count it.
  earned as (
    select coalesce(sum(e.amount_cents), 0) / 100.0 as revenue,
      coalesce(sum(e.amount_cents) filter (where (e.created_at at time zone 'UTC')::date >= me.recent_from), 0) / 100.0
        as recent_revenue,
      coalesce(sum(e.amount_cents) filter (where (e.created_at at time zone 'UTC')::date >= me.previous_from
        and (e.created_at at time zone 'UTC')::date < me.recent_from), 0) / 100.0 as previous_revenue
    from me left join public.ledger_entries e on e.artist_id = me.id and e.currency = private.artist_currency(me.id)
      and e.kind in ('sale', 'refund', 'dispute_loss')
    group by me.id
  ),
  figures as (
    select coalesce(sum(s.downloads), 0) as downloads,
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
    -- Sales by the line (an album once, at its line's price; merch with its quantity), never by the
    -- purchases an album makes of each of its tracks.
    -- A track links to its page, an album to its own; other kinds have no page here.
    -- A gift is a sale, said as one ('gift': "bought as a gift"), by its giver.
    (select case when exists (select 1 from public.gifts g where g.order_line_id = s.line_id) then 'gift' else 'purchase' end as type,
        s.line_id as id, s.kind, s.title, case when s.kind = 'track' then s.item_id end as track_id,
        case when s.kind = 'album' then s.item_id end as release_id, s.quantity, s.buyer_id as user_id,
        s.total / 100.0 as amount, s.currency, s.refunded, null::text as content, s.paid_at as created_at
      from private.recent_sales(5) s)
    union all
    -- A release given with a download code is no sale: 'code', once per code, without an amount.
    (select 'code', c.id, r.kind, r.title, null, c.release_id, 1, c.redeemed_by, null, null, false, null, c.redeemed_at
      from me join public.download_codes c on c.artist_id = me.id and c.redeemed_at is not null
      join public.releases r on r.id = c.release_id
      order by c.redeemed_at desc limit 5)
    union all
    (select e.type, e.id, 'track', null, e.track_id, null, 1, e.user_id, null, null, false, null, e.created_at
      from me join public.analytics_events e on e.artist_id = me.id order by e.created_at desc limit 5)
    union all
    (select 'comment', c.id, 'track', null, c.track_id, null, 1, c.user_id, null, null, false, c.content, c.created_at
      from me join public.comments c on c.artist_id = me.id order by c.created_at desc limit 5)
  )
  select jsonb_build_object(
    -- What the revenue is in: the artist's currency, which their prices are in.
    'currency', private.artist_currency((select auth.uid())),
    'stats', (
      select jsonb_build_object(
        'revenue', (select jsonb_build_object('total', r.revenue, 'trend', private.trend(r.recent_revenue, r.previous_revenue))
          from earned r),
        'downloads', jsonb_build_object('total', f.downloads, 'trend', private.trend(f.recent_downloads, f.previous_downloads)),
        'streams', jsonb_build_object('total', f.plays, 'trend', private.trend(f.recent_plays, f.previous_plays)),
        'followers', (select jsonb_build_object('total', a.follower_count, 'trend', private.trend(fo.recent, fo.previous))
          from me join public.artist_profiles a on a.id = me.id cross join follows fo))
      from figures f),
    'library', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title,
          'artwork_url', coalesce(t.artwork_small_url, t.artwork_url), 'release_date', t.release_date)
        order by t.release_date desc, t.created_at desc)
      from (
        select t.* from me join public.tracks t on t.artist_id = me.id order by t.release_date desc, t.created_at desc limit 3
      ) t), '[]'),
    -- Each item with where it links: a track's page, an album's, or none (merch has no page of its own).
    'activity', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'type', a.type, 'title', coalesce(a.title, t.title),
          'track_id', case when a.kind in ('track', 'single') then coalesce(a.track_id, single.id) end,
          'album_id', case when a.kind = 'album' then a.release_id end, 'quantity', a.quantity,
          'username', coalesce(fan.username, artist.artist_name), 'amount', a.amount, 'currency', a.currency,
          'refunded', a.refunded, 'content', a.content, 'created_at', a.created_at) order by a.created_at desc)
      from (select * from activity order by created_at desc limit 10) a
      left join public.tracks t on t.id = a.track_id
      left join lateral (
        select s.id from public.tracks s where a.track_id is null and a.kind = 'single' and s.release_id = a.release_id limit 1
      ) single on true
      left join public.fan_profiles fan on fan.id = a.user_id
      left join public.artist_profiles artist on artist.id = a.user_id), '[]')
  )
$$;

revoke execute on function public.artist_dashboard() from public, anon;

grant execute on function public.artist_dashboard() to authenticated, service_role;

comment on function public.artist_dashboard() is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';

-- What reached Storage without the Worker. Storage keeps what its bucket's declared types allow, so a
-- user's own token can still store an HTML page declared `audio/mpeg`; no row may name it
-- (private.files_named_by_the_marketplace), and the daily sweep (sweep-unpublished-uploads) reads the first bytes of each audio and image file stored
-- since the day before yesterday and removes those that are not the type declared for them. A day's
-- uploads at most `max_count`; the window overlaps, so a missed run is made up the next day.
create or replace function public.recent_uploads(within interval default '2 days', max_count integer default 1000)
returns table (bucket_id text, name text, mimetype text)
language sql
stable
security invoker
set search_path = ''
as $$
  select o.bucket_id, o.name, o.metadata ->> 'mimetype'
  from storage.objects o
  where o.bucket_id in ('tracks', 'artwork')
    and o.created_at > now() - recent_uploads.within
  order by o.created_at desc
  limit least(greatest(recent_uploads.max_count, 1), 10000)
$$;

revoke execute on function public.recent_uploads(interval, integer) from public, anon, authenticated;

grant execute on function public.recent_uploads(interval, integer) to service_role;

comment on function public.recent_uploads(interval, integer) is
  'Runs as its caller: the service role''s read of stored files (the daily sweep), which Storage''s policies decide.';
