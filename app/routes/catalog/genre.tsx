import { href, Link, redirect } from "react-router";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { PageHeader } from "~/components/catalog/section-heading";
import { notFoundBoundary } from "~/components/error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { LinkButton } from "~/components/ui/button";
import { notFound, readOrThrow } from "~/lib/backend/backend.server";
import { countOf, genrePath } from "~/lib/catalog/catalog";
import { genres } from "~/lib/constants";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { GenrePageSchema } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/genre";

export const meta = ({ params }: Route.MetaArgs) =>
  pageMeta(`${params.genre} Artists`, `Independent artists making ${params.genre} music, by how much of it they have released.`);

export const headers = publicPageHeaders;

/**
 * The artists whose profile names the genre or who released tracks in it, most tracks in it first (one
 * call). An address in another case moves to the genre as the catalog spells it (`/genres/r%26b` →
 * `/genres/R%26B`).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  // A genre outside the catalog's list has no page.
  if (!genres.some((genre) => genre.toLowerCase() === params.genre.toLowerCase())) throw notFound("Genre not found");
  const page = readOrThrow(await context.get(supabaseContext).rpc("genre_page", { genre: params.genre }), {
    what: "genre's artists",
    schema: GenrePageSchema,
  });
  if (page.genre && page.genre !== params.genre) throw redirect(genrePath(page.genre), 301);
  return { genre: page.genre ?? params.genre, artists: page.artists };
}

export default function GenreArtists({ loaderData }: Route.ComponentProps) {
  const { genre, artists } = loaderData;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-ink-faint">
        <Link to={href("/genres")} className="hover:text-ink hover:underline">
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
            <LinkButton to={href("/genres")} variant="secondary">
              Browse all genres
            </LinkButton>
          }
        >
          There are no artists currently producing {genre} music
        </EmptyState>
      ) : (
        <>
          <h2 className="sr-only">Artists</h2>
          <ArtistGrid artists={artists} showGenres={false} trackLabel={`${genre} track`} />
        </>
      )}
    </>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Genre not found",
  reason: "There is no such genre in the catalog.",
  links: [{ to: href("/genres"), label: "Browse all genres" }],
});
