import { useRef } from "react";
import { href, Link, redirect } from "react-router";
import { DownloadLinks } from "~/components/catalog/download-links";
import { ReleaseHeader } from "~/components/catalog/release-header";
import { ShareMenu } from "~/components/catalog/share-menu";
import { notFoundBoundary } from "~/components/error-boundary";
import { PlayAllButton, PlayFromButton } from "~/components/player/play-button";
import { TrackMenu } from "~/components/player/track-menu";
import { BuyNowButton, PurchaseDialog } from "~/components/track/purchase-dialog";
import type { DialogHandle } from "~/components/ui/dialog";
import { notFound, read, readOrThrow } from "~/lib/backend/backend.server";
import { revalidateUnlessOnlyBuyChanged, useBuyParam } from "~/lib/catalog/buy-param";
import { albumPath, artistPath, countOf, isUuid, trackPath } from "~/lib/catalog/catalog";
import { formatDate, formatDuration, formatPrice, genreLabel } from "~/lib/format";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { publicPageHeaders } from "~/lib/http/http-cache";
import { downloadChoices, downloadFormats } from "~/lib/media/downloads";
import { imageSizeOf } from "~/lib/media/image-size";
import { queueTrack } from "~/lib/player";
import { AlbumPageSchema, AlsoBoughtSchema, SupportedBySchema } from "~/lib/schemas/catalog-data";
import { AlsoBought } from "~/components/catalog/release-cards";
import { SupportedBy } from "~/components/catalog/supported-by";
import { WishlistButton } from "~/components/catalog/wishlist-button";
import { supabaseContext, userContext } from "~/lib/session/session.server";
import { sharing } from "~/lib/sharing/embedding.server";
import { pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { albumData } from "~/lib/sharing/structured-data.server";
import type { Route } from "./+types/album";

// Public pages are cached for everyone, so dates are written one way for all readers.
const dateLocale = "en-US";

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData?.meta ?? pageMeta("Album not found", "This album does not exist or is not released yet.");

export const headers = publicPageHeaders;

/**
 * The album, its artist and the tracks the reader may see, in order (one read). A single's release has no
 * page of its own: its address leads to its track's.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw notFound("Album not found");
  // The masters stay here: the page states the formats they make.
  const supabase = context.get(supabaseContext);
  const user = context.get(userContext);
  // Its buyers' other purchases, the fans who support it and whether it is on the reader's wishlist beside
  // it: one round trip.
  const [page, alsoBought, supporters, wished] = await Promise.all([
    supabase.rpc("album_page", { release_id: params.id }),
    supabase.rpc("also_bought", { release_id: params.id }),
    supabase.rpc("supported_by", { release_id: params.id }),
    user?.role === "fan" ? supabase.from("wishlist").select("release_id").eq("release_id", params.id).maybeSingle() : null,
  ]);
  const { masters, ...album } = readOrThrow(page, { what: "album", schema: AlbumPageSchema, notFound: "Album not found" });
  if (album.kind === "single") throw redirect(trackPath(album.tracks[0]!.id), 301);
  // Every change to one of its tracks, or to its artist, drops the artist's tag.
  tagCachedAnswer(context, `user:${album.artist.id}`);
  const origin = new URL(request.url).origin;
  const title = `${album.title} by ${album.artist.artist_name}`;
  const share = sharing(origin, albumPath(album.id), title, [
    { label: "Embed code", kind: "album", id: album.id, trackCount: album.tracks.length },
  ]);
  const others = read(alsoBought, { what: "album's also bought", schema: AlsoBoughtSchema });
  const supported = read(supporters, { what: "album's supporters", schema: SupportedBySchema });
  return {
    album,
    alsoBought: others.status === "found" ? others.data : [],
    supportedBy: supported.status === "found" ? supported.data : { fans: [], more: 0 },
    wishlisted: Boolean(wished?.data),
    // What an owner downloads it in (named here, so the page carries no registry of formats).
    downloads: downloadChoices(masters),
    formats: downloadFormats(masters),
    share,
    // For link previews and search engines, made here so the page carries no builder.
    meta: sharedPageMeta(title, album.description ?? `Listen to and buy ${album.title}: ${countOf(album.tracks.length, "track")}.`, {
      origin,
      path: albumPath(album.id),
      type: "music.album",
      image: album.artwork_url,
      imageSize: imageSizeOf(album.artwork_width, album.artwork_height),
      embed: { ...share.player, card: true },
      structuredData: albumData(origin, album),
    }),
  };
}

export const shouldRevalidate = revalidateUnlessOnlyBuyChanged;

export default function Album({ loaderData }: Route.ComponentProps) {
  const { album, share, downloads, formats } = loaderData;
  const { buying, closePurchase } = useBuyParam();
  const purchaseDialog = useRef<DialogHandle>(null);
  const path = albumPath(album.id);
  const artworkUrl = album.artwork_url ?? "/fallback-artwork.svg";
  const buyLabel = `Buy Now - ${formatPrice(album.price, album.currency)}`;
  const queue = album.tracks.map((track) => queueTrack({ ...track, album_title: album.title, artist: album.artist }));
  // An album still to come (its artist's view) is listed, not played.
  const playable = album.upcoming ? [] : queue.filter((_, index) => !album.tracks[index]!.upcoming);
  const ownedCount = album.tracks.filter((track) => track.owned).length;

  return (
    <article>
      <ReleaseHeader
        artworkUrl={artworkUrl}
        kind="Album"
        title={album.title}
        byline={
          <p className="mt-3 text-ink-muted">
            By{" "}
            <Link to={artistPath(album.artist.id)} className="font-semibold text-ink hover:text-accent-strong hover:underline">
              {album.artist.artist_name}
            </Link>{" "}
            · {countOf(album.tracks.length, "track")}
            {album.duration_seconds ? ` · ${formatDuration(album.duration_seconds)}` : null}
          </p>
        }
      >
        {album.owned || album.own_release || ownedCount > 0 ? (
          <div className="w-full">
            <p className="font-semibold text-accent-strong">
              {album.owned ? "You own this" : album.own_release ? "Your album" : `You own ${ownedCount} of ${album.tracks.length}`}
            </p>
            {/* An album bought in part downloads the tracks bought (download_release). */}
            <DownloadLinks path={href("/album/:id/download", { id: album.id })} title={album.title} album choices={downloads} />
          </div>
        ) : null}
        {album.owned || album.own_release ? null : <BuyNowButton label={buyLabel} path={path} dialog={purchaseDialog} />}
        <PlayAllButton tracks={playable} />
        {album.owned || album.own_release ? null : (
          <WishlistButton releaseId={album.id} wishlisted={loaderData.wishlisted} title={album.title} />
        )}
        <ShareMenu title={`${album.title} by ${album.artist.artist_name}`} share={share} />
      </ReleaseHeader>

      {/* One column of the page's width on a phone, so a long title is cut, not the page widened. */}
      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="album-tracks">
          <h2 id="album-tracks" className="text-xl font-semibold">
            Tracklist
          </h2>
          <ol
            aria-label={`Tracks of ${album.title}`}
            className="mt-3 divide-y divide-stage-700 rounded-2xl border border-stage-700 bg-stage-850"
          >
            {album.tracks.map((track, index) => {
              const start = playable.indexOf(queue[index]!);
              return (
                <li key={track.id} className="flex items-center gap-3 p-2 sm:p-3">
                  <span className="w-6 text-right text-ink-faint tabular-nums">{track.track_number ?? index + 1}</span>
                  {start >= 0 ? <PlayFromButton tracks={playable} start={start} /> : null}
                  <Link
                    to={trackPath(track.id)}
                    className="min-w-0 flex-1 truncate font-semibold text-ink hover:text-accent hover:underline"
                  >
                    {track.title}
                  </Link>
                  {track.owned && !album.owned ? (
                    <span className="rounded-full bg-stage-800 px-2 py-0.5 text-xs font-semibold text-accent-strong">Owned</span>
                  ) : null}
                  {track.duration_seconds ? (
                    <span className="text-sm text-ink-faint tabular-nums">{formatDuration(track.duration_seconds)}</span>
                  ) : null}
                  {start >= 0 ? <TrackMenu track={queue[index]!} /> : null}
                </li>
              );
            })}
          </ol>
          {album.description ? (
            <>
              <h2 className="mt-8 text-xl font-semibold">About this album</h2>
              <p className="mt-2 leading-7 whitespace-pre-line text-ink-muted">{album.description}</p>
            </>
          ) : null}
        </section>
        <dl className="grid grid-cols-2 gap-3 self-start lg:grid-cols-1">
          <div className="rounded-2xl border border-stage-700 bg-stage-850 px-4 py-3">
            <dt className="text-xs font-semibold tracking-wider text-ink-faint uppercase">Release Date</dt>
            <dd className="mt-1 font-medium text-ink">
              <time dateTime={album.release_date}>{formatDate(album.release_date, dateLocale)}</time>
            </dd>
          </div>
          <div className="rounded-2xl border border-stage-700 bg-stage-850 px-4 py-3">
            <dt className="text-xs font-semibold tracking-wider text-ink-faint uppercase">Genre</dt>
            <dd className="mt-1 font-medium text-ink">{genreLabel(album.genre)}</dd>
          </div>
          {formats ? (
            <div className="rounded-2xl border border-stage-700 bg-stage-850 px-4 py-3">
              <dt className="text-xs font-semibold tracking-wider text-ink-faint uppercase">Download</dt>
              <dd className="mt-1 font-medium text-ink">{formats}</dd>
            </div>
          ) : null}
          {album.label ? (
            <div className="rounded-2xl border border-stage-700 bg-stage-850 px-4 py-3">
              <dt className="text-xs font-semibold tracking-wider text-ink-faint uppercase">Label</dt>
              <dd className="mt-1 font-medium break-words text-ink">{album.label}</dd>
            </div>
          ) : null}
        </dl>
      </div>

      <SupportedBy supporters={loaderData.supportedBy} />
      <AlsoBought releases={loaderData.alsoBought} />

      <PurchaseDialog
        ref={purchaseDialog}
        open={buying === "1"}
        onClose={closePurchase}
        title={album.title}
        artistName={album.artist.artist_name}
        artworkUrl={artworkUrl}
        price={album.price}
        currency={album.currency}
        formats={formats}
        item={album.kind === "album" ? { kind: "album", id: album.id, allowPayMore: album.allow_pay_more } : null}
      />
    </article>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Album not found",
  reason: "This album does not exist, or it has not been released yet.",
  links: [{ to: href("/discover"), label: "Discover artists" }],
});
