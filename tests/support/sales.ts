// Sales as tests need them, on given days: written with the service role as the checkout would have made
// them, for the route and browser suites (each with its own backend).
import type { SupabaseClient } from "@supabase/supabase-js";

/** A sale as a test needs it: a track, what the buyer paid (in the currency's units), when, by whom. */
export type RecordedSale = { track_id: string; amount: number; user_id: string | null; created_at: string; country?: string | null };

/**
 * Sales on given days, written with the service role (`service`) as the checkout would have made them: for each, an
 * order of one track line with the artist's 88%, its purchase, and the order then paid (which credits the
 * artist's ledger on that day).
 */
export async function recordSalesAs(service: SupabaseClient, sales: readonly RecordedSale[], currency = "USD"): Promise<void> {
  for (const sale of sales) {
    const cents = Math.round(sale.amount * 100);
    const order = await service
      .from("orders")
      .insert({ buyer_id: sale.user_id, buyer_email: "buyer@example.test", currency, total_cents: cents, country: sale.country ?? null })
      .select("id")
      .single();
    if (order.error) throw new Error(order.error.message);
    const track = await service.from("tracks").select("artist_id, title").eq("id", sale.track_id).single();
    if (track.error) throw new Error(track.error.message);
    const share = Math.round(cents * 0.88);
    const line = await service
      .from("order_lines")
      .insert({
        order_id: order.data.id,
        kind: "track",
        item_id: sale.track_id,
        ...track.data,
        amount_cents: cents,
        total_cents: cents,
        artist_share_cents: share,
        crate_cents: cents - share,
      })
      .select("id")
      .single();
    if (line.error) throw new Error(line.error.message);
    const bought = await service.from("purchases").insert({ ...sale, order_line_id: line.data.id });
    if (bought.error) throw new Error(bought.error.message);
    const paid = await service.from("orders").update({ state: "paid", paid_at: sale.created_at }).eq("id", order.data.id);
    if (paid.error) throw new Error(paid.error.message);
  }
}
