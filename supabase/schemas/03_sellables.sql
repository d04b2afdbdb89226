-- What is sold: one row per thing the marketplace sells or counts sales under (each track, release and merch
-- item, by its own id), so an order line and a ledger entry name what they sold by one reference, as the
-- cart does (kind and id), whatever the kind. Kept by the database from each item's own table (the trigger
-- below): a new thing to sell (a membership, a gift card) adds its kind here and the trigger on its table;
-- the cart, orders, ledger, sales and mails read it as they read the others.
-- Function bodies are checked when they first run, so a function may name what a later file declares.
set check_function_bodies = off;

-- `kind`: what the cart and an order line say (track, album, merch), or a single (a release sold as its
-- one track: its sales count under it). `title` and `artist_id` follow the item's, for the studio's and
-- the administrators' lists of what sold. Its artist reads their own rows (analytics), nobody else (an
-- upcoming track is its artist's secret): the functions that list sales read it for them.
create table public.sellables (
  id uuid primary key,
  kind text not null check (kind in ('track', 'album', 'single', 'merch', 'membership')),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null,
  -- What order lines reference: an item of the line's kind.
  constraint sellables_id_kind_key unique (id, kind)
);

alter table public.sellables enable row level security;

create index sellables_artist_id_idx on public.sellables (artist_id);

revoke all on public.sellables from anon, authenticated;

grant select on public.sellables to authenticated;

create policy "Artists read what they sell" on public.sellables
  for select to authenticated using (artist_id = (select auth.uid()));

-- An item's row kept as the item is: added with it, its title and kind followed, removed with it (its order
-- lines then keep their kind and title, their item gone: on delete set null). `kind`: the table's kind,
-- or none for a release (its own kind); its title, or a membership tier's name. Definer: artists write their items, never this table.
create or replace function private.keep_sellable()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    delete from public.sellables s where s.id = old.id;
    return null;
  end if;
  insert into public.sellables as s (id, kind, artist_id, title)
  values (new.id, coalesce(tg_argv[0], to_jsonb(new) ->> 'kind'), new.artist_id, coalesce(to_jsonb(new) ->> 'title', to_jsonb(new) ->> 'name'))
  on conflict (id) do update set kind = excluded.kind, artist_id = excluded.artist_id, title = excluded.title
  where (s.kind, s.artist_id, s.title) is distinct from (excluded.kind, excluded.artist_id, excluded.title);
  return null;
end
$$;

revoke execute on function private.keep_sellable() from public, anon, authenticated;

create trigger tracks_sellable
  after insert or update of title, artist_id or delete on public.tracks
  for each row execute function private.keep_sellable('track');

create trigger releases_sellable
  after insert or update of kind, title, artist_id or delete on public.releases
  for each row execute function private.keep_sellable();

create trigger merch_sellable
  after insert or update of title, artist_id or delete on public.merch
  for each row execute function private.keep_sellable('merch');

-- What a sale counts under in the studio's lists and the ledger: a track's release (a track bought alone
-- counts for its release), otherwise the item itself.
create or replace function private.sold_under(kind text, item_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select case when sold_under.kind = 'track'
    then (select t.release_id from public.tracks t where t.id = sold_under.item_id)
    else sold_under.item_id end
$$;

revoke execute on function private.sold_under(text, uuid) from public, anon, authenticated;
