// Live pages through Realtime: the artist dashboard's Recent Activity (inserts of purchases, plays and
// downloads, and comments on the artist's tracks) and the header's bell (the user's notifications);
// row-level security decides what the subscriber receives. Realtime's client loads only once something
// listens. The access token comes from
// the app's own route, since the session cookie is HttpOnly, and is fetched again before it expires.
import { useEffect, useRef, useState } from "react";
import { href, useRevalidator } from "react-router";

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

/**
 * Reloads the page's data (its loaders) whenever `watch` hears something: the first event at once, a
 * burst at most every `everyMs`. `watch` starts listening and answers how to stop; `key` names what it
 * listens to (a new key listens anew). Answers whether it is listening.
 */
export function useRevalidateOnEvents(watch: ((onEvent: () => void) => Promise<() => void>) | null, key: string, everyMs = 500) {
  const { revalidate } = useRevalidator();
  const [listening, setListening] = useState<string | null>(null);
  // The newest `watch` (a new function each render), for the effect below, which restarts only with `key`.
  const latest = useRef(watch);
  useEffect(() => {
    latest.current = watch;
  });
  useEffect(() => {
    const start = latest.current;
    if (!start) return;
    let stop = () => {};
    let stopped = false;
    let pending: ReturnType<typeof setTimeout> | null = null;
    let lastRefresh = 0;
    const refresh = () => {
      if (pending) return;
      const wait = Math.max(0, lastRefresh + everyMs - Date.now());
      pending = setTimeout(() => {
        pending = null;
        lastRefresh = Date.now();
        void revalidate();
      }, wait);
    };
    void start(refresh)
      .then((unsubscribe) => {
        if (stopped) return unsubscribe();
        stop = unsubscribe;
        setListening(key);
      })
      .catch((error: unknown) => console.error("listening for live changes could not start", error));
    return () => {
      stopped = true;
      if (pending) clearTimeout(pending);
      stop();
    };
  }, [key, everyMs, revalidate]);
  return listening === key;
}
