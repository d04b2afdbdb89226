import { Link } from "react-router";
import { PageHeader } from "~/components/catalog/section-heading";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { countOf, genrePath } from "~/lib/catalog/catalog";
import { readOrThrow } from "~/lib/backend/backend.server";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { GenreCountsSchema } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/genres";

export const meta = () => pageMeta("Music Genres", "Browse independent music by genre, with how many artists and tracks each one has.");

export const headers = publicPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const genres = readOrThrow(
    await context
      .get(supabaseContext)
      .from("genre_counts")
      .select("genre, artist_count, track_count")
      .order("total_count", { ascending: false })
      .order("genre"),
    { what: "genre list", schema: GenreCountsSchema },
  );
  return { genres };
}

// A colour per card, so the grid reads at a glance; picked from the name, so it never changes.
const tints = ["from-accent/30", "from-amber/30", "from-success/25", "from-danger/25", "from-stage-600"];
const tintOf = (genre: string) => tints[[...genre].reduce((sum, character) => sum + character.charCodeAt(0), 0) % tints.length];

export default function Genres({ loaderData }: Route.ComponentProps) {
  const { genres } = loaderData;
  return (
    <>
      <PageHeader title="Music Genres">Every sound on the shelves, busiest first.</PageHeader>
      {genres.length === 0 ? (
        <EmptyState title="No genres found" />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-4">
          {genres.map((genre) => (
            <li key={genre.genre}>
              <Link
                to={genrePath(genre.genre)}
                className={`flex h-32 flex-col justify-end rounded-2xl border border-stage-700 bg-gradient-to-br ${tintOf(genre.genre)} to-stage-850 p-4 transition-colors hover:border-ink-faint sm:h-36`}
              >
                <h2 className="text-xl font-bold text-ink">{genre.genre}</h2>
                <p className="mt-1 text-sm text-ink-muted">
                  {countOf(genre.artist_count, "artist")} · {countOf(genre.track_count, "track")}
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
