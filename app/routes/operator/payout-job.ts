// Resource route for the marketplace's operator, not for people: runs the payout job now, the job the media
// Worker's Cron Trigger runs every hour (wrangler.media.toml): `npm run payouts`, on hosted after PayPal
// was down or its keys were set, and locally, where no Cron Trigger fires (`npm start` asks this route at
// the top of every hour instead). It answers only a request carrying the Worker's own secret.
//
// POST → 200 { sent, paid, failed, waiting }, 401 without the secret, 502 when the backend or PayPal cannot be reached.
import { envFrom } from "~/lib/http/env.server";
import { fromTheMarketplace } from "~/lib/http/operator.server";
import { runPayoutJob } from "~/lib/payouts/payout-job.server";
import type { Route } from "./+types/payout-job";

export async function action({ request, context }: Route.ActionArgs) {
  const env = envFrom(context);
  if (!(await fromTheMarketplace(request, env.MARKETPLACE_SECRET))) return Response.json({ code: "not_the_marketplace" }, { status: 401 });
  try {
    return Response.json(await runPayoutJob(env));
  } catch (error) {
    console.error("the payout job failed; its payouts wait for the next run", error instanceof Error ? error.message : error);
    return Response.json({ code: "payouts_failed" }, { status: 502 });
  }
}
