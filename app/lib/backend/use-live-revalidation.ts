// Pages that follow what happens live (the artist dashboard's Recent Activity, the header's bell) reload
// their data when Realtime hears something. This hook is all they carry; the listening itself
// (live-activity.ts, and Realtime's client) loads once the page is on screen.
import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";

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
