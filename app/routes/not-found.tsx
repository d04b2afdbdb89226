import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NotFound } from "~/components/not-found";
import { notFound } from "~/lib/backend/backend.server";

/** Any path no other route claims: a real 404 status, rendered inside the shared layout. */
export function loader() {
  throw notFound("Not found");
}

export default function NotFoundRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
