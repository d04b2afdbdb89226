-- From nothing to something is no percentage: it was read as "+100%", a figure nobody earned. The trend is
-- null then, which the pages show as "New"; from nothing to nothing it stays 0.
create or replace function private.trend(recent numeric, previous numeric)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case
    when previous = 0 then case when recent > 0 then null else 0 end
    else round((recent - previous) / previous * 100, 1)
  end
$$;
