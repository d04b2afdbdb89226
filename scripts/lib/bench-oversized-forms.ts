// How long the Worker takes to refuse a form far past its limits, signed in as the demo artist: the
// bodies that once kept it busy for 20 s (10,000 discount rows, 10,000 tour dates) and a megabyte of
// text. Each is sent one at a time; the goal is a refusal within 50 ms.

import { percentile } from "./percentile.ts";

const form = { "Content-Type": "application/x-www-form-urlencoded" };

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
];

export type RefusalFigures = { what: string; bytes: number; status: number; p50: number; p95: number };

const refusalGoalMs = 50;

export async function measureOversizedForms(appUrl: string, cookie: string, runs = 20): Promise<RefusalFigures[]> {
  const figures: RefusalFigures[] = [];
  for (const { what, path, body } of oversized) {
    const times: number[] = [];
    let status = 0;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const response = await fetch(new URL(path, appUrl), {
        method: "POST",
        body,
        redirect: "manual",
        headers: { ...form, Cookie: cookie, Origin: appUrl },
      });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      status = response.status;
    }
    times.sort((a, b) => a - b);
    figures.push({ what, bytes: body.length, status, p50: percentile(times, 50), p95: percentile(times, 95) });
  }
  return figures;
}

export function printOversizedForms(figures: RefusalFigures[]) {
  console.log(`\nOversized forms, refused before any row is read (goal: within ${refusalGoalMs} ms)\n`);
  console.log("| body | size | status | p50 | p95 | within goal |\n|---|---|---|---|---|---|");
  for (const { what, bytes, status, p50, p95 } of figures) {
    console.log(
      `| ${what} | ${(bytes / 1024).toFixed(0)} KB | ${status} | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms | ${p50 <= refusalGoalMs ? "yes" : "no"} |`,
    );
  }
}
