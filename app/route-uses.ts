// Who each route of app/routes.ts serves, beside the table that says what serves it: the one list that
// robots.txt, the sitemap, oEmbed's page matcher, the browser walk, the bench and the suites' coverage
// check derive theirs from. A route added to routes.ts and not here fails tests/scripts/route-uses.test.ts.

export type RouteUse = {
  /**
   * Who opens it: everyone, signed-out visitors (sign-in and sign-up), any signed-in user, or one role.
   * A route for someone else answers them with a redirect to sign in, or the 403 page. `marketplace`: the
   * operator's commands, which carry the Worker's own secret and answer nobody else.
   */
  for: "everyone" | "visitors" | "users" | "fans" | "artists" | "admins" | "marketplace";
  /** A page people open in the site's layout, or a resource something else fetches (JSON, audio, XML, a frame). */
  kind: "page" | "resource";
  /** Whether crawlers may visit it (robots.txt). Of those, the pages without a parameter are the sitemap's own. */
  crawl: boolean;
  /** The player other sites may frame for the page (oEmbed and the Share menu); `named` when the address names it. */
  embeds?: "track" | "album" | "artist" | "playlist" | "named";
};

const page = (audience: RouteUse["for"], crawl = audience === "everyone"): RouteUse => ({ for: audience, kind: "page", crawl });
const resource = (audience: RouteUse["for"], crawl = false): RouteUse => ({ for: audience, kind: "resource", crawl });

export const routeUses = {
  "/login": page("visitors", false),
  "/register": page("visitors", false),
  "/register/artist": page("visitors", false),
  "/register/fan": page("visitors", false),
  "/forgot-password": page("visitors", false),
  "/reset-password": page("visitors", false),
  "/logout": resource("users"),
  "/account/realtime-token": resource("users"),
  "/search/artists": resource("everyone"),
  "/track/:id/audio": resource("everyone"),
  "/track/:id/source": resource("everyone"),
  "/track/:id/download": resource("users"),
  "/album/:id/download": resource("users"),
  "/track/:id/play": resource("everyone"),
  "/feed.atom": resource("everyone", true),
  "/feed.rss": resource("everyone", true),
  "/artist/:id/feed.atom": resource("everyone", true),
  "/artist/:id/feed.rss": resource("everyone", true),
  "/artist/:id/follow": resource("users"),
  "/track/:id/like": resource("users"),
  "/release/:id/wishlist": resource("fans"),
  "/uploads/resumable/:uploadId?": resource("users"),
  "/uploads/discard": resource("users"),
  "/robots.txt": resource("everyone", true),
  "/sitemap.xml": resource("everyone", true),
  "/sitemap/:kind/:page": resource("everyone", true),
  "/embed/:kind/:id": { ...resource("everyone", true), embeds: "named" },
  "/embed/*": resource("everyone", true),
  "/oembed": resource("everyone", true),
  "/webhooks/:provider": resource("everyone"),
  "/dashboard/artist/codes/:id/export": resource("artists"),
  "/dashboard/artist/payments/sales.csv": resource("artists"),
  "/dashboard/artist/newsletter.csv": resource("artists"),
  "/admin/tax.csv": resource("admins"),
  "/renditions": resource("marketplace"),
  "/payouts": resource("marketplace"),
  "/announcements": resource("marketplace"),
  "/": page("everyone"),
  "/about": page("everyone"),
  "/terms": page("everyone"),
  "/privacy": page("everyone"),
  "/discover": page("everyone"),
  "/cart": page("everyone", false),
  // (a guest, back from paying, is sent on to their receipt link)
  "/checkout/done": page("everyone", false),
  "/receipt/:pass": page("everyone", false),
  "/gift/:pass": page("everyone", false),
  "/unsubscribe/:pass": page("everyone", false),
  "/newsletter/:pass": page("everyone", false),
  "/notifications": page("users"),
  "/genres": page("everyone"),
  "/genres/:genre": page("everyone"),
  "/artists": page("everyone"),
  "/artist/:id": { ...page("everyone"), embeds: "artist" },
  "/fan/:id": page("everyone"),
  "/dashboard/artist": page("artists"),
  "/dashboard/artist/tracks": page("artists"),
  "/dashboard/artist/library": page("artists"),
  "/dashboard/artist/tracks/:id": page("artists"),
  "/dashboard/artist/upload": page("artists"),
  "/dashboard/artist/media": page("artists"),
  "/dashboard/artist/payments": page("artists"),
  "/dashboard/artist/store": page("artists"),
  "/dashboard/artist/analytics": page("artists"),
  "/dashboard/artist/profile": page("artists"),
  "/dashboard/artist/settings": page("artists"),
  "/dashboard/artist/codes": page("artists"),
  "/dashboard/artist/memberships": page("artists"),
  "/dashboard/artist/orders": page("artists"),
  "/dashboard/artist/codes/:id": page("artists"),
  "/dashboard/fan": page("fans"),
  "/dashboard/fan/purchased": page("fans"),
  "/dashboard/fan/following": page("fans"),
  "/dashboard/fan/memberships": page("fans"),
  "/dashboard/fan/recent": page("fans"),
  "/recent": page("users"),
  "/dashboard/fan/payments": page("fans"),
  "/dashboard/fan/profile": page("fans"),
  "/dashboard/fan/settings": page("fans"),
  "/redeem": page("fans"),
  "/download/:kind/:id": page("users"),
  "/liked": page("users"),
  // Your Playlists is a signed-in page; a visitor is asked to sign in. A playlist's own page is public.
  "/playlists": page("users"),
  "/playlist/:id": { ...page("everyone"), embeds: "playlist" },
  "/admin": page("admins"),
  "/admin/news": page("admins"),
  "/track/:id": { ...page("everyone"), embeds: "track" },
  "/album/:id": { ...page("everyone"), embeds: "album" },
  // Every other address: the not-found page.
  "/*": page("everyone", false),
} as const satisfies Record<string, RouteUse>;

export type RoutePattern = keyof typeof routeUses;

/** The patterns whose use matches, in the route table's order. */
export function routesWhere(matches: (use: RouteUse) => boolean): RoutePattern[] {
  return (Object.keys(routeUses) as RoutePattern[]).filter((pattern) => matches(routeUses[pattern]));
}

/**
 * robots.txt's way of saying a pattern: parameters as `*`, an optional last part dropped (a rule is a
 * prefix, so it covers the address with it too).
 */
export function robotsPath(pattern: string): string {
  return pattern.replace(/\/:[a-zA-Z]+\?$/, "").replace(/:[a-zA-Z]+/g, "*");
}

/** The address pattern as a regular expression over a path, capturing each parameter (a trailing slash allowed). */
export function patternExpression(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .filter(Boolean)
    .map((part) => (part.startsWith(":") ? "/([^/]+)" : `/${part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`))
    .join("");
  return new RegExp(`^${source}/?$`);
}
