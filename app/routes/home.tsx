import { Link } from "react-router";
import { LinkButton } from "~/components/ui/button";
import { brandName } from "~/components/layout/nav-items";
import { artistShare, genres } from "~/lib/constants";
import { pageMeta } from "~/lib/meta";

export const meta = () =>
  pageMeta(
    brandName,
    `Discover independent artists across ${genres.length} genres, listen, follow and buy straight from them. Artists keep ${artistShare.digitalPercent}% of digital sales.`,
  );

export default function Home() {
  return (
    <section className="relative overflow-hidden rounded-3xl border border-stage-700 bg-gradient-to-br from-stage-800 via-stage-900 to-stage-950 px-6 py-14 sm:px-12 sm:py-20">
      <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-80 rounded-full bg-accent/25 blur-3xl" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-32 left-1/3 size-72 rounded-full bg-amber/15 blur-3xl" />
      <div className="relative max-w-2xl">
        <p className="text-sm font-semibold tracking-wider text-accent uppercase">Independent music marketplace</p>
        <h1 className="mt-3 text-4xl font-bold text-balance sm:text-6xl">Dig deeper. Pay the artist.</h1>
        <p className="mt-5 text-lg text-ink-muted">
          Find new music from independent artists, follow them, listen and buy straight from the source. Artists keep{" "}
          {artistShare.digitalPercent}% of every digital sale.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <LinkButton to="/discover" size="lg">
            Start Digging
          </LinkButton>
          <LinkButton to="/register" size="lg" variant="secondary">
            Sell your music
          </LinkButton>
        </div>
      </div>
      <ul aria-label="Genres" className="relative mt-12 flex flex-wrap gap-2">
        {genres.map((genre) => (
          <li key={genre}>
            <Link
              to={`/genres/${encodeURIComponent(genre)}`}
              className="inline-flex rounded-full border border-stage-600 bg-stage-900/60 px-3 py-1 text-sm text-ink-muted hover:border-accent hover:text-ink"
            >
              {genre}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
