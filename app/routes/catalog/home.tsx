import { data, Form, href, Link } from "react-router";
import type * as v from "valibot";
import { ArtistCard } from "~/components/catalog/artist-card";
import { Artwork, ProfileImage } from "~/components/catalog/artist-image";
import { FollowButton, useFollow } from "~/components/catalog/follow-button";
import { NewsBanner } from "~/components/catalog/news-banner";
import { NewsletterForm } from "~/components/catalog/newsletter-form";
import { newsletterThanks } from "~/lib/constants";
import { SectionHeading } from "~/components/catalog/section-heading";
import { brandName } from "~/lib/constants";
import { Button, LinkButton } from "~/components/ui/button";
import { read } from "~/lib/backend/backend.server";
import { artistPath, countOf, genrePath, trackPath } from "~/lib/catalog/catalog";
import { artistShare, genres } from "~/lib/constants";
import { parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { publicPageHeaders, uncached } from "~/lib/http/http-cache";
import { pageMeta } from "~/lib/sharing/meta";
import { NewsletterSchema } from "~/lib/schemas/catalog";
import { HomePageSchema, type ArtistSummary } from "~/lib/schemas/catalog-data";
import { supabaseContext } from "~/lib/session/session.server";
import { useOptionalUser } from "~/lib/session/use-user";
import { websiteData } from "~/lib/sharing/structured-data.server";
import type { Route } from "./+types/home";
import { Icon } from "~/components/ui/icon";

type HomePage = v.InferOutput<typeof HomePageSchema>;

const description = `Discover independent artists across ${genres.length} genres, listen, follow and buy straight from them. Artists keep ${artistShare.digitalPercent}% of digital sales.`;

// The site's JSON-LD (WebSite, with its search) is made by the loader, so the page carries no builder.
export const meta = ({ loaderData }: Route.MetaArgs) => [
  ...pageMeta(brandName, description),
  ...(loaderData?.structuredData ? [{ "script:ld+json": loaderData.structuredData }] : []),
];

export const headers = publicPageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const home = read(await context.get(supabaseContext).rpc("home_page"), { what: "home page", schema: HomePageSchema });
  const structuredData = { "@context": "https://schema.org", ...websiteData(new URL(request.url).origin, description) };
  // The page still renders (news, newsletter), with the spec's error box and Retry; never cached.
  if (home.status !== "found") return data({ home: null, structuredData }, { headers: uncached });
  tagCachedAnswer(context, "news");
  return { home: home.data, structuredData };
}

/** The newsletter form without JavaScript: checked and thanked, and nothing kept (spec section 4). */
export async function action({ request }: Route.ActionArgs) {
  const submission = parseForm(NewsletterSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  return replyWith({ fieldErrors: {}, formError: null, values: {}, notice: newsletterThanks }, 200);
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  const { home } = loaderData;
  return (
    <>
      {home ? (
        <>
          <NewsBanner items={home.news} />
          {home.featured ? <FeaturedArtist featured={home.featured} /> : <Welcome />}
          <section aria-labelledby="new-artists" className="mt-12">
            <SectionHeading
              id="new-artists"
              title="New Artists"
              link={{ to: `${href("/discover")}?filter=new`, label: "View All", description: "View all new artists" }}
            />
            <ArtistRow artists={home.new_artists} />
          </section>
          <section aria-labelledby="popular-artists" className="mt-12">
            <SectionHeading id="popular-artists" title="Popular Artists" link={{ to: href("/discover"), label: "Start Digging" }} />
            <ArtistRow artists={home.popular_artists} />
          </section>
          {home.genres.map((genre) => (
            <GenreSection key={genre.genre} {...genre} />
          ))}
        </>
      ) : (
        <LoadError />
      )}
      <NewsletterForm key={actionData ? "replied" : "idle"} reply={actionData} />
    </>
  );
}

function FeaturedArtist({ featured }: { featured: NonNullable<HomePage["featured"]> }) {
  const { artist, track } = featured;
  const user = useOptionalUser();
  const follow = useFollow(artist.id, featured.is_following, artist.follower_count);
  const release = track.release.kind === "album" ? `${track.title} · from ${track.release.title}` : track.title;
  return (
    <section
      aria-labelledby="featured-artist"
      className="relative overflow-hidden rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 via-stage-900 to-stage-950 p-5 sm:p-8 lg:p-10"
    >
      <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-80 rounded-full bg-accent/25 blur-3xl" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-32 left-1/3 size-72 rounded-full bg-amber/15 blur-3xl" />
      <div className="relative grid items-center gap-6 md:grid-cols-[minmax(0,16rem)_1fr] lg:gap-10">
        <Link to={trackPath(track.id)} className="block max-w-64 overflow-hidden rounded-2xl shadow-2xl shadow-black/50">
          <Artwork src={track.artwork_url} alt={`Artwork of ${track.title}`} eager className="aspect-square w-full" />
        </Link>
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wider text-accent uppercase">Featured Artist</p>
          <h1 id="featured-artist" className="mt-2 text-4xl font-bold text-balance sm:text-5xl">
            {artist.artist_name}
          </h1>
          {artist.short_description ? <p className="mt-3 max-w-2xl text-lg text-ink-muted">{artist.short_description}</p> : null}
          <div className="mt-5 flex items-center gap-3">
            <ProfileImage
              name={artist.artist_name}
              src={artist.profile_image_url}
              className="size-10 rounded-full"
              initialClassName="text-base"
            />
            <p className="text-sm">
              <span className="block text-xs font-semibold tracking-wider text-amber uppercase">New Releases</span>
              <Link to={trackPath(track.id)} className="font-semibold text-ink hover:underline">
                {release}
              </Link>
              <span className="text-ink-faint"> · {countOf(follow.followerCount, "follower")}</span>
            </p>
          </div>
          <div className="mt-7 flex flex-wrap items-start gap-3">
            <LinkButton to={trackPath(track.id)} size="lg" aria-label={`Play Now: ${track.title}`}>
              <Icon name="play" className="size-5" />
              Play Now
            </LinkButton>
            {user?.id !== artist.id ? <FollowButton follow={follow} artistName={artist.artist_name} size="lg" /> : null}
            <LinkButton
              to={`${artistPath(artist.id)}#releases`}
              size="lg"
              variant="ghost"
              aria-label={`View All releases by ${artist.artist_name}`}
            >
              View All
            </LinkButton>
          </div>
        </div>
      </div>
    </section>
  );
}

/** Before any release exists, the hero welcomes instead of featuring. */
function Welcome() {
  return (
    <section className="rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 via-stage-900 to-stage-950 px-6 py-14 sm:px-12">
      <h1 className="text-4xl font-bold text-balance sm:text-5xl">Dig deeper. Pay the artist.</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-muted">
        Find new music from independent artists, follow them, listen and buy straight from the source. Artists keep{" "}
        {artistShare.digitalPercent}% of every digital sale.
      </p>
      <LinkButton to={href("/discover")} size="lg" className="mt-8">
        Start Digging
      </LinkButton>
    </section>
  );
}

// Five across on wide screens; a row that scrolls sideways on narrow ones, so all five stay in reach.
const rowClasses =
  "-mx-4 flex snap-x scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 sm:gap-4 lg:mx-0 lg:grid lg:grid-cols-5 lg:overflow-visible lg:px-0 lg:pb-0";
const rowItemClasses = "w-40 shrink-0 snap-start sm:w-48 lg:w-auto";

function ArtistRow({ artists }: { artists: ArtistSummary[] }) {
  return (
    <ul className={rowClasses}>
      {artists.map((artist) => (
        <li key={artist.id} className={rowItemClasses}>
          <ArtistCard artist={artist} showGenres={false} />
        </li>
      ))}
    </ul>
  );
}

function GenreSection({ genre, track_count, tracks }: HomePage["genres"][number]) {
  const headingId = `genre-${genre.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    // Most of the page is these sections, below the fold: the browser lays them out and fetches their
    // artwork only as they near the screen, so the first screen paints sooner. Paint containment clips
    // at the padding box, so the padding keeps the edge-to-edge rows and the focus rings whole.
    <section
      aria-labelledby={headingId}
      className="-mx-4 mt-10 -mb-2 px-4 py-2 [contain-intrinsic-size:auto_20rem] [content-visibility:auto] lg:-mx-2 lg:px-2"
    >
      <SectionHeading
        id={headingId}
        title={genre}
        detail={countOf(track_count, "track")}
        link={{ to: genrePath(genre), label: "View All", description: `View all ${genre} artists` }}
      />
      <ul className={rowClasses}>
        {tracks.map((track) => (
          <li key={track.id} className={rowItemClasses}>
            <div className="group rounded-2xl border border-stage-700 bg-stage-850 p-3 transition-colors hover:border-stage-600 hover:bg-stage-800">
              <Link to={trackPath(track.id)} className="block">
                <Artwork src={track.artwork_small_url ?? track.artwork_url} className="aspect-square w-full rounded-xl" />
                <span className="mt-3 block truncate font-semibold text-ink">{track.title}</span>
              </Link>
              <Link
                to={artistPath(track.artist_id)}
                className="mt-0.5 block truncate text-sm text-ink-muted hover:text-ink hover:underline"
              >
                {track.artist_name}
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The spec's error box when the catalog could not be read, with Retry (reloads, also without JavaScript). */
function LoadError() {
  return (
    <div role="alert" className="rounded-2xl border border-danger/40 bg-danger/10 px-6 py-8 text-center">
      <h1 className="sr-only">{brandName}</h1>
      <p className="font-semibold text-danger">Unable to load artists. Please try again later.</p>
      <Form method="get" action={href("/")} reloadDocument className="mt-4">
        <Button type="submit" variant="secondary">
          Retry
        </Button>
      </Form>
    </div>
  );
}
