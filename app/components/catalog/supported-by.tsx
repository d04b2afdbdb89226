import { Link } from "react-router";
import { fanPath } from "~/lib/catalog/catalog";
import type { SupportedBy as Supporters } from "~/lib/schemas/catalog-data";

/**
 * A release or track page's "Supported by": the newest fans who bought it (at most 20, each linking to their
 * page), then how many more did. Nothing when no one shows.
 */
export function SupportedBy({ supporters }: { supporters: Supporters }) {
  if (supporters.fans.length === 0) return null;
  return (
    <section aria-labelledby="supported-by" className="mt-12">
      <h2 id="supported-by" className="mb-4 text-xl font-semibold">
        Supported by
      </h2>
      <ul aria-label="Fans who support this" className="flex flex-wrap gap-3">
        {supporters.fans.map((fan) => (
          <li key={fan.id}>
            <Link
              to={fanPath(fan.id)}
              className="flex min-h-11 items-center gap-2 rounded-full border border-stage-700 bg-stage-850 py-1 pr-4 pl-1 text-sm font-semibold text-ink hover:border-accent hover:text-accent-strong"
            >
              {/* A plain picture, as the track page's byline has it: the track page's JavaScript budget has no room
                  for the catalogue's image component. */}
              <img
                src={fan.profile_image_url ?? "/fallback-avatar.svg"}
                alt=""
                width={36}
                height={36}
                loading="lazy"
                className="size-9 shrink-0 rounded-full bg-stage-800 object-cover"
              />
              <span className="max-w-40 truncate">{fan.username}</span>
            </Link>
          </li>
        ))}
      </ul>
      {supporters.more > 0 ? <p className="mt-3 text-sm text-ink-muted">and {supporters.more.toLocaleString("en-US")} more</p> : null}
    </section>
  );
}
