import type { ReactNode } from "react";
import { preload } from "react-dom";

/**
 * The head of an album's or a track's page: its artwork (behind the card, blurred, and beside the title),
 * what it is, its title, who made it (`byline`) and what one can do with it (`children`: buy or download,
 * play, share).
 */
export function ReleaseHeader({
  artworkUrl,
  kind,
  title,
  byline,
  children,
}: {
  /** The artwork, or the fallback cover. */
  artworkUrl: string;
  /** "Album", "Single", "Album track". */
  kind: string;
  title: string;
  byline: ReactNode;
  children: ReactNode;
}) {
  // The page's largest paint: asked for from the document's head, before the body that shows it arrives.
  preload(artworkUrl, { as: "image", fetchPriority: "high" });
  return (
    <header className="relative rounded-3xl border border-stage-700 bg-stage-900 p-5 sm:p-8">
      {/* The backdrop is clipped to the card on its own, so the Share menu may reach past the card. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden rounded-3xl">
        {/* The page's largest paint (the artwork behind the header and in it, one request): fetched first. */}
        <img
          src={artworkUrl}
          alt=""
          fetchPriority="high"
          className="absolute inset-0 size-full scale-125 object-cover opacity-25 blur-3xl"
        />
        <div className="absolute inset-0 bg-gradient-to-t from-stage-950/90 via-stage-950/40 to-transparent" />
      </div>
      <div className="relative flex flex-col gap-6 md:flex-row md:items-end md:gap-8">
        <img
          src={artworkUrl}
          alt={`Artwork for ${title}`}
          width={288}
          height={288}
          fetchPriority="high"
          className="aspect-square w-full max-w-72 self-center rounded-2xl bg-stage-800 object-cover shadow-2xl shadow-black/50 md:self-auto"
        />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold tracking-wider text-accent uppercase">{kind}</p>
          <h1 className="mt-2 text-4xl font-bold text-balance break-words sm:text-5xl">{title}</h1>
          {byline}
          <div className="mt-6 flex flex-wrap items-center gap-3">{children}</div>
        </div>
      </div>
    </header>
  );
}
