import { data } from "react-router";
import { containsPattern } from "~/lib/catalog";
import { artistSearch } from "~/lib/constants";
import { databaseErrorMessage } from "~/lib/errors";
import { publicCacheControl } from "~/lib/http-cache";
import { supabaseContext } from "~/lib/session.server";
import type { Route } from "./+types/search.artists";

export type ArtistSearchResult = { id: string; artist_name: string; profile_image_url: string | null; genres: string[] };

/**
 * The header search's results: artists whose name contains the query, ignoring case (spec section 5:
 * trimmed, empty gives nothing, at most 10). A resource route: JSON for the dropdown, no page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim();
  if (!query)
    return data({ query, artists: [] as ArtistSearchResult[], error: null }, { headers: { "Cache-Control": publicCacheControl } });

  const { data: artists, error } = await context
    .get(supabaseContext)
    .from("artist_profiles")
    .select("id, artist_name, profile_image_url, genres")
    .ilike("artist_name", containsPattern(query))
    .order("follower_count", { ascending: false })
    .order("artist_name")
    .limit(artistSearch.maxResults);
  if (error) {
    console.error("Artist search failed", error);
    return data(
      { query, artists: [] as ArtistSearchResult[], error: databaseErrorMessage(error) },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
  return data({ query, artists: artists as ArtistSearchResult[], error: null }, { headers: { "Cache-Control": publicCacheControl } });
}
