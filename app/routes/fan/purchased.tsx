import { href } from "react-router";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TrackList } from "~/components/fan/track-list";
import { LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { readOrThrow } from "~/lib/backend/backend.server";
import { formatDate, formatPrice } from "~/lib/format";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { firstPageIfPastTheEnd, pageCount, pageFrom } from "~/lib/ui/paging";
import { PurchasesSchema, trackSummaryColumns } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/purchased";

export const meta = () => pageMeta("Purchased Tracks", "Everything you have bought, newest first.");

const pageSize = 50;
const dateLocale = "en-US";

/** A page of the fan's purchases, newest first (row-level security: their own only; index by buyer and date). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  const url = new URL(request.url);
  const page = pageFrom(url);
  const from = (page - 1) * pageSize;
  const read = await context
    .get(supabaseContext)
    .from("purchases")
    .select(`id, amount, created_at, track:tracks(${trackSummaryColumns})`, { count: "exact" })
    .eq("user_id", fan.id)
    .order("created_at", { ascending: false })
    .range(from, from + pageSize - 1);
  firstPageIfPastTheEnd(read.error, url);
  const purchases = readOrThrow(read, { what: "purchases", schema: PurchasesSchema });
  return { purchases, page, pages: pageCount(read.count ?? 0, pageSize) };
}

export default function PurchasedTracks({ loaderData }: Route.ComponentProps) {
  const { purchases, page, pages } = loaderData;
  const items = purchases.flatMap(({ id, amount, created_at, track }) =>
    track
      ? [
          {
            key: id,
            track,
            detail: (
              <>
                <span className="block font-semibold text-ink">{formatPrice(amount)}</span>
                <time dateTime={created_at}>{formatDate(created_at.slice(0, 10), dateLocale)}</time>
              </>
            ),
          },
        ]
      : [],
  );
  return (
    <>
      <DashboardHeader title="Purchased Tracks" kicker="Your music" dashboard={href("/dashboard/fan")}>
        What you have bought, newest first.
      </DashboardHeader>
      {items.length === 0 ? (
        <EmptyState title="No purchased tracks yet" action={<LinkButton to={href("/discover")}>Find Music</LinkButton>} />
      ) : (
        <TrackList label="Purchased tracks" items={items} />
      )}
      <Pagination path={href("/dashboard/fan/purchased")} page={page} pages={pages} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
