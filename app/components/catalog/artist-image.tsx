import { cx } from "~/lib/ui/cx";

/**
 * An artist's or fan's picture, or (when they have none) the first letter of their name on the accent
 * gradient. `alt` empty means the name is already written beside it; `eager` as for `CatalogImage`.
 */
export function ProfileImage({
  name,
  src,
  alt = "",
  className,
  initialClassName = "text-2xl",
  eager = false,
}: {
  name: string;
  src: string | null | undefined;
  alt?: string;
  className?: string;
  initialClassName?: string;
  eager?: boolean;
}) {
  if (src) {
    return <CatalogImage src={src} alt={alt} className={className} eager={eager} />;
  }
  const initial = name.trim().charAt(0).toUpperCase() || "?";
  return (
    <span
      role={alt ? "img" : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
      className={cx(
        "grid place-items-center bg-gradient-to-br from-accent/80 via-stage-700 to-amber/60 font-display font-bold text-ink select-none",
        initialClassName,
        className,
      )}
    >
      {initial}
    </span>
  );
}

/** A track's or release's artwork, or the stock artwork when it has none. */
export function Artwork({
  src,
  alt = "",
  className,
  eager = false,
}: {
  src: string | null | undefined;
  alt?: string;
  className?: string;
  eager?: boolean;
}) {
  return <CatalogImage src={src || "/fallback-artwork.svg"} alt={alt} className={className} eager={eager} />;
}

/**
 * A stored 400 px picture. `eager` is for the one a page opens with (its largest paint): fetched first,
 * not lazily, and painted as soon as it is decoded rather than in a later frame.
 */
function CatalogImage({ src, alt, className, eager }: { src: string; alt: string; className?: string; eager: boolean }) {
  return (
    <img
      src={src}
      alt={alt}
      width={400}
      height={400}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : undefined}
      decoding={eager ? undefined : "async"}
      className={cx("bg-stage-800 object-cover", className)}
    />
  );
}
