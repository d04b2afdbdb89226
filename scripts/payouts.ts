// `npm run payouts`: runs the payout job now through the marketplace's own command route, as the media
// Worker's Cron Trigger does every hour: a payout for each available balance at or above its artist's
// threshold (automatic withdrawals on), sent through PayPal, and the outcome of those on their way.
// Locally it asks the marketplace `npm start` runs (which also runs it at the top of every hour). On
// hosted, name the site and the Worker's secret:
//   MARKETPLACE_URL=https://<your-domain> MARKETPLACE_SECRET=<the Worker's secret> npm run payouts
import { loadEnv } from "./lib/env.ts";
import { operatorTarget, runPayouts } from "./lib/operator.ts";

const { appUrl, secret } = operatorTarget(loadEnv());
try {
  const run = await runPayouts(appUrl, secret);
  console.log(
    `Payouts at ${appUrl}: ${run.sent} sent, ${run.paid} paid, ${run.failed} failed, ${run.waiting} waiting (${run.unclaimed} to be claimed).`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
