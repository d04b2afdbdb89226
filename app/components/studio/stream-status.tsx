import { useEffect } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { StreamState } from "~/lib/schemas/studio-data";

/**
 * A track's stream as its artist watches it: "Preparing the stream" (the rendition queue is making it),
 * "Ready", or "Failed: <reason>" with Retry, a form that works without JavaScript (it posts to `action`,
 * the page's own action, which queues the job again). Nothing for a track without audio.
 */
export function StreamStatus({
  state,
  failure,
  trackId,
  title,
  action,
}: {
  state: StreamState;
  failure: string | null;
  trackId: string;
  title: string;
  action: string;
}) {
  const navigation = useNavigation();
  if (!state) return null;
  if (state !== "failed") {
    return (
      <Badge>
        <span className="sr-only">Stream: </span>
        {state === "ready" ? "Ready" : "Preparing the stream"}
      </Badge>
    );
  }
  const retrying = navigation.state === "submitting" && navigation.formData?.get("trackId") === trackId;
  return (
    <Form method="post" action={action} className="inline-flex flex-wrap items-center gap-2">
      <input type="hidden" name="intent" value="retry-stream" />
      <input type="hidden" name="trackId" value={trackId} />
      <Badge tone="danger">
        <span className="sr-only">Stream: </span>
        Failed: {failure ?? "the stream could not be made"}
      </Badge>
      <Button type="submit" size="sm" variant="secondary" aria-label={`Retry the stream of ${title}`} disabled={retrying}>
        {retrying ? "Retrying..." : "Retry"}
      </Button>
    </Form>
  );
}

/** How often a page looks again while a stream is being made (it takes seconds). */
const preparingRefreshMs = 3000;

/**
 * Reloads the page's data every few seconds while one of its streams is being made, so "Preparing the
 * stream" turns to "Ready" by itself (with JavaScript; without, on the next visit).
 */
export function useRefreshWhilePreparing(preparing: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!preparing || state !== "idle") return;
    const timer = setTimeout(() => void revalidate(), preparingRefreshMs);
    return () => clearTimeout(timer);
  }, [preparing, state, revalidate]);
}
