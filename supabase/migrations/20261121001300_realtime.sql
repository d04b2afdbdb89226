-- The artist dashboard's live activity feed listens for new purchases, plays/downloads and comments;
-- Realtime delivers each change only to subscribers whose policies let them read the row.
alter publication supabase_realtime add table public.purchases, public.analytics_events, public.comments;
