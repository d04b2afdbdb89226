import type { ReactNode } from "react";
import { isRouteErrorResponse, useLocation, useRouteError, type ErrorResponse } from "react-router";
import { NotFound, type NotFoundLink } from "~/components/not-found";
import { Button, LinkButton } from "~/components/ui/button";
import { brandName } from "~/lib/constants";
import { dashboardPath } from "~/lib/session/redirects";
import { useOptionalUser } from "~/lib/session/use-user";

type StatusHandler = (info: { error: ErrorResponse }) => ReactNode;

export function errorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    return typeof error.data === "string" && error.data ? error.data : `${error.status} ${error.statusText}`.trim();
  }
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return "Unknown error";
}

/**
 * A signed-in user on a page for another role (a fan on the artist dashboard), or asking for what is not
 * theirs: whose it is, the way to their own dashboard and, where there is one, the way to make it theirs
 * (`also`: a file's page, to buy it), not an error to reload.
 */
export function AccessDenied({ message, also }: { message: string; also?: { to: string; label: string } }) {
  const user = useOptionalUser();
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <title>{`Access Denied · ${brandName}`}</title>
      <p className="font-display text-6xl font-bold text-accent">403</p>
      <h1 className="mt-4 text-3xl font-bold">Access Denied</h1>
      <p className="mt-3 text-ink-muted">{message}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {also ? <LinkButton to={also.to}>{also.label}</LinkButton> : null}
        <LinkButton to={dashboardPath(user?.role ?? null)} variant={also ? "secondary" : "primary"}>
          {user?.role ? "Go to your dashboard" : "Back to home"}
        </LinkButton>
      </div>
    </section>
  );
}

/** What every unexpected failure shows (spec: 'Something went wrong', the message and 'Reload page'). */
export function SomethingWentWrong({ message }: { message: string }) {
  const location = useLocation();
  return (
    <section role="alert" className="mx-auto max-w-xl py-16 text-center">
      <title>{`Something went wrong · ${brandName}`}</title>
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-3 break-words text-ink-muted">{message}</p>
      {/* A GET form back to the same URL reloads the page even before JavaScript has loaded. */}
      <form method="get" action={location.pathname} className="mt-8">
        {[...new URLSearchParams(location.search)].map(([name, value], index) => (
          <input key={index} type="hidden" name={name} value={value} />
        ))}
        <Button type="submit">Reload page</Button>
      </form>
    </section>
  );
}

const standardHandlers: Record<number, StatusHandler> = {
  404: () => <NotFound />,
  403: ({ error }) => <AccessDenied message={errorMessage(error)} />,
};

/**
 * The one error boundary routes reuse: 404 shows the not-found screen and 403 the access-denied one.
 * Pass handlers for what a route says differently (e.g. 404 with 'Artist not found'); anything else
 * falls back to the generic screen.
 */
export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler = ({ error }) => <SomethingWentWrong message={errorMessage(error)} />,
  unexpectedErrorHandler = (error) => <SomethingWentWrong message={errorMessage(error)} />,
}: {
  statusHandlers?: Record<number, StatusHandler>;
  defaultStatusHandler?: StatusHandler;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers?.[error.status] ?? standardHandlers[error.status] ?? defaultStatusHandler;
    return <>{handler({ error })}</>;
  }
  if (typeof document !== "undefined") console.error(error);
  return <>{unexpectedErrorHandler(error)}</>;
}

/**
 * The error boundary of a page about one thing (an artist, a track, a playlist): its 404 names what was not
 * found, says why that may be, and links on; everything else as GeneralErrorBoundary.
 */
export function notFoundBoundary({ title, reason, links }: { title: string; reason: string; links: NotFoundLink[] }) {
  return function ErrorBoundary() {
    return (
      <GeneralErrorBoundary
        statusHandlers={{
          404: () => (
            <NotFound title={title} links={links}>
              {reason}
            </NotFound>
          ),
        }}
      />
    );
  };
}
