// What the operator's scripts (`npm run renditions`, `npm run payouts`) ask: the marketplace's own command
// routes, with the Worker's secret. Locally the marketplace `npm start` runs, with the secret the local
// data folder keeps; on hosted, the site and the secret named in MARKETPLACE_URL and MARKETPLACE_SECRET.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoDataDir } from "@crate/local-supabase";

/** The marketplace to ask and its secret; exits saying what to set when there is no secret. */
export function operatorTarget(env: Record<string, string | undefined>): { appUrl: string; secret: string } {
  const appUrl = process.env.MARKETPLACE_URL || `http://localhost:${env.PORT || 3000}`;
  const keptSecret = join(repoDataDir, "marketplace-secret");
  const secret = process.env.MARKETPLACE_SECRET || (existsSync(keptSecret) ? readFileSync(keptSecret, "utf8").trim() : "");
  if (!secret) {
    console.error("No marketplace secret: set MARKETPLACE_SECRET (the Worker's), or start the local marketplace once (npm start).");
    process.exit(1);
  }
  return { appUrl, secret };
}

export type PayoutRun = { sent: number; paid: number; failed: number; waiting: number; reversed: number };

/** Asks the Worker at `appUrl` to run the payout job now; answers what the run did. */
export async function runPayouts(appUrl: string, secret: string): Promise<PayoutRun> {
  const response = await fetch(new URL("/payouts", appUrl), { method: "POST", headers: { "X-Marketplace-Secret": secret } });
  const answer = (await response.json().catch(() => null)) as (PayoutRun & { code?: string }) | null;
  if (!response.ok || typeof answer?.paid !== "number") {
    throw new Error(`${appUrl} did not run the payouts: HTTP ${response.status} ${answer?.code ?? ""}`.trim());
  }
  return answer;
}
