// What the operator's scripts (`npm run renditions`, `npm run payouts`) ask: the marketplace's own command
// routes, with the Worker's secret. Locally the marketplace `npm start` runs, with the secret the local
// data folder keeps; on hosted, the site and the secret named in MARKETPLACE_URL and MARKETPLACE_SECRET.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoDataDir } from "@crate/local-supabase";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

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

export type PayoutRun = { sent: number; paid: number; failed: number; waiting: number; unclaimed: number; reversed: number };

export type AnnouncementRun = { announced: number; mails: number };

/** Asks the Worker at `appUrl` to run one of its hourly jobs now (its operator route `path`); answers what the run did. */
async function runJob<Run>(appUrl: string, secret: string, path: string, what: string, counted: keyof Run): Promise<Run> {
  const response = await fetch(new URL(path, appUrl), { method: "POST", headers: { [marketplaceSecretHeader]: secret } });
  const answer = (await response.json().catch(() => null)) as (Run & { code?: string }) | null;
  if (!response.ok || typeof answer?.[counted] !== "number") {
    throw new Error(`${appUrl} did not run ${what}: HTTP ${response.status} ${answer?.code ?? ""}`.trim());
  }
  return answer;
}

/** The payout job now: payouts started, sent and asked after. */
export const runPayouts = (appUrl: string, secret: string) => runJob<PayoutRun>(appUrl, secret, "/payouts", "the payouts", "paid");

/** The announcement job now: the releases whose day has come, announced, and their mail queued. */
export const runAnnouncements = (appUrl: string, secret: string) =>
  runJob<AnnouncementRun>(appUrl, secret, "/announcements", "the announcements", "announced");
