-- What the track page shows of its comments: each with its author's public name and picture (artist
-- name or fan username), in one read. security_invoker: the comments policies still decide which rows
-- a reader sees (those on tracks they can see).

-- The comment form allows 2,000 characters; the database holds every writer to the same.
alter table public.comments
  add constraint comments_content_length check (char_length(content) <= 2000);

create view public.track_comments with (security_invoker = true) as
select
  c.id,
  c.track_id,
  c.user_id,
  c.content,
  c.created_at,
  coalesce(a.artist_name, f.username) as author_name,
  coalesce(a.profile_image_url, f.profile_image_url) as author_image_url,
  -- Which public page the author has, if any: artist pages and fan pages live at different paths.
  case when a.id is not null then 'artist' when f.id is not null then 'fan' end as author_kind
from public.comments c
left join public.artist_profiles a on a.id = c.user_id
left join public.fan_profiles f on f.id = c.user_id;

revoke all on public.track_comments from anon, authenticated;
grant select on public.track_comments to anon, authenticated;
