import { createHash } from "node:crypto";
import { routesWhere, type RoutePattern, type RouteUse } from "../../app/route-uses.ts";

/** The demo accounts supabase/seed.sql creates (the README lists the same). */
export const demoAccounts = [
  { role: "admin", email: "admin@example.com", password: "admin-demo-pass" },
  { role: "artist", email: "artist@example.com", password: "artist-demo-pass" },
  { role: "fan", email: "fan@example.com", password: "fan-demo-pass" },
] as const;

/** A demo track's page: the seed derives each demo track's id from its title. */
export function demoTrackPath(title: string) {
  return `/track/${demoId(`demo track: ${title}`)}`;
}

/** A demo album's page: the seed derives each demo album's id from its title. */
export function demoAlbumPath(title: string) {
  return `/album/${demoId(`demo album: ${title}`)}`;
}

function demoId(seed: string) {
  const hex = createHash("md5").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Where the demo data fills each page with a parameter (app/route-uses.ts): the address the browser walk
 * and the bench open for it. A page added with a parameter and no address here fails both at once.
 */
const demoPageAddresses: Partial<Record<RoutePattern, string>> = {
  "/genres/:genre": "/genres/Rock",
  // The Paper Lanterns, the demo artist account's own page
  "/artist/:id": "/artist/a1000000-0000-4000-8000-000000000012",
  // rileyspins, the demo fan account
  "/fan/:id": "/fan/f0000000-0000-4000-8000-000000000001",
  // the demo fan's public playlist
  "/playlist/:id": "/playlist/b1000000-0000-4000-8000-000000000001",
  "/track/:id": demoTrackPath("Open Highway"),
  // the album Open Highway opens, with its own price
  "/album/:id": demoAlbumPath("Headlights & Static"),
  // a track of the demo artist's, whose edit page they open
  "/dashboard/artist/tracks/:id": demoTrackPath("Kites Over the Clyde").replace("/track/", "/dashboard/artist/tracks/"),
  // the demo artist's album, whose download codes they manage
  "/dashboard/artist/codes/:id": demoAlbumPath("Small Town Satellites").replace("/album/", "/dashboard/artist/codes/"),
  // a track the demo fan bought, as uploaded (ready at once: the page offers its button)
  "/download/:kind/:id": demoTrackPath("Static on the Radio").replace("/track/", "/download/track/"),
  // a receipt link no Worker signed: the page that says it has lapsed (a real one is the guest's alone)
  "/receipt/:pass": "/receipt/not-a-receipt",
  // an unsubscribe link no Worker signed: the page that says it is not valid (a real one is in a mail)
  "/unsubscribe/:pass": "/unsubscribe/not-a-link",
  // a confirmation link no Worker signed: the page that says it is not valid (a real one is in a mail)
  "/newsletter/:pass": "/newsletter/not-a-link",
  // a gift link no Worker signed: the page that says it is not one (a real one is in the recipient's mail)
  "/gift/:pass": "/gift/not-a-gift",
  "/*": "/no-such-page",
};

/** The address a page pattern is opened at with the demo data: itself, or its filled-in address. */
export function demoAddressOf(pattern: RoutePattern): string {
  const address = pattern.includes(":") || pattern.includes("*") ? demoPageAddresses[pattern] : pattern;
  if (!address) throw new Error(`No demo address for ${pattern}: add one to demoPageAddresses in scripts/lib/demo-data.ts`);
  return address;
}

/** The pages whose use matches, each at its demo address. */
export const demoPagesWhere = (matches: (use: RouteUse) => boolean) =>
  routesWhere((use) => use.kind === "page" && matches(use)).map(demoAddressOf);
