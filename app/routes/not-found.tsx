import { data } from "react-router";
import { GeneralErrorBoundary, NotFound } from "~/components/error-boundary";

/** Any path no other route claims: a real 404 status, rendered inside the shared layout. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <NotFound /> }} />;
}
