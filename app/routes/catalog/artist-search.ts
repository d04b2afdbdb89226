import { data } from "react-router";
import { read } from "~/lib/backend/backend.server";
import { containsPattern } from "~/lib/catalog/catalog";
import { artistSearch } from "~/lib/constants";
import { publicCacheControl } from "~/lib/http/http-cache";
import { ArtistSearchResultsSchema, type ArtistSearchReply } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/artist-search";

/**
 * The header search's results: artists whose name contains the query, ignoring case (spec section 5:
 * trimmed, empty gives nothing, at most 10). A resource route: JSON for the dropdown, no page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const reply = (answer: ArtistSearchReply, cacheControl = publicCacheControl) =>
    data(answer, { headers: { "Cache-Control": cacheControl } });
  if (!query) return reply({ query, artists: [], error: null });

  const artists = read(
    await context
      .get(supabaseContext)
      .from("artist_profiles")
      .select("id, artist_name, profile_image_url, genres")
      .ilike("artist_name", containsPattern(query))
      .order("follower_count", { ascending: false })
      .order("artist_name")
      .limit(artistSearch.maxResults),
    { what: "artist search", schema: ArtistSearchResultsSchema },
  );
  if (artists.status === "failed") return reply({ query, artists: [], error: artists.message }, "no-store");
  return reply({ query, artists: artists.status === "found" ? artists.data : [], error: null });
}
