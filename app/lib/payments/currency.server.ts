import * as v from "valibot";
import { readOrThrow } from "~/lib/backend/backend.server";
import type { SupabaseClient } from "~/lib/backend/supabase.server";

/** What an artist's prices are in: their payout settings' currency, read as a computed field of their profile. */
export async function artistCurrency(supabase: SupabaseClient, artistId: string): Promise<string> {
  const read = await supabase.from("artist_profiles").select("currency").eq("id", artistId).maybeSingle();
  return readOrThrow(read, { what: "artist's currency", schema: v.object({ currency: v.string() }), notFound: "Artist not found" })
    .currency;
}
