-- Comments on tracks: readable wherever the track is, written by signed-in users as themselves.

create table public.comments (
  id uuid primary key default gen_random_uuid(),
  content text not null check (btrim(content) <> ''),
  track_id uuid not null references public.tracks (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- Filled from the track by a trigger, for the artist's live activity feed.
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  created_at timestamptz not null default now()
);

create index comments_track_id_created_at_idx on public.comments (track_id, created_at desc);
create index comments_artist_id_created_at_idx on public.comments (artist_id, created_at desc);
create index comments_user_id_idx on public.comments (user_id);

-- A comment's artist is set by the database from the track, not by the commenter.
create trigger fill_comment_artist
  before insert on public.comments
  for each row execute function private.fill_artist_from_track();

revoke all on public.comments from anon, authenticated;
grant select on public.comments to anon, authenticated;
grant insert (content, track_id, user_id), delete on public.comments to authenticated;

alter table public.comments enable row level security;

-- The subquery runs under the tracks policies, so a comment is visible exactly when its track is.
create policy "Visitors read comments on visible tracks" on public.comments
  for select to anon
  using (exists (select 1 from public.tracks t where t.id = track_id));
create policy "Users read comments on visible tracks" on public.comments
  for select to authenticated
  using (exists (select 1 from public.tracks t where t.id = track_id));
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
