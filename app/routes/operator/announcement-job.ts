// Resource route for the marketplace's operator, not for people: runs the announcement job now, the job
// the media Worker's Cron Trigger runs every hour (wrangler.media.toml): `npm run announcements`, and
// locally, where no Cron Trigger fires (`npm start` asks this route at the top of every hour instead). It
// answers only a request carrying the Worker's own secret.
//
// POST → 200 { announced, mails }, 401 without the secret, 502 when the backend or the queue cannot be reached.
import { envFrom } from "~/lib/http/env.server";
import { fromTheMarketplace } from "~/lib/http/operator.server";
import { runPageAnnouncementJob } from "~/lib/mail/announcements.server";
import type { Route } from "./+types/announcement-job";

export async function action({ request, context }: Route.ActionArgs) {
  const env = envFrom(context);
  if (!(await fromTheMarketplace(request, env.MARKETPLACE_SECRET))) return Response.json({ code: "not_the_marketplace" }, { status: 401 });
  try {
    return Response.json(await runPageAnnouncementJob(context));
  } catch (error) {
    console.error("the announcement job failed; its releases wait for the next run", error instanceof Error ? error.message : error);
    return Response.json({ code: "announcements_failed" }, { status: 502 });
  }
}
