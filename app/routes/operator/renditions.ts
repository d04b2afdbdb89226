// Resource route for the marketplace's operator, not for people: queues streaming renditions, so existing
// tracks get theirs and the catalogue can be re-rendered when the format changes (`npm run renditions`,
// locally and on hosted). It answers only a request carrying the Worker's own secret (X-Marketplace-Secret).
//
// POST { all: true } → every track with audio whose rendition is missing or of another format;
// POST { trackIds: [...] } → those tracks (up to 500). → 200 { queued }, 401 without the secret, 400, 502.
import * as v from "valibot";
import { cloudflareContext } from "~/lib/http/context.server";
import { envFrom } from "~/lib/http/env.server";
import { marketplaceClient } from "~/lib/backend/marketplace-client.server";
import { fromTheMarketplace } from "~/lib/http/operator.server";
import { queueRenditions } from "~/lib/media/rendition-queue.server";
import { madeFormats } from "../../../supabase/functions/_shared/made-formats";
import type { Route } from "./+types/renditions";

const RenditionRequest = v.union([
  v.object({ all: v.literal(true) }),
  v.object({ trackIds: v.pipe(v.array(v.pipe(v.string(), v.uuid())), v.minLength(1), v.maxLength(500)) }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const env = envFrom(context);
  if (!(await fromTheMarketplace(request, env.MARKETPLACE_SECRET))) return Response.json({ code: "not_the_marketplace" }, { status: 401 });
  const body = v.safeParse(RenditionRequest, await request.json().catch(() => null));
  if (!body.success) return Response.json({ code: "invalid_request" }, { status: 400 });
  const queue = context.get(cloudflareContext).env.RENDITIONS;
  if ("trackIds" in body.output) {
    const queued = await queueRenditions(queue, body.output.trackIds);
    return queued ? Response.json({ queued: body.output.trackIds.length }) : Response.json({ code: "queue_error" }, { status: 502 });
  }
  const backend = marketplaceClient(env);
  let queued = 0;
  for (let after: string | null = null; ;) {
    const { data, error }: { data: string[] | null; error: unknown } = await backend.rpc("stream_backlog", {
      ending: madeFormats.stream.ending,
      after_id: after ?? undefined,
      max_count: 500,
    });
    if (error) {
      console.error("listing the tracks waiting for a stream failed", error);
      return Response.json({ code: "storage_error", queued }, { status: 502 });
    }
    if (!data || data.length === 0) break;
    if (!(await queueRenditions(queue, data))) return Response.json({ code: "queue_error", queued }, { status: 502 });
    queued += data.length;
    after = data[data.length - 1]!;
  }
  return Response.json({ queued });
}
