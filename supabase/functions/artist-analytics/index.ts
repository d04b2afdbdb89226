// An artist's analytics for one period (spec section 2, Analytics): revenue, downloads, streams and sales
// with their trends against the period before, their history per day or week, top tracks and countries.
//
// Runs as the caller: their JWT is forwarded to the database, whose artist_analytics() reads the daily
// rollups under row-level security, so an artist only ever sees their own figures, and creates the
// caller's analytics row with its defaults when missing. No service role here.
//
// POST { period: "7d" | "30d" | "90d" | "1y" } → 200 Analytics (../_shared/analytics.ts), or an error
// { code } that the app turns into the spec's message: invalid_request (400), not_signed_in (401),
// not_an_artist (403), analytics_unavailable (502), method_not_allowed (405).
import * as v from "valibot";
import { analyticsPeriod, RawAnalyticsSchema, shapeAnalytics } from "../_shared/analytics.ts";
import { callerClient, failure } from "../_shared/project.ts";

Deno.serve(async (req) => {
  if (req.method !== "POST") return failure(405, "method_not_allowed");
  const body = await req.json().catch(() => null);
  const period = analyticsPeriod(body?.period);
  if (!period) return failure(400, "invalid_request");

  const caller = callerClient(req);
  const { data, error } = await caller.rpc("artist_analytics", { days: period.days });
  if (error) {
    // 42501: a visitor (the anon role may not call it).
    if (error.code === "42501") return failure(401, "not_signed_in");
    console.error("artist_analytics failed", error);
    return failure(502, "analytics_unavailable");
  }
  if (data === null) return failure(403, "not_an_artist");
  const raw = v.safeParse(RawAnalyticsSchema, data);
  if (!raw.success) {
    console.error("artist_analytics answered an unexpected shape", v.flatten(raw.issues));
    return failure(502, "analytics_unavailable");
  }
  return Response.json(shapeAnalytics(period, raw.output), { headers: { "Cache-Control": "private, no-store" } });
});
