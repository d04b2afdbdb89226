import { Link } from "react-router";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { PageHeader } from "~/components/catalog/section-heading";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { LinkButton } from "~/components/ui/button";
import { readOrThrow } from "~/lib/backend.server";
import { countOf } from "~/lib/catalog";
import { publicPageHeaders } from "~/lib/http-cache";
import { pageMeta } from "~/lib/meta";
import { GenreArtistsSchema } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session.server";
import type { Route } from "./+types/genre";

export const meta = ({ params }: Route.MetaArgs) =>
  pageMeta(`${params.genre} Artists`, `Independent artists making ${params.genre} music, by how much of it they have released.`);

export const headers = publicPageHeaders;

export async function loader({ params, context }: Route.LoaderArgs) {
  const artists = readOrThrow(
    await context
      .get(supabaseContext)
      .from("genre_artists")
      .select("artist_id, artist_name, short_description, profile_image_url, follower_count, track_count")
      .eq("genre", params.genre)
      .order("track_count", { ascending: false })
      .order("follower_count", { ascending: false })
      .order("artist_name"),
    { what: "genre's artists", schema: GenreArtistsSchema },
  );
  return { genre: params.genre, artists };
}

export default function GenreArtists({ loaderData }: Route.ComponentProps) {
  const { genre, artists } = loaderData;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-ink-faint">
        <Link to="/genres" className="hover:text-ink hover:underline">
          Genres
        </Link>{" "}
        / <span aria-current="page">{genre}</span>
      </nav>
      <PageHeader title={`${genre} Artists`}>
        {artists.length > 0 ? `${countOf(artists.length, "artist")}, most ${genre} tracks first.` : null}
      </PageHeader>
      {artists.length === 0 ? (
        <EmptyState
          title="No artists found"
          action={
            <LinkButton to="/genres" variant="secondary">
              Browse all genres
            </LinkButton>
          }
        >
          There are no artists currently producing {genre} music
        </EmptyState>
      ) : (
        <ArtistGrid artists={artists} showGenres={false} trackLabel={`${genre} track`} />
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
