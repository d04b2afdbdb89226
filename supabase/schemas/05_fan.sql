-- Fan: follows, likes, comments and purchases, and the fan's pages.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- Who follows which artist. Any signed-in user may follow an artist, never themselves.
-- artist_profiles.follower_count is kept by triggers: each follow or unfollow updates the artist row,
-- whose row lock serialises concurrent changes, so the count stays exact.

create table public.followers (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  fan_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (artist_id, fan_id),
  constraint followers_not_self check (artist_id <> fan_id)
);

alter table public.followers enable row level security;

-- (artist_id, fan_id) is indexed by the unique constraint; this one serves "latest followers".
create index followers_artist_id_created_at_idx on public.followers (artist_id, created_at desc);

create index followers_fan_id_created_at_idx on public.followers (fan_id, created_at desc);

revoke all on public.followers from anon, authenticated;

grant select on public.followers to anon, authenticated;

grant insert (artist_id, fan_id), delete on public.followers to authenticated;

create policy "Visitors read followers" on public.followers
  for select to anon using (fan_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read followers" on public.followers
  for select to authenticated
  using (fan_id <> all ((select private.banned_accounts())::uuid[]) or fan_id = (select auth.uid()));

create policy "Users follow as themselves" on public.followers
  for insert to authenticated
  with check (fan_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Users unfollow as themselves" on public.followers
  for delete to authenticated
  using (fan_id = (select auth.uid()) and (select private.is_active_user()));

-- Definer: the follower may not update the artist's row themselves.
create or replace function private.count_follower()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.artist_profiles set follower_count = follower_count + 1 where id = new.artist_id;
  else
    update public.artist_profiles set follower_count = follower_count - 1 where id = old.artist_id;
  end if;
  return null;
end
$$;

create trigger count_follower
  after insert or delete on public.followers
  for each row execute function private.count_follower();

revoke execute on function private.count_follower() from public;

-- The spec's data access names this call (rpc get_follower_count with artist_id); the pages read the
-- count with the profile they show, so it stays for API clients.
create or replace function public.get_follower_count(artist_id uuid)
returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce((select p.follower_count from public.artist_profiles p where p.id = get_follower_count.artist_id), 0)
$$;

grant execute on function public.get_follower_count(uuid) to anon, authenticated, service_role;

comment on function public.get_follower_count(uuid) is
  'Runs as its caller: a count anyone may read, under row-level security.';

-- The follower list of an artist page: followers are auth users, so their display name comes from
-- whichever profile they have (a fan's username, or an artist's name).
create view public.artist_followers with (security_invoker = true) as
select
  f.id,
  f.artist_id,
  f.fan_id,
  f.created_at,
  coalesce(fp.username, ap.artist_name) as display_name,
  coalesce(fp.profile_image_url, ap.profile_image_url) as profile_image_url,
  fp.id is not null as is_fan
from public.followers f
left join public.fan_profiles fp on fp.id = f.fan_id
left join public.artist_profiles ap on ap.id = f.fan_id;

revoke all on public.artist_followers from anon, authenticated;

grant select on public.artist_followers to anon, authenticated;

-- Definer: the artist a purchase (or a comment) belongs to is set by the database from the track,
-- never by the writer. Shared by every table with track_id and artist_id columns.
create or replace function private.fill_artist_from_track()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select t.artist_id into new.artist_id from public.tracks t where t.id = new.track_id;
  return new;
end
$$;

revoke execute on function private.fill_artist_from_track() from public;

-- Sales. Not written by users directly: purchases come from the payment side (service role; there is no
-- checkout yet). Private to the buyer and the track's artist.
create table public.purchases (
  id uuid primary key default gen_random_uuid(),
  amount numeric(10, 2) not null check (amount >= 0),
  -- A sold track stays: restrict keeps the sale record from disappearing with it.
  track_id uuid not null references public.tracks (id) on delete restrict,
  -- Filled from the track by a trigger; lets the artist's policy and live feed filter on one column.
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- The buyer's country (ISO 3166-1 alpha-2, as Cloudflare reports it on the request); null when unknown.
  country text check (country ~ '^[A-Z]{2}$')
);

alter table public.purchases enable row level security;

create index purchases_track_id_idx on public.purchases (track_id);

create index purchases_artist_id_created_at_idx on public.purchases (artist_id, created_at desc);

create index purchases_user_id_created_at_idx on public.purchases (user_id, created_at desc);

create trigger fill_purchase_artist
  before insert or update of track_id on public.purchases
  for each row execute function private.fill_artist_from_track();

revoke all on public.purchases from anon, authenticated;

grant select on public.purchases to authenticated;

create policy "Buyers and the track's artist read purchases" on public.purchases
  for select to authenticated
  using (user_id = (select auth.uid()) or artist_id = (select auth.uid()));

-- Comments on tracks: readable wherever the track is, written by signed-in users as themselves.
create table public.comments (
  id uuid primary key default gen_random_uuid(),
  content text not null check (btrim(content) <> ''),
  track_id uuid not null references public.tracks (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- Filled from the track by a trigger, for the artist's live activity feed.
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- The comment form allows 2,000 characters; the database holds every writer to the same.
  constraint comments_content_length check (char_length(content) <= 2000)
);

alter table public.comments enable row level security;

create index comments_track_id_created_at_idx on public.comments (track_id, created_at desc);

create index comments_artist_id_created_at_idx on public.comments (artist_id, created_at desc);

-- A commenter's comments of the last minute, for their bounds (the triggers below).
create index comments_user_id_idx on public.comments (user_id, created_at desc);

-- At most 5 comments a minute on one track, and 20 a minute in all, a commenter.
create trigger comments_limit_on_a_track
  before insert on public.comments
  for each row execute function private.limit_per_owner('user_id', '5', 'at most 5 comments a minute on one track', '1 minute', 'track_id');

create trigger comments_limit_per_minute
  before insert on public.comments
  for each row execute function private.limit_per_owner('user_id', '20', 'at most 20 comments a minute', '1 minute');

-- A comment is written one at a time: no request writes thousands.
create trigger comments_limit_per_request
  before insert on public.comments
  for each row execute function private.limit_rows_per_request('comments', '5');

-- A comment's artist is set by the database from the track, not by the commenter.
create trigger fill_comment_artist
  before insert on public.comments
  for each row execute function private.fill_artist_from_track();

revoke all on public.comments from anon, authenticated;

grant select on public.comments to anon, authenticated;

grant insert (content, track_id, user_id), delete on public.comments to authenticated;

-- The subquery runs under the tracks policies, so a comment is visible exactly when its track is (and
-- while its author is not banned).
create policy "Everyone reads comments on visible tracks" on public.comments
  for select to anon, authenticated
  using (user_id <> all ((select private.banned_accounts())::uuid[]) and exists (select 1 from public.tracks t where t.id = track_id));

create policy "Users comment as themselves" on public.comments
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and (select private.is_active_user())
    and exists (select 1 from public.tracks t where t.id = track_id)
  );

create policy "Users delete their own comments" on public.comments
  for delete to authenticated
  using (user_id = (select auth.uid()) and (select private.is_active_user()));

-- Public fan page, or null when there is no such fan: the profile, the artists they follow, most
-- recently followed first, and a page each (`collection_page`, `wishlist_page`, 48 releases a page) of
-- their collection and wishlist as the reader may see them (private.fan_shelf, 21_collections.sql).
create or replace function public.fan_page(fan_id uuid, collection_page integer default 1, wishlist_page integer default 1)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id,
    'username', p.username,
    'bio', p.bio,
    'profile_image_url', p.profile_image_url,
    'profile_image_width', p.profile_image_width,
    'profile_image_height', p.profile_image_height,
    'favorite_genres', to_jsonb(p.favorite_genres),
    'show_collection', p.show_collection,
    'show_wishlist', p.show_wishlist,
    'collection', private.fan_shelf(p.id, 'collection', fan_page.collection_page, 48),
    'wishlist', private.fan_shelf(p.id, 'wishlist', fan_page.wishlist_page, 48),
    'following', coalesce((
      select jsonb_agg(private.artist_card(a) order by f.created_at desc)
      from public.followers f join public.artist_profiles a on a.id = f.artist_id
      where f.fan_id = p.id), '[]')
  )
  from public.fan_profiles p
  where p.id = fan_page.fan_id
$$;

revoke execute on function public.fan_page(uuid, integer, integer) from public;

grant execute on function public.fan_page(uuid, integer, integer) to anon, authenticated, service_role;

comment on function public.fan_page(uuid, integer, integer) is
  'Runs as its caller: a page''s read: row-level security shows what the caller may see, no more.';

-- What the track page shows of its comments (`track_comments`) is in 19_notifications.sql, after the
-- comment a reply answers (`reply_to`).

-- A listener's liked tracks (Liked Songs, beyond the spec's placeholder): their own rows only, for any signed-in user.
create table public.likes (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, track_id)
);

alter table public.likes enable row level security;

-- Liked Songs lists a user's likes newest first; a deleted track removes its likes.
create index likes_user_id_created_at_idx on public.likes (user_id, created_at desc);

create index likes_track_id_idx on public.likes (track_id);

revoke all on public.likes from anon, authenticated;

-- The user id comes from the session (the column default), never from the request.
grant select, insert (track_id), delete on public.likes to authenticated;

create policy "Users read their own likes" on public.likes
  for select to authenticated using (user_id = (select auth.uid()));

-- Only a track the user can see (released, or their own): the subquery runs under the tracks policies.
create policy "Users like tracks they can see" on public.likes
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and (select private.is_active_user())
    and exists (select 1 from public.tracks t where t.id = track_id)
  );

create policy "Users remove their own likes" on public.likes
  for delete to authenticated using (user_id = (select auth.uid()) and (select private.is_active_user()));

-- The fan dashboard in one read: the three counts (purchases, follows, plays of the last 30 days), the
-- library panel (the newest purchased tracks) and recommendations: artists in the fan's favourite genres,
-- or else the genres of the artists they follow, that they do not follow yet, the most followed first, with
-- the genre that brought each; and releases with their reasons (private.recommended_releases).
-- Runs as the caller: row-level security keeps every part to their own rows.
create or replace function public.fan_dashboard()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with me as (select (select auth.uid()) as id),
  taste as (
    select coalesce(
      nullif((select f.favorite_genres from me join public.fan_profiles f on f.id = me.id), '{}'),
      (select array_agg(distinct genre) from me
         join public.followers fo on fo.fan_id = me.id
         join public.artist_profiles a on a.id = fo.artist_id
         cross join unnest(a.genres) as genre),
      '{}') as genres
  )
  select jsonb_build_object(
    'purchased_count', (select count(*) from me join public.purchases p on p.user_id = me.id),
    'following_count', (select count(*) from me join public.followers f on f.fan_id = me.id),
    'recent_count', (
      select count(*) from me join public.analytics_events e on e.user_id = me.id
      where e.type = 'play' and e.created_at >= now() - interval '30 days'),
    'library', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'title', t.title,
          'artwork_url', coalesce(t.artwork_small_url, t.artwork_url), 'artist_id', a.id, 'artist_name', a.artist_name)
        order by bought.created_at desc)
      from (
        select p.track_id, max(p.created_at) as created_at
        from me join public.purchases p on p.user_id = me.id
        group by p.track_id
        order by max(p.created_at) desc
        limit 6
      ) bought
      join public.tracks t on t.id = bought.track_id
      join public.artist_profiles a on a.id = t.artist_id), '[]'),
    'recommendations', coalesce((
      select jsonb_agg(private.artist_card(a) || jsonb_build_object('because', (
          select g from unnest(a.genres) g, taste where g = any (taste.genres) order by g limit 1))
        order by a.follower_count desc, a.artist_name)
      from (
        -- Among the 500 most followed artists (read down the follower-count index), so the call costs the
        -- same at any size of the directory.
        select a.* from (
          select a.* from public.artist_profiles a order by a.follower_count desc, a.artist_name limit 500
        ) a, taste, me
        where a.genres && taste.genres
          and a.id <> me.id
          and a.id <> all ((select private.banned_accounts())::uuid[])
          and not exists (select 1 from public.followers f where f.artist_id = a.id and f.fan_id = me.id)
        order by a.follower_count desc, a.artist_name
        limit 6
      ) a), '[]'),
    'recommended_releases', private.recommended_releases(8)
  )
$$;

revoke execute on function public.fan_dashboard() from public, anon;

grant execute on function public.fan_dashboard() to authenticated, service_role;

comment on function public.fan_dashboard() is
  'Runs as its caller: it reads the caller''s own rows, as row-level security lets them.';
