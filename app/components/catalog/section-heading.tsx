import type { ReactNode } from "react";
import { Link } from "react-router";

/** A page section's heading with an optional count and a link onwards ("View All"). */
export function SectionHeading({
  id,
  title,
  detail,
  link,
}: {
  id: string;
  title: string;
  detail?: ReactNode;
  link?: { to: string; label: string; description?: string };
}) {
  return (
    <div className="mb-4 flex items-end justify-between gap-4">
      <div>
        <h2 id={id} className="text-2xl font-bold">
          {title}
        </h2>
        {detail ? <p className="mt-0.5 text-sm text-ink-faint">{detail}</p> : null}
      </div>
      {link ? (
        <Link
          to={link.to}
          aria-label={link.description}
          className="shrink-0 rounded-full px-3 py-1.5 text-sm font-semibold text-accent-strong hover:bg-stage-800 hover:text-ink"
        >
          {link.label}
        </Link>
      ) : null}
    </div>
  );
}

/** A page's title block. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="mb-8">
      <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
      {children ? <div className="mt-2 text-ink-muted">{children}</div> : null}
    </header>
  );
}
