import { href, Link, redirect } from "react-router";
import { Artwork, ProfileImage } from "~/components/catalog/artist-image";
import { FollowButton, useFollow } from "~/components/catalog/follow-button";
import { ShareMenu } from "~/components/catalog/share-menu";
import { ArtistNewsletterForm } from "~/components/catalog/artist-newsletter-form";
import { newsletterCheckInbox } from "~/lib/constants";
import { GenreList } from "~/components/catalog/genre-list";
import { notFoundBoundary } from "~/components/error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { albumPath, artistPath, countOf, fanPath, isUuid, trackPath } from "~/lib/catalog/catalog";
import { safeHttpUrl, socialProfile } from "~/lib/catalog/artist-profile";
import { formatDate, formatDuration, formatPrice } from "~/lib/format";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { publicPageHeaders, uncached } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { artistData } from "~/lib/sharing/structured-data.server";
import { artistEmbedTracks, sharing } from "~/lib/sharing/embedding.server";
import { imageSizeOf } from "~/lib/media/image-size";
import type { Sharing } from "~/lib/sharing/sharing";
import { pageCount, pageFrom } from "~/lib/ui/paging";
import { Pagination } from "~/components/ui/pagination";
import { revalidateUnlessOnlyBuyChanged, useBuyParam } from "~/lib/catalog/buy-param";
import { ArtistPageSchema, type ArtistMerch, type ArtistRelease } from "~/lib/schemas/catalog-data";
import { PurchaseDialog } from "~/components/track/purchase-dialog";
import { LinkButton } from "~/components/ui/button";
import { notFound, readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { readForm } from "~/lib/forms/form-body.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { formError, parseForm, replyWith } from "~/lib/forms/forms";
import { NewsletterSchema } from "~/lib/schemas/catalog";
import { JoinTierSchema } from "~/lib/schemas/memberships";
import { applyJoinedCheckout, openMembershipCheckout } from "~/lib/orders/memberships.server";
import { requireUser } from "~/lib/session/guards.server";
import { supabaseContext, userContext, vouchedClient } from "~/lib/session/session.server";
import { MembershipSection } from "~/components/catalog/membership-section";
import { cloudflareContext, clientAddress } from "~/lib/http/context.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { useOptionalUser } from "~/lib/session/use-user";
import { brandName } from "~/lib/constants";
import { feedLinks } from "~/lib/sharing/feeds.server";
import type { Route } from "./+types/artist";
import { Icon } from "~/components/ui/icon";
import { PlayAllButton, PlayFromButton } from "~/components/player/play-button";
import { TrackMenu } from "~/components/player/track-menu";
import { player, type QueueTrack } from "~/lib/player";

/** Followers listed by name on the page (spec section 9). */
const latestFollowersShown = 5;
/** Release cards per page of an artist's releases (an album is one card, never split across pages). */
const releasesPerPage = 24;
// Public pages are cached for everyone, so dates are written one way for all readers.
const dateLocale = "en-US";

export const meta = ({ loaderData }: Route.MetaArgs) => loaderData?.meta ?? pageMeta("Artist not found", "This artist does not exist.");

export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw notFound("Artist not found");
  const page = pageFrom(new URL(request.url));
  // Back from a membership's checkout: its first period taken now, when the webhook has not brought it yet.
  const joined = new URL(request.url).searchParams.get("session_id");
  const user = context.get(userContext);
  if (joined && user) await applyJoinedCheckout(context, joined, user.id);
  const artist = readOrThrow(
    await context.get(supabaseContext).rpc("artist_page", { artist_id: params.id, release_page: page, release_page_size: releasesPerPage }),
    { what: "artist page", schema: ArtistPageSchema, notFound: "Artist not found" },
  );
  tagCachedAnswer(context, `user:${artist.id}`);
  const origin = new URL(request.url).origin;
  const share = sharing(origin, artistPath(artist.id), artist.artist_name, [
    { label: "Embed code (latest releases)", kind: "artist", id: artist.id, trackCount: artistEmbedTracks },
  ]);
  return {
    artist,
    page,
    pages: pageCount(artist.release_count, releasesPerPage),
    share,
    // For link previews and search engines, made here so the page carries no builder.
    meta: [
      ...sharedPageMeta(
        artist.artist_name,
        artist.short_description ?? `${artist.artist_name} on the marketplace: releases, shows and followers.`,
        {
          origin,
          path: artistPath(artist.id),
          type: "profile",
          // Without a picture, the artist shows as their latest release's cover.
          image: artist.profile_image_url ?? artist.releases.find((release) => !release.upcoming && release.artwork_url)?.artwork_url,
          imageSize: artist.profile_image_url ? imageSizeOf(artist.profile_image_width, artist.profile_image_height) : null,
          embed: share.player,
          structuredData: artistData(origin, artist),
        },
      ),
      // Feed readers find the artist's feeds here.
      ...feedLinks(artistPath(artist.id), `${artist.artist_name} on ${brandName}`),
    ],
    // Each released album's Share: its page, and its player.
    albumShares: Object.fromEntries(
      artist.releases
        .filter((release) => release.kind === "album" && !release.upcoming)
        .map((album) => [
          album.id,
          sharing(origin, albumPath(album.id), `${album.title} by ${artist.artist_name}`, [
            { label: "Embed code", kind: "album", id: album.id, trackCount: album.track_count },
          ]),
        ]),
    ),
  };
}

/** What the newsletter form says beside the address when a limit is reached (the database's hint says which). */
const tooManySignups = {
  address: "This address was signed up several times today. Check its inbox for the confirmation email, or try again tomorrow.",
  client: "Too many signups from your connection. Please try again in an hour.",
};

/**
 * The artist's newsletter form: the address is listed pending and sent a confirmation mail (anyone may sign
 * up, within the database's limits; only the address's inbox confirms), through the marketplace, which
 * says which client asked. The answer is the same for an address subscribed already, which is sent nothing.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw notFound("Artist not found");
  const form = await readForm(request);
  if (form.get("intent") === "join") return join(request, context, params.id, form);
  const submission = parseForm(NewsletterSchema, form);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { data: mail, error } = await vouchedClient(context).rpc("newsletter_signup", {
    artist_id: params.id,
    email: submission.value.email,
    client: clientAddress(request) ?? undefined,
  });
  if (error?.code === sqlState.noDataFound) {
    return replyWith({ fieldErrors: { email: "This artist is not taking signups." }, formError: null, values: submission.values }, 404);
  }
  if (error?.code === sqlState.limitReached) {
    const message = error.hint === "address" ? tooManySignups.address : tooManySignups.client;
    return replyWith({ fieldErrors: { email: message }, formError: null, values: submission.values }, 429);
  }
  if (error) return refusedWrite(error, { what: "newsletter signup", values: submission.values, field: "email" });
  if (mail) {
    try {
      await queueMails(context.get(cloudflareContext).env.MAIL, [mail]);
    } catch (queueing) {
      console.error("queueing a newsletter confirmation failed", queueing);
      return replyWith(formError("The confirmation email could not be sent. Please try again in a moment.", submission.values), 503);
    }
  }
  return replyWith({ fieldErrors: {}, formError: null, values: {}, notice: newsletterCheckInbox }, 200);
}

/**
 * A tier's Join: a visitor is sent to log in first (and back here); a fan is sent on to the payment page.
 */
async function join(request: Request, context: Route.ActionArgs["context"], artistId: string, form: FormData) {
  const user = requireUser(request, context);
  const submission = parseForm(JoinTierSchema, form);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { tierId, interval, amount } = submission.value;
  const opened = await openMembershipCheckout(request, context, user, artistId, { tierId, interval, amount });
  if ("refused" in opened) return replyWith(opened.refused, opened.status);
  throw redirect(opened.pay, { status: 303, headers: uncached });
}

export default function Artist({ loaderData, actionData }: Route.ComponentProps) {
  const { artist, page, pages } = loaderData;
  const user = useOptionalUser();
  const follow = useFollow(artist.id, artist.is_following, artist.follower_count);
  const website = safeHttpUrl(artist.website);
  const socials = [socialProfile("twitter", artist.social_links.twitter), socialProfile("instagram", artist.social_links.instagram)].filter(
    (link) => link !== null,
  );
  const { releases } = artist;
  const artistName = { id: artist.id, artist_name: artist.artist_name };
  // Play All: the released tracks of this page, release by release.
  const released = releases.flatMap((release) =>
    release.upcoming ? [] : release.tracks.map((track) => releaseQueueTrack(release, track, artistName)),
  );
  const moreFollowers = follow.followerCount - artist.latest_followers.length;
  // The action answers the form that was sent: a tier's Join, or the newsletter's.
  const joinReply = actionData?.values.intent === "join" ? actionData : undefined;
  const newsletterReply = joinReply ? undefined : actionData;

  return (
    <article>
      <header className="relative rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 via-stage-900 to-stage-950 p-5 sm:p-8">
        {/* The glow is clipped to the card on its own, so the Share menu may reach past the card. */}
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden rounded-3xl">
          <div className="absolute -top-24 -right-24 size-80 rounded-full bg-accent/20 blur-3xl" />
        </div>
        <div className="relative flex flex-col gap-6 sm:flex-row sm:items-end">
          <ProfileImage
            name={artist.artist_name}
            src={artist.profile_image_url}
            alt={artist.artist_name}
            eager
            className="size-36 shrink-0 rounded-2xl shadow-2xl shadow-black/50 sm:size-48"
            initialClassName="text-7xl"
          />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-semibold tracking-wider text-accent uppercase">Artist</p>
            <h1 className="mt-1 text-4xl font-bold text-balance break-words sm:text-5xl">{artist.artist_name}</h1>
            {artist.short_description ? <p className="mt-3 max-w-2xl text-lg text-ink-muted">{artist.short_description}</p> : null}
            <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-3">
              <p className="text-sm font-semibold text-ink" aria-live="polite">
                {countOf(follow.followerCount, "follower")}
              </p>
              <GenreList genres={artist.genres} />
            </div>
          </div>
          <div className="flex shrink-0 flex-wrap items-center gap-3">
            {user?.id !== artist.id ? <FollowButton follow={follow} artistName={artist.artist_name} size="lg" /> : null}
            <ShareMenu title={artist.artist_name} share={loaderData.share} align="end" />
          </div>
        </div>
      </header>

      <div className="mt-10 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0">
          <section aria-labelledby="releases">
            <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
              <h2 id="releases" className="text-2xl font-bold">
                Releases
              </h2>
              <PlayAllButton tracks={released} />
            </div>
            {artist.release_count === 0 ? (
              <EmptyState title="No releases yet">New music from {artist.artist_name} will show up here.</EmptyState>
            ) : releases.length === 0 ? (
              <EmptyState
                title="No releases on this page"
                action={
                  <LinkButton to={artistPath(artist.id)} variant="secondary">
                    Newest releases
                  </LinkButton>
                }
              >
                {artist.artist_name} has {countOf(artist.release_count, "release")}, fewer than this page would start at.
              </EmptyState>
            ) : (
              <ul className="grid grid-cols-1 gap-4">
                {releases.map((release) => (
                  <li key={`${release.kind}-${release.title}-${release.tracks[0].id}`}>
                    <ReleaseCard release={release} artist={artistName} share={loaderData.albumShares[release.id]} />
                  </li>
                ))}
              </ul>
            )}
            {page <= pages ? <Pagination path={artistPath(artist.id)} page={page} pages={pages} /> : null}
          </section>

          {artist.merch.length > 0 ? (
            <MerchSection merch={artist.merch} artistName={artist.artist_name} currency={artist.currency} />
          ) : null}

          {artist.bio ? (
            <section aria-labelledby="about" className="mt-10">
              <h2 id="about" className="mb-3 text-2xl font-bold">
                About
              </h2>
              <p className="leading-7 whitespace-pre-line text-ink-muted">{artist.bio}</p>
            </section>
          ) : null}
        </div>

        <aside className="grid grid-cols-1 content-start gap-8">
          {artist.membership_tiers.length > 0 || artist.membership ? (
            <MembershipSection
              artistId={artist.id}
              tiers={artist.membership_tiers}
              membership={artist.membership}
              mayJoin={!user || (user.role === "fan" && !user.isAdmin)}
              reply={joinReply}
            />
          ) : null}
          {user?.id !== artist.id ? (
            <ArtistNewsletterForm artistId={artist.id} artistName={artist.artist_name} reply={newsletterReply} />
          ) : null}
          <section aria-labelledby="followers">
            <h2 id="followers" className="mb-3 text-lg font-bold">
              Followers
            </h2>
            {artist.latest_followers.length === 0 ? (
              <p className="text-sm text-ink-muted">No followers yet. Be the first.</p>
            ) : (
              <>
                <ul className="grid grid-cols-1 gap-2">
                  {artist.latest_followers.slice(0, latestFollowersShown).map((follower) => (
                    <li key={follower.id}>
                      <Link
                        to={follower.is_fan ? fanPath(follower.id) : artistPath(follower.id)}
                        className="flex items-center gap-3 rounded-xl p-1.5 hover:bg-stage-800"
                      >
                        <ProfileImage
                          name={follower.display_name}
                          src={follower.profile_image_url}
                          className="size-9 rounded-full"
                          initialClassName="text-sm"
                        />
                        <span className="truncate text-sm font-medium text-ink">{follower.display_name}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
                {moreFollowers > 0 ? <p className="mt-2 text-sm text-ink-faint">and {countOf(moreFollowers, "more follower")}</p> : null}
              </>
            )}
          </section>

          {/* Links: the artist's own, and their releases by feed (which feed readers also find in the page's head). */}
          <section aria-labelledby="links">
            <h2 id="links" className="mb-3 text-lg font-bold">
              Links
            </h2>
            <ul className="grid gap-2 text-sm">
              {website ? (
                <li>
                  <a
                    href={website}
                    rel="noopener noreferrer nofollow"
                    target="_blank"
                    className="break-all text-accent-strong hover:text-ink hover:underline"
                  >
                    {new URL(website).host}
                    <span className="sr-only"> (website, opens in a new tab)</span>
                  </a>
                </li>
              ) : null}
              {socials.map((social) => (
                <li key={social.label}>
                  <span className="text-ink-faint">{social.label} </span>
                  <a
                    href={social.href}
                    rel="noopener noreferrer nofollow"
                    target="_blank"
                    className="text-accent-strong hover:text-ink hover:underline"
                  >
                    {social.handle}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </li>
              ))}
              <li>
                <span className="text-ink-faint">New releases by feed </span>
                <a href={`${artistPath(artist.id)}/feed.rss`} className="text-accent-strong hover:text-ink hover:underline">
                  RSS
                </a>
                <span className="text-ink-faint"> · </span>
                <a href={`${artistPath(artist.id)}/feed.atom`} className="text-accent-strong hover:text-ink hover:underline">
                  Atom
                </a>
              </li>
            </ul>
          </section>

          <section aria-labelledby="shows">
            <h2 id="shows" className="mb-3 text-lg font-bold">
              Upcoming Shows
            </h2>
            {artist.upcoming_shows.length === 0 ? (
              <p className="text-sm text-ink-muted">No shows announced.</p>
            ) : (
              <ul className="grid grid-cols-1 gap-2">
                {artist.upcoming_shows.map((show) => (
                  <li key={`${show.date}-${show.venue}`} className="rounded-xl border border-stage-700 bg-stage-850 px-3 py-2.5">
                    <p className="text-xs font-semibold tracking-wide text-amber uppercase">
                      <time dateTime={show.date}>{formatDate(show.date, dateLocale)}</time>
                    </p>
                    <p className="mt-0.5 font-semibold text-ink">{show.venue}</p>
                    <p className="text-sm text-ink-muted">{show.city}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </aside>
      </div>
    </article>
  );
}

/**
 * The artist's merchandise. Buy opens the same purchase dialog as a track's, at `?buy={id}` so it opens
 * without JavaScript too.
 */
function MerchSection({ merch, artistName, currency }: { merch: ArtistMerch[]; artistName: string; currency: string }) {
  const { buying: buyingId, purchasePath, closePurchase } = useBuyParam();
  const buying = merch.find((item) => item.id === buyingId);
  return (
    <section aria-labelledby="merch" className="mt-10">
      <h2 id="merch" className="mb-4 text-2xl font-bold">
        Merch
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {merch.map((item) => (
          <li key={item.id} className="flex flex-col rounded-2xl border border-stage-700 bg-stage-850 p-3">
            <Artwork src={item.image_small_url ?? item.image_url} alt={item.title} className="aspect-square w-full rounded-xl" />
            <p className="mt-2 font-semibold text-ink">{item.title}</p>
            <p className="text-sm text-ink-muted">
              {formatPrice(item.price, currency)}
              {item.units_left !== null && item.units_left > 0 && item.units_left <= 10 ? ` · ${item.units_left} left` : ""}
            </p>
            {item.units_left === 0 ? (
              <p className="mt-3 text-sm font-semibold text-ink-muted">Sold out</p>
            ) : (
              <LinkButton
                to={purchasePath(item.id)}
                preventScrollReset
                replace
                size="sm"
                className="mt-3"
                aria-label={`Buy ${item.title} - ${formatPrice(item.price, currency)}`}
              >
                Buy
              </LinkButton>
            )}
          </li>
        ))}
      </ul>
      <PurchaseDialog
        open={Boolean(buying)}
        onClose={closePurchase}
        title={buying?.title ?? ""}
        artistName={artistName}
        artworkUrl={buying?.image_small_url ?? buying?.image_url ?? "/fallback-artwork.svg"}
        price={buying?.price ?? 0}
        currency={currency}
        formats={null}
        item={buying ? { kind: "merch", id: buying.id, allowPayMore: buying.allow_pay_more, soldOut: buying.units_left === 0 } : null}
      />
    </section>
  );
}

export const shouldRevalidate = revalidateUnlessOnlyBuyChanged;

/** A track of a release as the queue holds it. */
function releaseQueueTrack(
  release: ArtistRelease,
  track: ArtistRelease["tracks"][number],
  artist: { id: string; artist_name: string },
): QueueTrack {
  return {
    id: track.id,
    title: track.title,
    artistId: artist.id,
    artistName: artist.artist_name,
    artworkUrl: track.artwork_small_url ?? track.artwork_url,
    ...(release.kind === "album" ? { album: release.title } : {}),
  };
}

/**
 * A single or an album: Play plays the whole release in order (without JavaScript, a link to the album's
 * page or the single's), the title leads to that page, each track has its menu (Play next, Add to queue,
 * Add to playlist).
 */
function ReleaseCard({
  release,
  artist,
  share,
}: {
  release: ArtistRelease;
  artist: { id: string; artist_name: string };
  /** An album's Share (a single's is on its track page). */
  share?: Sharing;
}) {
  const first = release.tracks[0];
  const page = release.kind === "album" ? albumPath(release.id) : trackPath(first.id);
  const queue = release.tracks.map((track) => releaseQueueTrack(release, track, artist));
  const year = release.release_date.slice(0, 4);
  return (
    // On a phone the tracklist runs the card's whole width, under the cover and the title.
    <div className="grid grid-cols-[6rem_minmax(0,1fr)] gap-x-4 rounded-2xl border border-stage-700 bg-stage-850 p-3 sm:grid-cols-[9rem_minmax(0,1fr)] sm:grid-rows-[auto_1fr] sm:p-4">
      <div className="relative self-start sm:row-span-2">
        <Artwork src={release.artwork_url} className="aspect-square w-full rounded-xl" />
        <Link
          to={page}
          onClick={(event) => {
            if (release.upcoming) return;
            event.preventDefault();
            player.playTracks(queue);
          }}
          aria-label={release.kind === "album" ? `Play ${release.title}` : `Play ${first.title}`}
          className="absolute right-1.5 bottom-1.5 grid size-10 place-items-center rounded-full bg-accent text-accent-ink shadow-lg hover:bg-accent-strong sm:right-2 sm:bottom-2 sm:size-11"
        >
          <Icon name="play" className="size-5" />
        </Link>
      </div>
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-wider text-ink-faint uppercase">
          {release.kind === "album" ? "Album" : "Single"} ·{" "}
          <time dateTime={release.release_date}>
            {release.preorder
              ? `Pre-order · out ${formatDate(release.release_date, dateLocale)}`
              : release.upcoming
                ? `Out ${formatDate(release.release_date, dateLocale)}`
                : year}
          </time>
        </p>
        <div className="mt-0.5 flex items-start justify-between gap-3">
          <h3 className="line-clamp-2 min-w-0 text-lg font-bold break-words">
            <Link to={page} className="hover:text-accent-strong">
              {release.title}
            </Link>
          </h3>
          {share ? <ShareMenu title={`${release.title} by ${artist.artist_name}`} share={share} align="end" /> : null}
        </div>
      </div>
      {/* A single is its one track: no tracklist repeating its title. */}
      {release.kind === "album" ? (
        <ol
          aria-label={`Tracks of ${release.title}`}
          className="col-span-2 mt-2 divide-y divide-stage-700 sm:col-span-1 sm:col-start-2 sm:mt-2 sm:-ml-2"
        >
          {release.tracks.map((track, index) => (
            <li key={track.id} className="flex items-center gap-1">
              {/* An album plays on from the track chosen; a single's cover plays it. */}
              {release.kind === "album" && !release.upcoming ? <PlayFromButton tracks={queue} start={index} className="size-8" /> : null}
              <Link
                to={trackPath(track.id)}
                className="flex min-w-0 flex-1 items-center gap-3 rounded-lg px-2 py-2 text-sm hover:bg-stage-800"
              >
                <span className="w-5 text-right text-ink-faint tabular-nums">{track.track_number ?? index + 1}</span>
                <span className="min-w-0 flex-1 truncate font-medium text-ink">{track.title}</span>
                <span className="hidden text-ink-faint sm:inline">{track.genre}</span>
                {track.duration_seconds ? (
                  <span className="text-ink-faint tabular-nums">{formatDuration(Number(track.duration_seconds))}</span>
                ) : null}
              </Link>
              {release.upcoming ? null : <TrackMenu track={queue[index]!} />}
            </li>
          ))}
          {release.track_count > release.tracks.length ? (
            <li className="px-2 py-2 text-sm">
              <Link to={page} className="font-semibold text-accent-strong hover:underline">
                All {release.track_count} tracks
              </Link>
            </li>
          ) : null}
        </ol>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Artist not found",
  reason: "The link may be mistyped, or the profile may have been removed.",
  links: [{ to: href("/artists"), label: "Browse artists" }],
});
