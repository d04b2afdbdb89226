import type { ReactNode } from "react";
import { isRouteErrorResponse, useLocation, useRouteError, type ErrorResponse } from "react-router";
import { brandName } from "~/components/layout/nav-items";
import { Button, LinkButton } from "~/components/ui/button";

type StatusHandler = (info: { error: ErrorResponse }) => ReactNode;

export function errorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    return typeof error.data === "string" && error.data ? error.data : `${error.status} ${error.statusText}`.trim();
  }
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return "Unknown error";
}

/** The page people see when a route is not found. */
export function NotFound() {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <title>{`Page not found · ${brandName}`}</title>
      <p className="font-display text-6xl font-bold text-accent">404</p>
      <h1 className="mt-4 text-3xl font-bold">Page not found</h1>
      <p className="mt-3 text-ink-muted">We couldn't find the page you were looking for. It may have moved, or the link may be mistyped.</p>
      <div className="mt-8 flex justify-center gap-3">
        <LinkButton to="/">Back to home</LinkButton>
        <LinkButton to="/discover" variant="secondary">
          Discover artists
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

/**
 * The one error boundary routes reuse. Pass handlers for the statuses a route expects (e.g. 404 with
 * 'Artist not found'); anything else falls back to the generic screen.
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
    const handler = statusHandlers?.[error.status] ?? defaultStatusHandler;
    return <>{handler({ error })}</>;
  }
  if (typeof document !== "undefined") console.error(error);
  return <>{unexpectedErrorHandler(error)}</>;
}
