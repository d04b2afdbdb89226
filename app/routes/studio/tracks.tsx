import { Form, href, Link, redirect } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { StreamStatus, useRefreshWhilePreparing } from "~/components/studio/stream-status";
import { Artwork } from "~/components/catalog/artist-image";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Badge } from "~/components/ui/badge";
import { Button, LinkButton } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { EmptyState } from "~/components/ui/empty-state";
import { Icon } from "~/components/ui/icon";
import { PillNav } from "~/components/ui/pill-nav";
import { readOrThrow } from "~/lib/backend/backend.server";
import { albumPath, countOf, trackEditPath, trackPath } from "~/lib/catalog/catalog";
import { formatCount, formatDate, formatPrice } from "~/lib/format";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { pageCount, pageFrom } from "~/lib/ui/paging";
import { StudioCatalogSchema, type StudioCatalog } from "~/lib/schemas/studio-data";
import { MerchStockSchema, RetryStreamSchema } from "~/lib/schemas/studio";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { refusedWrite } from "~/lib/backend/backend.server";
import { readForm } from "~/lib/forms/form-body.server";
import { retryStream } from "./streams.server";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/tracks";

export const meta = () => pageMeta("Your Tracks", "Everything you have published: tracks, albums and merchandise.");

const yourTracks = href("/dashboard/artist/tracks");

/** The library filter (spec: all, album, single), in the URL so each state has an address. */
const filters = [
  { kind: "all", label: "All" },
  { kind: "album", label: "Albums" },
  { kind: "single", label: "Singles" },
] as const;
type Kind = (typeof filters)[number]["kind"];
const pageSize = 50;
// The studio is personal: dates are written one way, like the public pages.
const dateLocale = "en-US";

function kindFrom(url: URL): Kind {
  const asked = url.searchParams.get("filter");
  return filters.find((filter) => filter.kind === asked)?.kind ?? "all";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const url = new URL(request.url);
  const kind = kindFrom(url);
  const page = pageFrom(url);
  const catalog = readOrThrow(await context.get(supabaseContext).rpc("studio_catalog", { kind, page, page_size: pageSize }), {
    what: "studio catalogue",
    schema: StudioCatalogSchema,
  });
  return { kind, page, pages: pageCount(catalog.track_count, pageSize), ...catalog };
}

/**
 * Retry on a failed stream (back to this page, where it shows "Preparing the stream"), or a merch item's
 * stock counted again (row-level security lets an artist change their own merch alone).
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireArtist(request, context);
  const formData = await readForm(request);
  const back = () => redirect(`${yourTracks}${new URL(request.url).search}`, 303);
  if (formData.get("intent") === "stock") {
    const submission = parseForm(MerchStockSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { merchId, stock } = submission.value;
    const { data, error } = await context.get(supabaseContext).from("merch").update({ stock }).eq("id", merchId).select("id");
    if (error) return refusedWrite(error, { what: "changing a merch item's stock", values: submission.values, field: "stock" });
    if (data.length === 0) return replyWith(formError("This item is not yours to change.", submission.values), 404);
    throw back();
  }
  const submission = parseForm(RetryStreamSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const refused = await retryStream(context, submission.value.trackId, submission.values);
  if (refused) return refused;
  throw back();
}

export default function YourTracks({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, page, pages, tracks, track_count: trackCount, release_sales: releaseSales, merch, currency } = loaderData;
  const form = formFields(actionData);
  useRefreshWhilePreparing(tracks.some((track) => track.stream_state === "preparing"));
  const pagePath = (to: number) =>
    `?${new URLSearchParams({ ...(kind === "all" ? {} : { filter: kind }), ...(to > 1 ? { page: String(to) } : {}) })}`;
  return (
    <>
      <DashboardHeader
        title="Your Tracks"
        actions={
          <>
            <LinkButton to={href("/dashboard/artist/codes")} variant="secondary">
              Download Codes
            </LinkButton>
            <LinkButton to={href("/dashboard/artist/orders")} variant="secondary">
              Merch Orders
            </LinkButton>
            <LinkButton to={href("/dashboard/artist/upload")}>Upload New Track</LinkButton>
          </>
        }
      >
        {countOf(trackCount, kind === "album" ? "album track" : kind === "single" ? "single" : "track")}, newest release first (an
        album&rsquo;s tracks in their order).
      </DashboardHeader>

      <FormAlert>{form.formError}</FormAlert>

      <PillNav
        label="Filter tracks"
        className="mb-6"
        items={filters.map((filter) => ({
          to: filter.kind === "all" ? "." : `?filter=${filter.kind}`,
          label: filter.label,
          current: filter.kind === kind,
        }))}
      />

      <section aria-labelledby="tracks-heading">
        <h2 id="tracks-heading" className="sr-only">
          Tracks
        </h2>
        {tracks.length === 0 ? (
          <EmptyState
            title={kind === "all" ? "No tracks yet" : kind === "album" ? "No album tracks yet" : "No singles yet"}
            action={<LinkButton to={href("/dashboard/artist/upload")}>Upload New Track</LinkButton>}
          >
            What you publish shows here, with its plays.
          </EmptyState>
        ) : (
          <ul className="grid gap-2">
            {tracks.map((track, index) => (
              <li key={track.id} className="flex min-w-0 items-center gap-4 rounded-2xl border border-stage-700 bg-stage-850 p-3">
                <Artwork src={track.artwork_small_url ?? track.artwork_url} alt="" className="size-14 shrink-0 rounded-lg" />
                <div className="min-w-0 flex-1">
                  <Link to={trackPath(track.id)} className="block truncate font-semibold text-ink hover:underline">
                    {track.title}
                  </Link>
                  <p className="truncate text-sm text-ink-muted">
                    {track.release.kind === "album" ? (
                      <>
                        Album track ·{" "}
                        <Link to={albumPath(track.release.id)} className="hover:text-ink hover:underline">
                          {track.release.title}
                        </Link>
                      </>
                    ) : (
                      "Single"
                    )}{" "}
                    · {formatPrice(track.price, currency)} ·{" "}
                    <time dateTime={track.release_date}>{formatDate(track.release_date, dateLocale)}</time>
                    {track.upcoming ? (
                      <>
                        {" "}
                        <Badge>Upcoming</Badge>
                      </>
                    ) : null}
                  </p>
                  {/* Its release's sales, once, on the release's first track. */}
                  {tracks[index - 1]?.release.id !== track.release.id ? (
                    <ReleaseSales sales={releaseSales[track.release.id]} kind={track.release.kind} currency={currency} />
                  ) : null}
                  <div className="mt-1">
                    <StreamStatus
                      state={track.stream_state}
                      failure={track.stream_failure}
                      trackId={track.id}
                      title={track.title}
                      action={`${yourTracks}${pagePath(page).replace(/^\?$/, "")}`}
                    />
                  </div>
                  {/* On a phone the plays go under the details; wider, in their own column. */}
                  <p className="text-sm text-ink-muted sm:hidden">{countOf(track.plays, "play")}</p>
                </div>
                <p className="hidden shrink-0 text-sm text-ink-muted sm:block">{countOf(track.plays, "play")}</p>
                {track.stream_state ? (
                  // The master as uploaded: the artist's own file, any time (not counted as a download).
                  <LinkButton
                    to={href("/track/:id/download", { id: track.id })}
                    reloadDocument
                    variant="ghost"
                    aria-label={`Download ${track.title}`}
                    className="shrink-0 px-3"
                  >
                    <Icon name="download" className="size-5" />
                  </LinkButton>
                ) : null}
                <LinkButton to={trackEditPath(track.id)} variant="secondary" aria-label={`Edit ${track.title}`} className="shrink-0">
                  Edit
                </LinkButton>
              </li>
            ))}
          </ul>
        )}
        {pages > 1 ? (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-center gap-3 text-sm">
            {page > 1 ? <Link to={pagePath(page - 1)}>Previous</Link> : null}
            <span className="text-ink-muted">
              Page {page} of {pages}
            </span>
            {page < pages ? <Link to={pagePath(page + 1)}>Next</Link> : null}
          </nav>
        ) : null}
      </section>

      {kind === "all" ? (
        <section aria-labelledby="merch-heading" className="mt-12">
          <h2 id="merch-heading" className="mb-4 text-2xl font-bold">
            Merchandise
          </h2>
          {merch.length === 0 ? (
            <p className="text-ink-muted">
              No merchandise yet. <Link to={`${href("/dashboard/artist/upload")}?type=merch`}>Add merchandise</Link>
            </p>
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
              {merch.map((item) => (
                <li key={item.id} className="rounded-2xl border border-stage-700 bg-stage-850 p-3">
                  <Artwork src={item.image_small_url ?? item.image_url} alt="" className="aspect-square w-full rounded-lg" />
                  <p className="mt-2 truncate font-semibold text-ink">{item.title}</p>
                  <p className="text-sm text-ink-muted">
                    {formatPrice(item.price, currency)} · {countOf(item.sales, "sale")} · {formatPrice(item.revenue, currency)} earned
                  </p>
                  <MerchStock item={item} reply={actionData?.values.merchId === item.id ? actionData : undefined} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </>
  );
}

/** A release's sales and what the artist earned from them (the ledger's figures). */
function ReleaseSales({
  sales,
  kind,
  currency,
}: {
  sales: { sales: number; revenue: number } | undefined;
  kind: string;
  currency: string;
}) {
  if (!sales) return null;
  return (
    <p className="text-sm text-ink-muted">
      {kind === "album" ? "Album: " : ""}
      {countOf(sales.sales, "sale")} · {formatPrice(sales.revenue, currency)} earned
    </p>
  );
}

/** A merch item's stock: what is left to sell, and the count to change (empty: no count kept). */
function MerchStock({ item, reply }: { item: StudioCatalog["merch"][number]; reply: FormReply | undefined }) {
  const form = formFields(reply);
  return (
    <Form method="post" className="mt-2 grid gap-2">
      <input type="hidden" name="intent" value="stock" />
      <input type="hidden" name="merchId" value={item.id} />
      <p className="text-sm text-ink-muted">
        {item.units_left === null ? "No stock count" : item.units_left === 0 ? "Sold out" : `${formatCount(item.units_left)} left to sell`}
      </p>
      <Field
        label={
          <>
            Stock<span className="sr-only"> of {item.title}</span>
          </>
        }
        name="stock"
        inputMode="numeric"
        defaultValue={reply ? form.text("stock") : (item.stock?.toString() ?? "")}
        error={form.error("stock")}
      />
      <Button type="submit" size="sm" variant="secondary">
        Save stock<span className="sr-only"> of {item.title}</span>
      </Button>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
