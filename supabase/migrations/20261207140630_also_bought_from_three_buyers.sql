-- "Also bought" only from 3 buyers besides the reader: the two functions as
-- supabase/schemas/20_recommendations.sql declares them.

set check_function_bodies = off;

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
    and (select count(*) from buyers) >= 3
  group by t.release_id
$$;

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
