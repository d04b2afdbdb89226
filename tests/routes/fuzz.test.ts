// Bad input answers 4xx, never 500: every route of app/routes.ts with bad ids, NUL and invalid UTF-8,
// a long query string, and posts with no body or a body that is not a form (JSON, plain text, multipart
// without its boundary), as a visitor and signed in; and a form far past its limits, sent to each route as
// the people it serves (the others are turned away before their body is read).
import { beforeAll, describe, expect, it } from "vitest";
import { multipartBody, multipartPart } from "../../scripts/lib/requests.ts";
import { routeUses, type RouteUse } from "../../app/route-uses.ts";
import { routeAddresses, routePatterns } from "../support/route-table.ts";
import { Visitor, signedIn } from "./support.ts";

type Who = "visitor" | "fan" | "artist";
/** Who posts a route's oversized forms: the people it serves (an administrator's pages, a signed-in fan: they are turned away alike). */
const posterOf: Record<RouteUse["for"], Who> = {
  everyone: "visitor",
  visitors: "visitor",
  marketplace: "visitor",
  users: "fan",
  fans: "fan",
  admins: "fan",
  artists: "artist",
};
const usesOf = routeUses as Record<string, RouteUse | undefined>;

/** One address per route of app/routes.ts (parameters filled with something that exists, or that could), and who it serves. */
const served = [
  ...new Map(
    [
      ...routePatterns().flatMap((pattern) => routeAddresses(pattern).map((address) => [address, pattern] as const)),
      ["/embed/track/{id}", "/embed/*"] as const,
    ].map(([address, pattern]) => [address, posterOf[usesOf[pattern]?.for ?? "everyone"]]),
  ),
];
const routes = served.map(([address]) => address);

const badIds = ["not-a-uuid", "%00", "%FF%FE", "00000000-0000-0000-0000-000000000000", "a".repeat(2000), "..%2F..%2Fetc"];
const badQueries = [
  "?q=%00",
  "?q=%FF",
  "?page=-1&q=%E2%28%A1",
  "?page=99999999999999999999",
  `?q=${"x".repeat(8000)}`,
  "?period=%00&filter=%00&genre=%00&ban=%00&edit=%00",
];

type Body = [string, { body?: string; headers: Record<string, string> }];

/** What is not a form at all: every route, as everyone. */
const notForms: Body[] = [
  ["no body", { headers: {} }],
  ["JSON", { body: '{"email":"a@b.c"}', headers: { "Content-Type": "application/json" } }],
  ["plain text", { body: "email=a@b.c", headers: { "Content-Type": "text/plain" } }],
  ["multipart without a boundary", { body: "--x\r\n\r\n", headers: { "Content-Type": "multipart/form-data" } }],
  [
    "a form with NUL",
    { body: "email=%00&password=%00&q=%00&content=%00&intent=%00", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
  ],
];

/** Forms far past their limits: each route as the people it serves, whose forms it reads. */
const oversized: Body[] = [
  // What once kept the Worker busy for 20 s: a list of 10,000 rows, and a form past its size.
  [
    "10,000 discount rows",
    {
      body: "discountId=d&discountCode=C&discountPercentage=10&discountActive=d&".repeat(10_000),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    },
  ],
  [
    "10,000 tour dates",
    {
      body: "showId=s&showDate=2027-01-01&showVenue=V&showCity=C&".repeat(10_000),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    },
  ],
  ["a megabyte of text", { body: `bio=${"x".repeat(1024 * 1024)}`, headers: { "Content-Type": "application/x-www-form-urlencoded" } }],
  // Multipart bodies, bounded as they stream in: refused at the first limit they pass.
  ["20,000 one-byte multipart fields", multipart(Array.from({ length: 20_000 }, () => multipartPart("name", "x")))],
  [
    "a file in a field that takes none",
    multipart([multipartPart("email", "a@b.c"), multipartPart("avatar", "x".repeat(100_000), picture("a.png"))]),
  ],
  [
    "three pictures in a field for one",
    multipart(Array.from({ length: 3 }, () => multipartPart("picture", "x".repeat(1000), picture("me.png")))),
  ],
  ["two megabytes of multipart text", multipart([multipartPart("bio", "x".repeat(2 * 1024 * 1024))])],
];

/** A multipart body of these parts, with its Content-Type header. */
function multipart(parts: string[]) {
  const { body, contentType } = multipartBody(parts, "fuzz-boundary-7f3a");
  return { body, headers: { "Content-Type": contentType } };
}

/** A file part's picture, by name. */
function picture(name: string) {
  return { name, type: "image/png" };
}

let visitors: Record<string, Visitor>;
/** Each test makes some hundreds of requests, a few at a time: some seconds on a quiet 2-core machine. */
const manyRequests = 120_000;
/** Requests in flight at once: enough to keep the Worker and the backend busy, few enough to stay polite. */
const inFlight = 6;

/** Each request's failure, if any, asked `inFlight` at a time: each asker takes the next item as soon as its own is answered. */
async function failuresOf<T>(items: T[], ask: (item: T) => Promise<string | null>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const asker = async () => {
    while (next < items.length) {
      const failure = await ask(items[next++]!);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, asker));
  return failures;
}

beforeAll(async () => {
  visitors = {
    visitor: new Visitor(),
    fan: await signedIn("fan@example.com", "fan-demo-pass"),
    artist: await signedIn("artist@example.com", "artist-demo-pass"),
  };
});

async function statusOf(visitor: Visitor, path: string, init: RequestInit = {}) {
  const { response } = await visitor.request(path, init);
  return response.status;
}

describe.each(["visitor", "fan", "artist"] as const)("as a %s", (who) => {
  it(
    "answers every route's bad ids and bad queries below 500",
    async () => {
      const addresses = routes.flatMap((route) => {
        const paths = route.includes("{id}") ? badIds.map((id) => route.replace("{id}", id)) : [route];
        return [...paths, ...badQueries.map((query) => `${paths[0]}${query}`)];
      });
      const failures = await failuresOf(addresses, async (path) => {
        const status = await statusOf(visitors[who]!, path);
        return status >= 500 ? `GET ${path.slice(0, 80)} → ${status}` : null;
      });
      expect(failures).toEqual([]);
    },
    manyRequests,
  );

  it(
    "answers posts without a form below 500",
    async () => {
      const posts = served
        .filter(([path]) => path !== "/logout" || who === "visitor")
        .flatMap(([route, poster]) =>
          [...notForms, ...(poster === who ? oversized : [])].map(
            (body) => [route.replace("{id}", "00000000-0000-4000-8000-000000000000"), body] as const,
          ),
        );
      const failures = await failuresOf(posts, async ([path, [what, { body, headers }]]) => {
        const status = await statusOf(visitors[who]!, path, { method: "POST", body, headers });
        return status >= 500 ? `POST ${path} (${what}) → ${status}` : null;
      });
      expect(failures).toEqual([]);
    },
    manyRequests,
  );
});
