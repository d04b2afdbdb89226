import type { Route } from "./+types/robots";

/**
 * What crawlers may visit: the public catalog, not the dashboards, admin, account pages or the resource
 * routes (audio, plays, likes, follows, uploads, search answers); and where the sitemap is.
 */
export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const disallowed = [
    "/dashboard/",
    "/admin",
    "/login",
    "/register",
    "/forgot-password",
    "/reset-password",
    "/logout",
    "/account/",
    "/liked",
    "/recent",
    "/playlists",
    "/search/",
    "/uploads/",
    "/track/*/audio",
    "/track/*/source",
    "/track/*/play",
    "/track/*/like",
    "/artist/*/follow",
    // React Router's data addresses, with or without a query
    "/*.data",
  ];
  const body = ["User-agent: *", ...disallowed.map((path) => `Disallow: ${path}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600, s-maxage=3600" },
  });
}
