-- The fan space (spec section 2, Fan screens): liked songs, which go beyond the spec's placeholder, and the
-- fan dashboard's one read. Purchases, follows and plays are read with the indexes that already start
-- with the user's id (purchases, followers and analytics_events by user and date).

-- A listener's liked tracks: their own rows only, for any signed-in user.
create table public.likes (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, track_id)
);

-- Liked Songs lists a user's likes newest first; a deleted track removes its likes.
create index likes_user_id_created_at_idx on public.likes (user_id, created_at desc);
create index likes_track_id_idx on public.likes (track_id);

revoke all on public.likes from anon, authenticated;
-- The user id comes from the session (the column default), never from the request.
grant select, insert (track_id), delete on public.likes to authenticated;

alter table public.likes enable row level security;

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
  for delete to authenticated using (user_id = (select auth.uid()));

-- The fan dashboard in one read: the three counts (purchases, follows, plays of the last 30 days), the
-- library panel (the newest purchased tracks) and recommendations (artists in the fan's favourite genres,
-- or else the genres of the artists they follow, that they do not follow yet, the most followed first).
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
      select jsonb_agg(private.artist_card(a) order by a.follower_count desc, a.artist_name)
      from (
        select a.* from public.artist_profiles a, taste, me
        where a.genres && taste.genres
          and a.id <> me.id
          and not exists (select 1 from public.followers f where f.artist_id = a.id and f.fan_id = me.id)
        order by a.follower_count desc, a.artist_name
        limit 6
      ) a), '[]')
  )
$$;

revoke execute on function public.fan_dashboard() from public, anon;
grant execute on function public.fan_dashboard() to authenticated, service_role;
