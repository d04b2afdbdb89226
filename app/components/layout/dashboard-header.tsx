import type { ReactNode } from "react";
import { href, Link, useNavigate } from "react-router";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * The title block of a dashboard screen (the artist studio, the fan space), with its Back button (spec: one
 * history step back). Without JavaScript, or when this page was opened directly, Back is a link to the
 * dashboard.
 */
export function DashboardHeader({
  title,
  children,
  actions,
  kicker = "Artist studio",
  dashboard = href("/dashboard/artist"),
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  kicker?: string;
  dashboard?: string;
}) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  return (
    <header className="mb-8">
      <Link
        to={dashboard}
        onClick={(event) => {
          // React Router's own history entry says whether there is a step of ours to go back to.
          if (!hydrated || (window.history.state?.idx ?? 0) === 0) return;
          event.preventDefault();
          navigate(-1);
        }}
        className="inline-flex items-center gap-1 rounded-full py-1 pr-3 text-sm font-semibold text-ink-muted hover:text-ink"
      >
        <span aria-hidden="true">←</span> Back
      </Link>
      <div className="mt-3 flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold tracking-wider text-accent uppercase">{kicker}</p>
          <h1 className="mt-1 text-3xl font-bold sm:text-4xl">{title}</h1>
          {children ? <div className="mt-2 text-ink-muted">{children}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-3">{actions}</div> : null}
      </div>
    </header>
  );
}

/** A panel of a dashboard: its heading, and a link to the whole list beside it when there is one. */
export function DashboardSection({
  id,
  title,
  more,
  children,
}: {
  id: string;
  title: string;
  more?: { to: string; label: string } | null;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <div className="flex items-baseline justify-between gap-4">
        <h2 id={id} className="text-xl font-bold">
          {title}
        </h2>
        {more ? (
          <Link to={more.to} className="text-sm font-semibold text-accent hover:underline">
            {more.label}
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}
