// The fans' recommended releases, kept ahead (public.fan_recommendations, 20_recommendations.sql): a purchase
// or a follow computes that fan's at once; this hourly job (the media Worker's Cron Trigger, beside the
// payouts and the announcements) computes again those that likes, plays and releases coming out have aged,
// and those a change of many fans at once left to it. The oldest first, a slice a call.
import * as v from "valibot";
import { marketplaceClient, type MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import { backendVariables } from "~/lib/http/backend-env";

const Refreshed = v.object({ refreshed: v.number(), more: v.boolean() });

/** Fans a call computes (within the marketplace's statement timeout at 100× the demo data); calls a run makes at most. */
const fansPerCall = 50;
const maxCalls = 20;

/** Computes again the recommendations due (at most 1,000 fans a run); answers how many. */
export async function runRecommendationsJob(backend: MarketplaceClient): Promise<number> {
  let refreshed = 0;
  for (let call = 0; call < maxCalls; call += 1) {
    const { data, error } = await backend.rpc("refresh_due_recommendations", { max_fans: fansPerCall });
    if (error) throw new Error(`refreshing recommendations failed: ${error.message}`);
    const done = v.parse(Refreshed, data);
    refreshed += done.refreshed;
    if (!done.more) break;
  }
  console.log(`recommendations: ${refreshed} fans' computed again`);
  return refreshed;
}

/** The Cron Trigger's run (workers/media.ts). Throws when the Worker is not set up for it. */
export function runScheduledRecommendations(rawEnv: unknown): Promise<number> {
  return runRecommendationsJob(marketplaceClient(v.parse(v.object(backendVariables), rawEnv)));
}
