import { href } from "react-router";
import { ReleaseCards } from "~/components/catalog/release-cards";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { ProfileImage } from "~/components/catalog/artist-image";
import { notFoundBoundary } from "~/components/error-boundary";
import { Badge } from "~/components/ui/badge";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { notFound, readOrThrow } from "~/lib/backend/backend.server";
import { countOf, fanPath, isUuid } from "~/lib/catalog/catalog";
import { imageSizeOf } from "~/lib/media/image-size";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { fanData } from "~/lib/sharing/structured-data.server";
import { FanPageSchema, type FanShelf } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import { useOptionalUser } from "~/lib/session/use-user";
import type { Route } from "./+types/fan";

export const meta = ({ loaderData }: Route.MetaArgs) => loaderData?.meta ?? pageMeta("Fan not found", "This fan does not exist.");

export const headers = publicPageHeaders;

/** Releases a page of the collection or the wishlist shows (fan_page's bound). */
const shelfSize = 48;

/** The page of a list the address asks for (`?collection=2`): a whole number from 1, at most the backend's 1,000. */
function shelfPage(url: URL, shelf: "collection" | "wishlist"): number {
  const page = Number.parseInt(url.searchParams.get(shelf) ?? "", 10);
  return Number.isFinite(page) && page > 1 ? Math.min(page, 1000) : 1;
}

/** The fan, the artists they follow, and a page each of their collection and wishlist as the reader may see them: one read. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw notFound("Fan not found");
  const url = new URL(request.url);
  const pages = { collection: shelfPage(url, "collection"), wishlist: shelfPage(url, "wishlist") };
  const read = await context
    .get(supabaseContext)
    .rpc("fan_page", { fan_id: params.id, collection_page: pages.collection, wishlist_page: pages.wishlist });
  const fan = readOrThrow(read, {
    what: "fan page",
    schema: FanPageSchema,
    notFound: "Fan not found",
  });
  tagCachedAnswer(context, `user:${fan.id}`);
  // For link previews, made here so the page carries no builder.
  const origin = new URL(request.url).origin;
  const meta = sharedPageMeta(fan.username, `The artists ${fan.username} follows.`, {
    origin,
    path: fanPath(fan.id),
    type: "profile",
    image: fan.profile_image_url,
    imageSize: imageSizeOf(fan.profile_image_width, fan.profile_image_height),
    structuredData: fanData(origin, fan),
  });
  return { fan, pages, meta };
}

export default function Fan({ loaderData }: Route.ComponentProps) {
  const { fan, pages } = loaderData;
  const own = useOptionalUser()?.id === fan.id;
  return (
    <article>
      <header className="flex flex-col gap-5 rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 to-stage-950 p-5 sm:flex-row sm:items-center sm:p-8">
        <ProfileImage
          name={fan.username}
          src={fan.profile_image_url}
          alt={fan.username}
          eager
          className="size-28 shrink-0 rounded-full sm:size-36"
          initialClassName="text-5xl"
        />
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wider text-accent uppercase">Fan</p>
          <h1 className="mt-1 text-3xl font-bold break-words sm:text-4xl">{fan.username}</h1>
          <p className="mt-2 text-sm font-semibold text-ink">Following {countOf(fan.following.length, "artist")}</p>
          {fan.bio ? <p className="mt-3 max-w-2xl text-ink-muted">{fan.bio}</p> : null}
          {fan.favorite_genres.length > 0 ? (
            <div className="mt-4">
              <h2 className="sr-only">Favorite genres</h2>
              <ul aria-label="Favorite genres" className="flex flex-wrap gap-1.5">
                {fan.favorite_genres.map((genre) => (
                  <li key={genre}>
                    <Badge>{genre}</Badge>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </header>
      <Shelf
        id="collection"
        title="Collection"
        shelf={fan.collection}
        page={pages.collection}
        fanId={fan.id}
        empty={own ? "Nothing bought yet" : `${fan.username} has nothing in their collection yet`}
        hiddenNote={
          !fan.show_collection ? (own ? "Only you see your collection." : `${fan.username} keeps their collection private.`) : null
        }
        noteOf={(release) => (release.hidden ? "Hidden from others" : "")}
      />
      <Shelf
        id="wishlist"
        title="Wishlist"
        shelf={fan.wishlist}
        page={pages.wishlist}
        fanId={fan.id}
        empty={own ? "Nothing on your wishlist yet" : `${fan.username} has nothing on their wishlist yet`}
        hiddenNote={!fan.show_wishlist ? (own ? "Only you see your wishlist." : `${fan.username} keeps their wishlist private.`) : null}
      />
      <section aria-labelledby="following" className="mt-10">
        <h2 id="following" className="mb-4 text-2xl font-bold">
          Following
        </h2>
        {fan.following.length === 0 ? <EmptyState title="Not following anyone yet" /> : <ArtistGrid artists={fan.following} />}
      </section>
    </article>
  );
}

/**
 * The collection or the wishlist: a page of covers, newest first, each linking to its release, with Newer
 * and Older pages in the address (`?collection=2`); what the fan keeps private says so instead.
 */
function Shelf({
  id,
  title,
  shelf,
  page,
  fanId,
  empty,
  hiddenNote,
  noteOf,
}: {
  id: "collection" | "wishlist";
  title: string;
  shelf: FanShelf;
  page: number;
  fanId: string;
  empty: string;
  hiddenNote: string | null;
  noteOf?: (release: FanShelf["releases"][number]) => string;
}) {
  const pages = Math.max(1, Math.ceil(shelf.count / shelfSize));
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="mb-4 text-2xl font-bold">
        {title} {shelf.count > 0 ? <span className="text-base font-normal text-ink-muted">({shelf.count})</span> : null}
      </h2>
      {hiddenNote ? <p className="mb-4 text-sm text-ink-muted">{hiddenNote}</p> : null}
      {shelf.releases.length > 0 ? <ReleaseCards releases={shelf.releases} label={title} noteOf={noteOf} /> : null}
      {/* A page past the end shows no covers, and the way back to them below. */}
      {shelf.count === 0 && !hiddenNote ? <EmptyState title={empty} /> : null}
      <Pagination path={fanPath(fanId)} page={page} pages={pages} param={id} fragment={id} label={`Pages of the ${id}`} />
    </section>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Fan not found",
  reason: "The link may be mistyped, or the profile may have been removed.",
  links: [{ to: href("/discover"), label: "Discover artists" }],
});
