// Sales written straight into the database, as the checkout would have made them: each row an order in
// its artist's currency with one track line (the artist's share a fraction of it, 88% as the cart prices
// a download), its purchase, and then paid, which credits the artist's ledger. For the benchmarks' and the
// tests' volumes, where a checkout per sale would take hours. The demo data does the same in SQL
// (supabase/seed.sql).
import type { Db } from "@crate/local-supabase";

/**
 * Records a paid sale for each row `rows` selects (its columns: amount in the currency's units, track_id,
 * user_id, country, created_at), with `params` for its placeholders. `share`: the artist's part of each.
 */
export async function recordPaidSales(db: Db, rows: string, params: unknown[] = [], share = 0.88): Promise<void> {
  await db.query("drop table if exists pg_temp.paid_sales");
  await db.query(
    `create temporary table paid_sales as
     select s.*, gen_random_uuid() as order_id, gen_random_uuid() as line_id from (${rows}) s`,
    params,
  );
  await db.query(
    `insert into public.orders (id, buyer_id, buyer_email, currency, total_cents, state, country, created_at)
     select s.order_id, s.user_id, coalesce(u.email, 'buyer@example.test'), private.artist_currency(t.artist_id),
       round(s.amount * 100), 'open', s.country, s.created_at
     from paid_sales s join public.tracks t on t.id = s.track_id left join auth.users u on u.id = s.user_id`,
  );
  await db.query(
    `insert into public.order_lines (id, order_id, artist_id, kind, item_id, title, amount_cents, total_cents,
       artist_share_cents, crate_cents)
     select s.line_id, s.order_id, t.artist_id, 'track', t.id, t.title, round(s.amount * 100), round(s.amount * 100),
       round(s.amount * 100 * $1), round(s.amount * 100) - round(s.amount * 100 * $1)
     from paid_sales s join public.tracks t on t.id = s.track_id`,
    [share],
  );
  await db.query(
    `insert into public.purchases (amount, track_id, user_id, country, created_at, order_line_id)
     select s.amount, s.track_id, s.user_id, s.country, s.created_at, s.line_id from paid_sales s`,
  );
  await db.query(`update public.orders o set state = 'paid', paid_at = s.created_at from paid_sales s where o.id = s.order_id`);
  await db.query("drop table pg_temp.paid_sales");
}
