// How long the Worker takes to refuse a form far past its limits, signed in as the demo artist: the
// bodies that once kept it busy for 20 s (10,000 discount rows, 10,000 tour dates), a megabyte of text,
// and multipart bodies that once were parsed whole before anything was counted (180,000 one-byte fields
// in 10 MB: 0.9 s; a 44.8 MB upload: 3.7 s). Each is sent one at a time; the goal is a refusal within 50 ms.

import { request as httpRequest } from "node:http";
import { percentile } from "./percentile.ts";
import { multipartBody, multipartPart } from "./requests.ts";

const urlEncoded = "application/x-www-form-urlencoded";

const multipart = (parts: string[]) => multipartBody(parts, "bench-boundary-51c9");
const file = (name: string) => ({ name, type: "application/octet-stream" });

const oversized = [
  {
    what: "10,000 discount rows → Store Settings",
    path: "/dashboard/artist/store",
    body: "discountId=d&discountCode=C&discountPercentage=10&discountActive=d&".repeat(10_000),
  },
  {
    what: "10,000 tour dates → Edit Profile",
    path: "/dashboard/artist/profile",
    body: "showId=s&showDate=2027-01-01&showVenue=V&showCity=C&".repeat(10_000),
  },
  { what: "1 MB of text → Edit Profile", path: "/dashboard/artist/profile", body: `bio=${"x".repeat(1024 * 1024)}` },
  {
    what: "180,000 one-byte multipart fields → Edit Profile",
    path: "/dashboard/artist/profile",
    ...multipart(Array.from({ length: 180_000 }, () => multipartPart("bio", "x"))),
  },
  {
    what: "a 20 MB picture → Edit Profile",
    path: "/dashboard/artist/profile",
    ...multipart([multipartPart("intent", "picture"), multipartPart("picture", "x".repeat(20 * 1024 * 1024), file("me.png"))]),
  },
  {
    what: "a 40 MB track sent with merch → Upload (no JavaScript)",
    path: "/dashboard/artist/upload?type=merch",
    ...multipart([multipartPart("title", "Shirt"), multipartPart("audio", "x".repeat(40 * 1024 * 1024), file("track.wav"))]),
  },
  {
    what: "a 150 MB single → Upload (no JavaScript)",
    path: "/dashboard/artist/upload?type=single",
    ...multipart([multipartPart("audio", "x".repeat(150 * 1024 * 1024), file("huge.wav"))]),
  },
];

/**
 * How long until the Worker answers a post of `body`: the answer's status line, timed from the first byte
 * sent. A refusal may come (and the connection close) while the client is still sending, as it should
 * for a body this large, so the rest is not sent.
 */
function answered(url: URL, bytes: Buffer, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = httpRequest(url, { method: "POST", headers: { ...headers, "Content-Length": bytes.length } }, (response) => {
      const ms = performance.now() - started;
      response.resume();
      request.destroy();
      resolve({ status: response.statusCode ?? 0, ms });
    });
    // Only a failure before any answer counts as one.
    request.on("error", (error) => reject(error));
    request.end(bytes);
  });
}

export type RefusalFigures = { what: string; bytes: number; status: number; p50: number; p95: number };

const refusalGoalMs = 50;

export async function measureOversizedForms(appUrl: string, cookie: string, runs = 20): Promise<RefusalFigures[]> {
  const figures: RefusalFigures[] = [];
  for (const { what, path, body, contentType = urlEncoded } of oversized as {
    what: string;
    path: string;
    body: string;
    contentType?: string;
  }[]) {
    const times: number[] = [];
    const bytes = Buffer.from(body);
    let status = 0;
    for (let run = 0; run < runs; run++) {
      const answer = await answered(new URL(path, appUrl), bytes, { "Content-Type": contentType, Cookie: cookie, Origin: appUrl });
      times.push(answer.ms);
      status = answer.status;
    }
    times.sort((a, b) => a - b);
    figures.push({ what, bytes: body.length, status, p50: percentile(times, 50), p95: percentile(times, 95) });
  }
  return figures;
}

export function printOversizedForms(figures: RefusalFigures[]) {
  console.log(`\nOversized forms, refused before any row is read, multipart ones as they stream in (goal: within ${refusalGoalMs} ms)\n`);
  console.log("| body | size | status | p50 | p95 | within goal |\n|---|---|---|---|---|---|");
  for (const { what, bytes, status, p50, p95 } of figures) {
    console.log(
      `| ${what} | ${(bytes / 1024).toFixed(0)} KB | ${status} | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms | ${p50 <= refusalGoalMs ? "yes" : "no"} |`,
    );
  }
}
