-- Realtime: the tables whose inserts the live dashboards hear.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- The artist dashboard's live activity feed listens for new purchases, plays/downloads and comments;
-- Realtime delivers each change only to subscribers whose policies let them read the row.
alter publication supabase_realtime add table public.purchases, public.analytics_events, public.comments;
