import { href } from "react-router";
import { LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { brandName } from "~/lib/constants";
import { artistShare, processorFeeRange } from "~/lib/constants";
import { pageMeta } from "~/lib/sharing/meta";

export const meta = () =>
  pageMeta(
    "About",
    `${brandName} is a music marketplace where independent artists sell tracks, albums and merch directly to fans and keep ${artistShare.digitalPercent}% of digital sales.`,
  );

export default function About() {
  return (
    <article className="prose-page max-w-3xl pb-8">
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">About us</p>
      <h1 className="mt-2 text-4xl font-bold text-ink sm:text-5xl">Music, straight from the people who make it</h1>
      <p className="text-lg">
        {brandName} is a marketplace and listening room for independent artists and the fans who dig for them. Artists publish and sell
        their tracks, albums and merchandise on their own terms; fans discover new sounds by genre, follow the artists they love, listen,
        comment and buy directly from them.
      </p>

      <div className="not-prose my-10 grid gap-4 sm:grid-cols-3">
        <Card>
          <p className="font-display text-4xl font-bold text-ink">{artistShare.digitalPercent}%</p>
          <p className="mt-1 text-sm text-ink-muted">of every digital sale goes to the artist</p>
        </Card>
        <Card>
          <p className="font-display text-4xl font-bold text-ink">{artistShare.physicalPercent}%</p>
          <p className="mt-1 text-sm text-ink-muted">of every physical sale (vinyl, tapes, shirts) goes to the artist</p>
        </Card>
        <Card>
          <p className="font-display text-4xl font-bold text-ink">{processorFeeRange}</p>
          <p className="mt-1 text-sm text-ink-muted">typical payment processor fees, handled separately</p>
        </Card>
      </div>

      <h2>A fair split</h2>
      <p>
        Artists keep <strong>{artistShare.digitalPercent}% of digital sales</strong> and{" "}
        <strong>{artistShare.physicalPercent}% of physical sales</strong>. The rest keeps the lights on: hosting, streaming, storage and the
        people who build and support {brandName}. Payment processor fees, typically {processorFeeRange} of a transaction, are charged by the
        payment provider and handled separately from our share, so the percentages above are never quietly eaten into.
      </p>

      <h2>For artists</h2>
      <ul>
        <li>Upload singles and full albums with artwork, credits, labels and release dates.</li>
        <li>Sell merchandise alongside your music, and set your own prices, discounts and bundles.</li>
        <li>Watch plays, downloads and sales as they happen, and get paid out to your PayPal account.</li>
        <li>You keep full ownership of your work. Always.</li>
      </ul>

      <h2>For fans</h2>
      <ul>
        <li>Dig through twelve genres, from Rock and Hip Hop to Classical and Blues.</li>
        <li>Follow artists, keep track of what you've played, and leave a word under the tracks you love.</li>
        <li>Buy directly from the artist, knowing most of the money reaches them.</li>
      </ul>

      <div className="not-prose mt-10 flex flex-wrap gap-3">
        <LinkButton to={href("/discover")} size="lg">
          Start digging
        </LinkButton>
        <LinkButton to={href("/register")} size="lg" variant="secondary">
          Create an account
        </LinkButton>
      </div>
    </article>
  );
}
