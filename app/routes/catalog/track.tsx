import { Suspense, useRef, type ReactNode } from "react";
import { Await, data, href, Link, redirect } from "react-router";
import { DownloadLinks } from "~/components/catalog/download-links";
import { ReleaseHeader } from "~/components/catalog/release-header";
import { ShareMenu } from "~/components/catalog/share-menu";
import { notFoundBoundary } from "~/components/error-boundary";
import { Comments } from "~/components/track/comments";
import { LikeButton } from "~/components/track/like-button";
import { BuyNowButton, PurchaseDialog } from "~/components/track/purchase-dialog";
import { WaveformPlayer } from "~/components/track/waveform-player";
import { TrackMenu } from "~/components/player/track-menu";
import { queueTrack, type AudioSource } from "~/lib/player";
import type { DialogHandle } from "~/components/ui/dialog";
import { notFound, read, readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { albumPath, artistPath, isUuid, trackPath } from "~/lib/catalog/catalog";
import { commentsPageSize } from "~/lib/constants";
import { forgetCached, keepOutOfCache, tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { formatDate, formatPrice, genreLabel, requestLocale } from "~/lib/format";
import { formError, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireUser } from "~/lib/session/guards.server";
import { publicPageHeaders, uncached } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { recordingData } from "~/lib/sharing/structured-data.server";
import { sharing } from "~/lib/sharing/embedding.server";
import { imageSizeOf } from "~/lib/media/image-size";
import { downloadChoices, downloadFormats } from "~/lib/media/downloads";
import { revalidateUnlessOnlyBuyChanged, useBuyParam } from "~/lib/catalog/buy-param";
import { AlsoBoughtSchema, SupportedBySchema, TrackCommentsSchema, TrackPageSchema, type TrackPage } from "~/lib/schemas/catalog-data";
import { AlsoBought } from "~/components/catalog/release-cards";
import { CommentSchema, DeleteCommentSchema } from "~/lib/schemas/comments";
import { supabaseContext, userContext } from "~/lib/session/session.server";
import { trackAudioSource } from "./track-audio.server";
import { useOptionalUser } from "~/lib/session/use-user";
import { onDemand } from "~/lib/ui/on-demand";
import type { Route } from "./+types/track";
import { sqlState } from "~/lib/backend/sqlstate";

const trackColumns =
  "id, title, master_format, mp3_kbps, track_number, genre, subgenre, price, allow_pay_more, description, label, release_date, artwork_url, artwork_width, artwork_height, peaks, duration_seconds, " +
  "release:releases(id, kind, title, track_count), artist:artist_profiles(id, artist_name, profile_image_url, currency)";
const commentColumns =
  "id, user_id, content, created_at, author_name, author_image_url, author_kind, reply_to_user_id, reply_to_name, reply_to_kind";
/** However far "Show more" is followed, one page never lists more than this many comments. */
const maxCommentsShown = 500;

const loadWishlistButton = () => import("~/components/catalog/wishlist-button");
const loadSupportedBy = () => import("~/components/catalog/supported-by");

// A single's "Add to wishlist" and "Supported by": the server renders them at once (they work without
// JavaScript), and the browser fetches their code after the page's own, which has no room for them in its
// budget.
const WishlistButton = import.meta.env.SSR
  ? (await loadWishlistButton()).WishlistButton
  : onDemand(
      async () => (await loadWishlistButton()).WishlistButton,
      () => window.location.href,
    );
const SupportedBy = import.meta.env.SSR
  ? (await loadSupportedBy()).SupportedBy
  : onDemand(
      async () => (await loadSupportedBy()).SupportedBy,
      () => window.location.href,
    );

const trackNotFound = () => notFound("Track not found");

/** How many comments to show: the first page, or as many pages as "Show more" asked for (`?comments=`). */
function commentsShown(url: URL): number {
  const asked = Number.parseInt(url.searchParams.get("comments") ?? "", 10);
  if (!Number.isFinite(asked) || asked <= commentsPageSize) return commentsPageSize;
  return Math.min(Math.ceil(asked / commentsPageSize) * commentsPageSize, maxCommentsShown);
}

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData?.meta ?? pageMeta("Track not found", "This track does not exist or is not released yet.");

// A visitor's page comes from the edge cache for up to a minute (its audio URL lasts an hour); a
// comment posted or deleted here drops it at once. A page whose audio URL could not be had is not kept.
export const headers = publicPageHeaders;

/**
 * The track and its comments are read side by side (one round trip) before the first byte; its audio URL
 * (an Edge Function, a second hop) is not needed for the first paint, so it streams in after it
 * (deferred data: the player waits for it, the page does not).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw trackNotFound();
  const supabase = context.get(supabaseContext);
  const shown = commentsShown(new URL(request.url));
  const user = context.get(userContext);
  const audio = trackAudioSource(supabase, params.id).then((source): AudioSource => {
    if (!("error" in source)) return source;
    keepOutOfCache(context);
    return { error: source.error };
  });
  const [track, comments, like, bought, alsoBought, supporters, wished] = await Promise.all([
    supabase.from("tracks").select(trackColumns).eq("id", params.id).maybeSingle(),
    supabase
      .from("track_comments")
      .select(commentColumns, { count: "exact" })
      .eq("track_id", params.id)
      .order("created_at", { ascending: false })
      .order("id")
      .range(0, shown - 1),
    // The reader's own like (row-level security), beside the rest: still one round trip.
    user ? supabase.from("likes").select("track_id").eq("track_id", params.id).maybeSingle() : null,
    // Whether the reader bought it (then they download it rather than buy it).
    user ? supabase.from("purchases").select("id").eq("track_id", params.id).eq("user_id", user.id).limit(1).maybeSingle() : null,
    // What its release's buyers bought besides it.
    supabase.rpc("also_bought", { track_id: params.id }),
    // The fans who bought it or its release.
    supabase.rpc("supported_by", { track_id: params.id }),
    // Whether its release is on the reader's wishlist (a single's page offers it).
    user?.role === "fan"
      ? supabase.from("tracks").select("release:releases(wishlist(release_id))").eq("id", params.id).maybeSingle()
      : null,
  ]);
  const supported = read(supporters, { what: "track's supporters", schema: SupportedBySchema });
  const others = read(alsoBought, { what: "track's also bought", schema: AlsoBoughtSchema });
  // The comments have their own error box: the track still plays when only they failed.
  const shownComments = read(comments, { what: "track's comments", schema: TrackCommentsSchema });
  // a page missing its comments must not be kept for the next visitors
  const complete = shownComments.status !== "failed";
  const found = readOrThrow(track, { what: "track", schema: TrackPageSchema, notFound: "Track not found" });
  tagCachedAnswer(context, `track:${found.id}`, `user:${found.artist.id}`);
  const origin = new URL(request.url).origin;
  const title = `${found.title} by ${found.artist.artist_name}`;
  const share = sharing(origin, trackPath(found.id), title, [
    { label: "Embed code", kind: "track", id: found.id },
    ...(found.release.kind === "album"
      ? [
          {
            label: `Embed code for ${found.release.title}`,
            kind: "album" as const,
            id: found.release.id,
            title: `${found.release.title} by ${found.artist.artist_name}`,
            trackCount: found.release.track_count,
          },
        ]
      : []),
  ]);
  return data(
    {
      track: found,
      share,
      // For link previews and search engines, made here so the page carries no builder.
      meta: sharedPageMeta(title, found.description ?? `Listen to and buy ${found.title}.`, {
        origin,
        path: trackPath(found.id),
        type: "music.song",
        image: found.artwork_url,
        imageSize: imageSizeOf(found.artwork_width, found.artwork_height),
        embed: { ...share.player, card: true },
        structuredData: recordingData(origin, found),
      }),
      comments: shownComments.status === "found" ? shownComments.data : [],
      alsoBought: others.status === "found" ? others.data : [],
      supportedBy: supported.status === "found" ? supported.data : { fans: [], more: 0 },
      // Row-level security: the reader's own wishlist alone.
      wishlisted: (wished?.data?.release?.wishlist.length ?? 0) > 0,
      commentCount: comments.count ?? 0,
      commentsError: shownComments.status === "failed" ? shownComments.message : null,
      audio,
      liked: Boolean(like?.data),
      owned: Boolean(bought?.data),
      formats: downloadFormats([{ format: found.master_format, mp3_kbps: found.mp3_kbps }]),
      // What its owner downloads it in (named here, so the page carries no registry of formats).
      downloads: bought?.data ? downloadChoices([{ format: found.master_format, mp3_kbps: found.mp3_kbps }]) : [],
      locale: requestLocale(request),
      // Time-ago labels are computed against the server's clock on both sides, so hydration agrees.
      now: Date.now(),
    },
    complete ? undefined : { headers: uncached },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw trackNotFound();
  const user = requireUser(request, context);
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request);
  const backToComments = redirect(`${trackPath(params.id)}#comments`);

  if (formData.get("intent") === "delete-comment") {
    const submission = parseForm(DeleteCommentSchema, formData);
    if (!submission.success) return replyWith(formError(submission.reply.fieldErrors.commentId ?? "This comment no longer exists"), 400);
    // Row-level security deletes only the reader's own comment; nothing deleted means it was not theirs.
    const { data: deleted, error } = await supabase.from("comments").delete().eq("id", submission.value.commentId).select("id");
    if (error) return refusedWrite(error, { what: "deleting a comment" });
    if (deleted.length === 0) return replyWith(formError("You can only delete your own comments"), 403);
    await forgetCached(request, context, [`track:${params.id}`]);
    throw backToComments;
  }

  const submission = parseForm(CommentSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { content, replyTo } = submission.value;
  const { error } = await supabase.from("comments").insert({ content, track_id: params.id, user_id: user.id, reply_to: replyTo ?? null });
  if (error?.code === sqlState.limitReached) {
    return replyWith(
      {
        fieldErrors: { content: "You are commenting too fast. Please wait a minute and try again." },
        formError: null,
        values: submission.values,
      },
      429,
    );
  }
  if (error) {
    return refusedWrite(error, {
      what: "posting a comment",
      values: submission.values,
      fields: { content: "content", reply_to: "content" },
    });
  }
  await forgetCached(request, context, [`track:${params.id}`]);
  throw backToComments;
}

export const shouldRevalidate = revalidateUnlessOnlyBuyChanged;

const kindLabels: Record<TrackPage["release"]["kind"], string> = { single: "Single", album: "Album track" };

export default function TrackPage({ loaderData, actionData }: Route.ComponentProps) {
  const { track, comments, commentCount, commentsError, audio, liked, owned, locale, now } = loaderData;
  const { buying, closePurchase } = useBuyParam();
  const purchaseDialog = useRef<DialogHandle>(null);
  const user = useOptionalUser();
  const path = trackPath(track.id);
  const artworkUrl = track.artwork_url ?? "/fallback-artwork.svg";
  const buyLabel = `Buy Now - ${formatPrice(track.price, track.artist.currency)}`;
  const queued = queueTrack({ ...track, album_title: track.release.kind === "album" ? track.release.title : null });
  const player = { track: queued, peaks: track.peaks, duration: track.duration_seconds };

  return (
    <article>
      <ReleaseHeader
        artworkUrl={artworkUrl}
        kind={kindLabels[track.release.kind]}
        title={track.title}
        byline={
          <Link to={artistPath(track.artist.id)} className="group mt-4 inline-flex items-center gap-3 rounded-full pr-3">
            <img
              src={track.artist.profile_image_url ?? "/fallback-avatar.svg"}
              alt=""
              width={36}
              height={36}
              className="size-9 rounded-full bg-stage-800 object-cover"
            />
            <span className="font-semibold text-ink group-hover:text-accent-strong">{track.artist.artist_name}</span>
          </Link>
        }
      >
        {owned ? (
          <div className="w-full">
            <p className="font-semibold text-accent-strong">You own this</p>
            <DownloadLinks
              path={href("/track/:id/download", { id: track.id })}
              title={track.title}
              album={false}
              choices={loaderData.downloads}
            />
          </div>
        ) : (
          <BuyNowButton label={buyLabel} path={path} dialog={purchaseDialog} />
        )}
        <LikeButton trackId={track.id} liked={liked} title={track.title} />
        {track.release.kind === "single" && !owned ? (
          <Suspense>
            <WishlistButton releaseId={track.release.id} trackId={track.id} wishlisted={loaderData.wishlisted} title={track.title} />
          </Suspense>
        ) : null}
        <ShareMenu title={`${track.title} by ${track.artist.artist_name}`} share={loaderData.share} />
        <TrackMenu track={queued} />
      </ReleaseHeader>

      <div className="mt-6">
        {/* The player shows at once (waveform, controls waiting) and starts working when the URL arrives. */}
        <Suspense fallback={<WaveformPlayer key={track.id} {...player} source={null} />}>
          <Await resolve={audio}>{(source) => <WaveformPlayer key={track.id} {...player} source={source} />}</Await>
        </Suspense>
      </div>

      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div>
          {track.description ? (
            <section aria-labelledby="about-track">
              <h2 id="about-track" className="text-xl font-semibold">
                About this track
              </h2>
              <p className="mt-2 leading-7 whitespace-pre-line text-ink-muted">{track.description}</p>
            </section>
          ) : null}
          <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Tile term="Genre" value={genreLabel(track.genre)} />
            {track.subgenre ? <Tile term="Subgenre" value={track.subgenre} /> : null}
            <Tile term="Release Date" value={<time dateTime={track.release_date}>{formatDate(track.release_date, locale)}</time>} />
            {track.label ? <Tile term="Label" value={track.label} /> : null}
          </dl>
        </div>
        {track.release.kind === "album" ? (
          // Boxed as the tiles beside it are (and without a card of its own, which this page's JavaScript
          // budget has no room for).
          <section className="self-start rounded-2xl border border-stage-700 bg-stage-850 px-4 py-3">
            <h2 className="text-sm font-semibold tracking-wider text-ink-faint uppercase">From the album</h2>
            <Link to={albumPath(track.release.id)} className="mt-2 block text-xl font-semibold text-ink hover:underline">
              {track.release.title}
            </Link>
            {track.track_number ? <p className="mt-1 text-ink-muted">Track {track.track_number}</p> : null}
          </section>
        ) : null}
      </div>

      {loaderData.supportedBy.fans.length > 0 ? (
        <Suspense>
          <SupportedBy supporters={loaderData.supportedBy} />
        </Suspense>
      ) : null}
      <AlsoBought releases={loaderData.alsoBought} />

      {commentsError ? (
        <p role="alert" className="mt-12 rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-danger">
          {commentsError}
        </p>
      ) : (
        <Comments trackPath={path} comments={comments} total={commentCount} now={now} user={user} result={actionData} />
      )}

      <PurchaseDialog
        ref={purchaseDialog}
        open={buying === "1"}
        onClose={closePurchase}
        title={track.title}
        artistName={track.artist.artist_name}
        artworkUrl={artworkUrl}
        price={track.price}
        currency={track.artist.currency}
        formats={loaderData.formats}
        item={{ kind: "track", id: track.id, allowPayMore: track.allow_pay_more }}
      />
    </article>
  );
}

function Tile({ term, value }: { term: string; value: ReactNode }) {
  return (
    <div className="rounded-2xl border border-stage-700 bg-stage-850 px-4 py-3">
      <dt className="text-xs font-semibold tracking-wider text-ink-faint uppercase">{term}</dt>
      {/* Wraps rather than cuts: a long date or label is read whole at every width. */}
      <dd className="mt-1 font-medium break-words text-ink">{value}</dd>
    </div>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Track not found",
  reason: "This track does not exist, or it has not been released yet.",
  links: [{ to: href("/discover"), label: "Discover artists" }],
});
