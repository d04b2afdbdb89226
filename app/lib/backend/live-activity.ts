// The artist dashboard's live Recent Activity: a Realtime subscription to inserts of purchases, plays and
// downloads, and comments on the artist's tracks (row-level security decides what the subscriber
// receives). Realtime's client loads only once the dashboard is on screen. The access token comes from
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

/** Calls `onActivity` whenever something new happens on the artist's tracks; returns how to stop. */
export async function watchActivity(
  backend: { url: string; anonKey: string },
  artistId: string,
  onActivity: () => void,
): Promise<() => void> {
  const { RealtimeClient } = await import("@supabase/realtime-js");
  const client = new RealtimeClient(`${backend.url.replace(/^http/, "ws")}/realtime/v1`, {
    params: { apikey: backend.anonKey, eventsPerSecond: 10 },
    accessToken: tokenSource(),
  });
  const channel = client.channel(`artist-activity:${artistId}`);
  for (const table of ["purchases", "analytics_events", "comments"]) {
    channel.on("postgres_changes", { event: "INSERT", schema: "public", table, filter: `artist_id=eq.${artistId}` }, onActivity);
  }
  // Join with the user's token, not the anon key the socket opens with: the subscription is checked as
  // the role the join carries, and a visitor may not read these tables.
  await client.setAuth();
  channel.subscribe();
  return () => {
    void client.removeChannel(channel);
    client.disconnect();
  };
}
