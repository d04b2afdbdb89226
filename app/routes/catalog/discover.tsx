import { useRef } from "react";
import { Form, href, useNavigation, useSubmit } from "react-router";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { PageHeader } from "~/components/catalog/section-heading";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { inputClasses, Label } from "~/components/ui/field";
import { readOrThrow } from "~/lib/backend/backend.server";
import { countOf } from "~/lib/catalog/catalog";
import { genres } from "~/lib/constants";
import { cx } from "~/lib/ui/cx";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { pageCount, pageFrom } from "~/lib/ui/paging";
import { ArtistDirectorySchema } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/discover";

export const meta = () => pageMeta("Discover Artists", "Search independent artists by name or sound and filter by genre.");

export const headers = publicPageHeaders;

/** The filters as the address carries them, for the links to other pages of results. */
function filterParams(filters: ReturnType<typeof filtersFrom>): [string, string][] {
  return [
    ...(filters.q ? [["q", filters.q] as [string, string]] : []),
    ...filters.genres.map((genre): [string, string] => ["genre", genre]),
    ...(filters.newest ? [["filter", "new"] as [string, string]] : []),
  ];
}

/** The filters live in the URL (`?q=…&genre=Rock&genre=Jazz&filter=new`), so results can be shared. */
function filtersFrom(url: URL) {
  const chosen = new Set(url.searchParams.getAll("genre"));
  return {
    q: (url.searchParams.get("q") ?? "").trim(),
    genres: genres.filter((genre) => chosen.has(genre)),
    newest: url.searchParams.get("filter") === "new",
  };
}

/** Artists per page of results. */
const pageSize = 48;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = filtersFrom(url);
  const page = pageFrom(url);
  // Text matches name or short description only (spec: Discover); any chosen genre matches.
  const directory = readOrThrow(
    await context.get(supabaseContext).rpc("artist_directory", {
      search: filters.q,
      include_genres: false,
      any_genres: filters.genres,
      newest: filters.newest,
      page,
      page_size: pageSize,
    }),
    { what: "artist search", schema: ArtistDirectorySchema },
  );
  return { filters, page, pages: pageCount(directory.total, pageSize), total: directory.total, artists: directory.artists };
}

export default function Discover({ loaderData }: Route.ComponentProps) {
  const { filters, page, pages, total, artists } = loaderData;
  const submit = useSubmit();
  const navigation = useNavigation();
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const searching = navigation.state === "loading" && navigation.location.pathname === href("/discover");

  return (
    <>
      <PageHeader title="Discover Artists">Search by name or sound, pick genres, and find your next favourite artist.</PageHeader>
      <Form
        method="get"
        action={href("/discover")}
        role="search"
        aria-label="Filter artists"
        className="mb-8 grid gap-5 rounded-2xl border border-stage-700 bg-stage-850 p-4 sm:p-5"
        // With JavaScript, results follow the filters as they change (typing settles first).
        onChange={(event) => {
          const form = event.currentTarget;
          clearTimeout(typingTimer.current);
          const isText = (event.target as HTMLElement).getAttribute("type") === "search";
          typingTimer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), isText ? 300 : 0);
        }}
      >
        <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
          <div>
            <Label htmlFor="discover-q">Search</Label>
            <input
              id="discover-q"
              name="q"
              type="search"
              defaultValue={filters.q}
              placeholder="Artist name or description"
              className={inputClasses}
            />
          </div>
          <div>
            <Label htmlFor="discover-sort">Sort by</Label>
            <select id="discover-sort" name="filter" defaultValue={filters.newest ? "new" : ""} className={cx(inputClasses, "pr-8")}>
              <option value="">Most followed</option>
              <option value="new">Newest</option>
            </select>
          </div>
          <Button type="submit" className="h-11">
            Search
          </Button>
        </div>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-ink">Genres</legend>
          <div className="flex flex-wrap gap-2">
            {genres.map((genre) => (
              <label key={genre} className="cursor-pointer">
                <input
                  type="checkbox"
                  name="genre"
                  value={genre}
                  defaultChecked={filters.genres.includes(genre)}
                  className="peer sr-only"
                />
                <span className="inline-flex rounded-full border border-stage-600 bg-stage-900 px-3 py-1.5 text-sm text-ink-muted peer-checked:border-accent peer-checked:bg-accent/15 peer-checked:text-ink peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-amber hover:text-ink">
                  {genre}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </Form>
      <section aria-labelledby="discover-results" aria-busy={searching || undefined}>
        <h2 id="discover-results" className="mb-4 text-sm font-medium text-ink-faint" aria-live="polite">
          {countOf(total, "artist")}
          {filters.newest ? ", newest first" : ", most followed first"}
        </h2>
        {artists.length === 0 ? (
          <EmptyState title="No artists found matching your criteria">Try another search or fewer genres.</EmptyState>
        ) : (
          <ArtistGrid artists={artists} />
        )}
        <Pagination path={href("/discover")} page={page} pages={pages} params={filterParams(filters)} />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
