import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireFan } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/dashboard";

export const meta = () => pageMeta("Your Music", "Your purchases, the artists you follow and what you played recently.");

export function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  return { displayName: fan.displayName };
}

export default function FanDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Signed in as {loaderData.displayName}</p>
      <h1 className="mt-2 text-4xl font-bold">Your Music</h1>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
