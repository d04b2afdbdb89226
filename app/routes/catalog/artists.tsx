import { Form, href } from "react-router";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { PageHeader } from "~/components/catalog/section-heading";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { inputClasses } from "~/components/ui/field";
import { readOrThrow } from "~/lib/backend/backend.server";
import { countOf } from "~/lib/catalog/catalog";
import { cx } from "~/lib/ui/cx";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { pageCount, pageFrom } from "~/lib/ui/paging";
import { ArtistDirectorySchema } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/artists";

export const meta = () => pageMeta("Artists", "Every independent artist on the marketplace, most followed first.");

export const headers = publicPageHeaders;

/** Artists per page of the directory. */
const pageSize = 48;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim();
  const page = pageFrom(url);
  const directory = readOrThrow(
    await context.get(supabaseContext).rpc("artist_directory", { search: q, include_genres: true, page, page_size: pageSize }),
    { what: "artist directory", schema: ArtistDirectorySchema },
  );
  return { q, page, pages: pageCount(directory.total, pageSize), total: directory.total, artists: directory.artists };
}

export default function Artists({ loaderData }: Route.ComponentProps) {
  const { q, page, pages, total, artists } = loaderData;
  return (
    <>
      <PageHeader title="Artists">The whole roster, most followed first.</PageHeader>
      <Form
        method="get"
        action={href("/artists")}
        role="search"
        aria-label="Search the artist directory"
        className="mb-8 flex flex-col gap-3 sm:flex-row"
      >
        <label htmlFor="artists-q" className="sr-only">
          Search artists by name, description, or genre
        </label>
        <input
          key={q}
          id="artists-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="Search artists by name, description, or genre..."
          className={cx(inputClasses, "sm:max-w-xl")}
        />
        <Button type="submit" className="h-11 shrink-0">
          Search
        </Button>
      </Form>
      <h2 className="sr-only">Results</h2>
      {q ? (
        <p className="mb-4 text-sm text-ink-faint" role="status">
          {countOf(total, "artist")} matching “{q}”
        </p>
      ) : null}
      {artists.length === 0 ? (
        <EmptyState title="No artists found matching your search">Try a different name, description or genre.</EmptyState>
      ) : (
        <ArtistGrid artists={artists} />
      )}
      <Pagination path={href("/artists")} page={page} pages={pages} params={q ? { q } : {}} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
