-- The artist dashboard in one read (spec section 2): the statistics row (revenue, downloads, streams and
-- followers, each with its total and a real trend: the last 30 days against the 30 before, as a signed
-- percentage), the first 3 tracks of the library, and the Recent Activity feed (5 purchases, 5 plays or
-- downloads and 5 comments on the artist's tracks, merged newest first, 10 shown).
-- Runs as the caller, so row-level security decides: an artist reads the sales and events of their own
-- tracks only. Every part reads through an index that starts with artist_id.

create or replace function private.trend(recent numeric, previous numeric)
returns numeric
language sql
immutable
set search_path = ''
as $$
  -- From nothing to something is +100%; from nothing to nothing, 0.
  select case
    when previous = 0 then case when recent > 0 then 100 else 0 end
    else round((recent - previous) / previous * 100, 1)
  end
$$;

create or replace function public.artist_dashboard()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with me as (
    select (select auth.uid()) as id, now() - interval '30 days' as recent_from, now() - interval '60 days' as previous_from
  ),
  sales as (
    select coalesce(sum(p.amount), 0) as total,
      coalesce(sum(p.amount) filter (where p.created_at >= me.recent_from), 0) as recent,
      coalesce(sum(p.amount) filter (where p.created_at >= me.previous_from and p.created_at < me.recent_from), 0) as previous
    from me left join public.purchases p on p.artist_id = me.id
    group by me.id
  ),
  events as (
    select e.type, count(*) as total,
      count(*) filter (where e.created_at >= me.recent_from) as recent,
      count(*) filter (where e.created_at >= me.previous_from and e.created_at < me.recent_from) as previous
    from me join public.analytics_events e on e.artist_id = me.id
    group by e.type
  ),
  follows as (
    select count(*) filter (where f.created_at >= me.recent_from) as recent,
      count(*) filter (where f.created_at >= me.previous_from and f.created_at < me.recent_from) as previous
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
    'stats', jsonb_build_object(
      'revenue', (select jsonb_build_object('total', s.total, 'trend', private.trend(s.recent, s.previous)) from sales s),
      'downloads', coalesce((select jsonb_build_object('total', e.total, 'trend', private.trend(e.recent, e.previous))
        from events e where e.type = 'download'), '{"total": 0, "trend": 0}'),
      'streams', coalesce((select jsonb_build_object('total', e.total, 'trend', private.trend(e.recent, e.previous))
        from events e where e.type = 'play'), '{"total": 0, "trend": 0}'),
      'followers', (select jsonb_build_object('total', a.follower_count, 'trend', private.trend(f.recent, f.previous))
        from me join public.artist_profiles a on a.id = me.id cross join follows f)),
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

revoke execute on function public.artist_dashboard() from public, anon;
grant execute on function public.artist_dashboard() to authenticated, service_role;
grant execute on function private.trend(numeric, numeric) to authenticated, service_role;
