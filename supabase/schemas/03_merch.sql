set check_function_bodies = off;

-- Merchandise an artist sells, public to everyone.
create table public.merch (
  id uuid primary key default gen_random_uuid(),
  artist_id uuid not null references public.artist_profiles (id) on delete cascade,
  title text not null check (btrim(title) <> ''),
  price numeric(10, 2) not null check (price >= 0.99),
  allow_pay_more boolean not null default false,
  description text not null check (btrim(description) <> ''),
  image_url text,
  created_at timestamptz not null default now(),
  constraint merch_image_url_owned check (private.is_owned_public_url(image_url, 'artwork', artist_id)),
  image_small_url text,
  constraint merch_image_small_url_owned check (private.is_owned_public_url(image_small_url, 'artwork', artist_id)),
  constraint merch_title_length check (char_length(title) <= 200),
  constraint merch_description_length check (char_length(description) <= 5000),
  constraint merch_price_range check (price <= 1000),
  -- How many the artist has to sell (null: they keep no count, and it never sells out). What is left is this
  -- less what orders sold or hold (private.merch_left), so two fans never buy the same last one.
  stock integer,
  constraint merch_stock_range check (stock between 0 and 100000),
  -- The country it ships from, and what shipping one costs there and anywhere else.
  ships_from text,
  constraint merch_ships_from_country check (ships_from ~ '^[A-Z]{2}$'),
  shipping_home numeric(10, 2) not null default 0,
  shipping_elsewhere numeric(10, 2) not null default 0,
  constraint merch_shipping_home_range check (shipping_home between 0 and 1000),
  constraint merch_shipping_elsewhere_range check (shipping_elsewhere between 0 and 1000)
);

alter table public.merch enable row level security;

create index merch_artist_id_created_at_idx on public.merch (artist_id, created_at desc);

-- At most 500 merch items an artist (a store, not a warehouse).
create trigger merch_limit
  before insert on public.merch
  for each row execute function private.limit_per_owner('artist_id', '500', 'an artist has at most 500 merch items');

create trigger merch_limit_per_request
  before insert on public.merch
  for each row execute function private.limit_rows_per_request('merch', '10');

create trigger merch_files_named_by_the_marketplace
  before insert or update of image_url, image_small_url on public.merch
  for each row execute function private.files_named_by_the_marketplace('image_url', 'image_small_url');

revoke all on public.merch from anon, authenticated;

grant select on public.merch to anon, authenticated;

grant insert, update, delete on public.merch to authenticated;

create policy "Visitors read merch" on public.merch
  for select to anon using (artist_id <> all ((select private.banned_accounts())::uuid[]));

create policy "Users read merch" on public.merch
  for select to authenticated
  using (artist_id <> all ((select private.banned_accounts())::uuid[]) or artist_id = (select auth.uid()));

create policy "Artists add their own merch" on public.merch
  for insert to authenticated
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists update their own merch" on public.merch
  for update to authenticated
  using (artist_id = (select auth.uid()))
  with check (artist_id = (select auth.uid()) and (select private.is_active_user()));

create policy "Artists delete their own merch" on public.merch
  for delete to authenticated
  using (artist_id = (select auth.uid()) and (select private.is_active_user()));
