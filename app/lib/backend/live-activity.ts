// Live pages through Realtime: the artist dashboard's Recent Activity (inserts of purchases, plays and
// downloads, and comments on the artist's tracks) and the header's bell (the user's notifications);
// row-level security decides what the subscriber receives. Realtime's client loads only once something
// listens, and this module too (import it dynamically: use-live-revalidation.ts is what pages hold). The access token comes from
// the app's own route, since the session cookie is HttpOnly, and is fetched again before it expires.
import { href } from "react-router";

const tokenPath = href("/account/realtime-token");
/** Ask for a new token this long before the current one expires. */
const renewBefore = 60;

type Token = { accessToken: string; expiresAt: number };

function isToken(value: unknown): value is Token {
  return (
    typeof value === "object" &&
    value !== null &&
    "accessToken" in value &&
    typeof value.accessToken === "string" &&
    "expiresAt" in value &&
    typeof value.expiresAt === "number"
  );
}

function tokenSource() {
  let current: Token | null = null;
  return async (): Promise<string | null> => {
    if (current && current.expiresAt - renewBefore > Date.now() / 1000) return current.accessToken;
    const response = await fetch(tokenPath, { credentials: "same-origin", cache: "no-store" }).catch(() => null);
    const body: unknown = response?.ok ? await response.json() : null;
    current = isToken(body) ? body : null;
    return current?.accessToken ?? null;
  };
}

type Backend = { url: string; anonKey: string };

/** Calls `onInsert` whenever a row matching `filter` is inserted into one of `tables`; answers, once listening, how to stop. */
async function watchInserts(backend: Backend, channelName: string, tables: readonly string[], filter: string, onInsert: () => void) {
  const { RealtimeClient } = await import("@supabase/realtime-js");
  const client = new RealtimeClient(`${backend.url.replace(/^http/, "ws")}/realtime/v1`, {
    params: { apikey: backend.anonKey, eventsPerSecond: 10 },
    accessToken: tokenSource(),
  });
  const channel = client.channel(channelName);
  for (const table of tables) {
    channel.on("postgres_changes", { event: "INSERT", schema: "public", table, filter }, onInsert);
  }
  // Join with the user's token, not the anon key the socket opens with: the subscription is checked as
  // the role the join carries, and a visitor may not read these tables.
  await client.setAuth();
  // Listening once Realtime has joined the channel (what comes before is not heard).
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status, error) => {
      if (status === "SUBSCRIBED") resolve();
      else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(error ?? new Error(`Realtime: ${status}`));
    }),
  );
  return () => {
    void client.removeChannel(channel);
    client.disconnect();
  };
}

/** Calls `onActivity` whenever something new happens on the artist's tracks; returns how to stop. */
export function watchActivity(backend: Backend, artistId: string, onActivity: () => void): Promise<() => void> {
  return watchInserts(
    backend,
    `artist-activity:${artistId}`,
    ["purchases", "analytics_events", "comments"],
    `artist_id=eq.${artistId}`,
    onActivity,
  );
}

/** Calls `onNotice` whenever the user gets a notification (the header's bell); returns how to stop. */
export function watchNotifications(backend: Backend, userId: string, onNotice: () => void): Promise<() => void> {
  return watchInserts(backend, `notifications:${userId}`, ["notifications"], `user_id=eq.${userId}`, onNotice);
}
