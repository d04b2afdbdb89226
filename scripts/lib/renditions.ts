// Queueing streaming renditions through the marketplace's own command route (app/routes/operator/renditions.ts),
// as `npm run renditions` does on hosted, and waiting for a local database's tracks to stream them.
import type { LocalStack } from "@crate/local-supabase";
import type { SupabaseClient } from "@supabase/supabase-js";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

export type RenditionRequest = { all: true } | { trackIds: string[] };

/** Asks the Worker at `appUrl` to queue renditions; answers how many tracks it queued. */
export async function requestRenditions(appUrl: string, secret: string, request: RenditionRequest): Promise<number> {
  const response = await fetch(new URL("/renditions", appUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json", [marketplaceSecretHeader]: secret },
    body: JSON.stringify(request),
  });
  const answer = (await response.json().catch(() => null)) as { queued?: number; code?: string } | null;
  if (!response.ok || typeof answer?.queued !== "number") {
    throw new Error(`${appUrl} refused to queue renditions: HTTP ${response.status} ${answer?.code ?? ""}`.trim());
  }
  return answer.queued;
}

/** Tracks of a local database whose stream is still being made (they have audio and no rendition yet). */
export async function tracksPreparing(backend: LocalStack): Promise<number> {
  const { rows } = await backend.stack.db.query<{ count: string }>(
    "select count(*) from private.made_files where format = 'stream' and state = 'preparing'",
  );
  return Number(rows[0]?.count ?? 0);
}

/** Waits until no track of a local database is still preparing its stream; throws after `timeoutMs`. */
export async function renditionsMade(backend: LocalStack, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await tracksPreparing(backend)) > 0) {
    if (Date.now() > deadline) throw new Error(`tracks still had no stream after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A track's stream as track_stream answers `client`: its state, and its file once made (null before). */
export async function streamOf(client: SupabaseClient, trackId: string): Promise<{ state: string | null; path: string | null }> {
  const { data, error } = await client
    .rpc("track_stream", { track_id: trackId })
    .maybeSingle<{ state: string | null; path: string | null }>();
  if (error) throw new Error(`Reading a track's stream failed: ${error.message}`);
  return { state: data?.state ?? null, path: data?.state === "ready" ? data.path : null };
}
