-- What the directory and genre pages show, computed by the database from the rows the reader can see
-- (security_invoker views: visitors count released tracks only).

-- Directory cards (/artists, /discover, home rows): public profile fields with follower and track counts.
create view public.artist_cards with (security_invoker = true) as
select
  a.id,
  a.artist_name,
  a.short_description,
  a.profile_image_url,
  a.genres,
  a.follower_count,
  (select count(*)::integer from public.tracks t where t.artist_id = a.id) as track_count,
  a.created_at
from public.artist_profiles a;

-- Tracks per artist and genre (/genres/{genre}: filter on genre, sort by track_count).
create view public.genre_artists with (security_invoker = true) as
select
  t.genre,
  a.id as artist_id,
  a.artist_name,
  a.short_description,
  a.profile_image_url,
  a.follower_count,
  count(*)::integer as track_count
from public.tracks t
join public.artist_profiles a on a.id = t.artist_id
group by t.genre, a.id;

-- Artists and tracks per genre (/genres, sorted by total_count).
create view public.genre_counts with (security_invoker = true) as
select
  t.genre,
  count(distinct t.artist_id)::integer as artist_count,
  count(*)::integer as track_count,
  (count(distinct t.artist_id) + count(*))::integer as total_count
from public.tracks t
group by t.genre;

revoke all on public.artist_cards, public.genre_artists, public.genre_counts from anon, authenticated;
grant select on public.artist_cards, public.genre_artists, public.genre_counts to anon, authenticated;
