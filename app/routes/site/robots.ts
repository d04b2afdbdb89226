import { robotsPath, routesWhere } from "~/route-uses";
import type { Route } from "./+types/robots";

/** The routes crawlers stay out of (app/route-uses.ts), each once: a rule covers every address it begins. */
const closedToCrawlers = routesWhere((use) => !use.crawl)
  .filter((pattern) => pattern !== "/*")
  .map(robotsPath)
  .filter((path, _, paths) => !paths.some((other) => other !== path && !other.includes("*") && path.startsWith(other)));

/**
 * What crawlers may visit: the public catalog, not the dashboards, admin, account pages or the resource
 * routes (audio, plays, likes, follows, uploads, search answers), as app/route-uses.ts says; and where
 * the sitemap is.
 */
export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const disallowed = [
    ...closedToCrawlers,
    // React Router's data addresses, with or without a query
    "/*.data",
  ];
  const body = ["User-agent: *", ...disallowed.map((path) => `Disallow: ${path}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600, s-maxage=3600" },
  });
}
