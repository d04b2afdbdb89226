/**
 * Counts a render's sequential round trips to the backend: requests that overlap (run in parallel)
 * count once. Reported in the response's Server-Timing, which the route tests and the benchmark read.
 */
export function roundTripCounter(baseFetch: typeof fetch = fetch) {
  let inFlight = 0;
  let roundTrips = 0;
  let requests = 0;
  let startedAt = 0;
  let busyMs = 0;

  const countedFetch: typeof fetch = async (input, init) => {
    requests++;
    if (inFlight++ === 0) {
      roundTrips++;
      startedAt = performance.now();
    }
    try {
      return await baseFetch(input, init);
    } finally {
      if (--inFlight === 0) busyMs += performance.now() - startedAt;
    }
  };

  return {
    fetch: countedFetch,
    get roundTrips() {
      return roundTrips;
    },
    serverTiming: () =>
      `backend;dur=${busyMs.toFixed(1)};desc="${roundTrips} round trip${roundTrips === 1 ? "" : "s"}, ${requests} request${requests === 1 ? "" : "s"}"`,
  };
}
