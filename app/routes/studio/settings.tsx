import { href } from "react-router";
import { AccountSettings } from "~/components/account/account-settings";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { accountSettingsAction, finishEmailChange } from "../account/account-settings.server";
import type { Route } from "./+types/settings";

export const meta = () => pageMeta("Artist Profile Settings", "Your email, password and signed-in devices.");

const settingsPath = href("/dashboard/artist/settings");

/** No read of its own: the session check already brought the account's email and any pending change. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  await finishEmailChange(request, context, settingsPath);
  return {
    email: artist.email,
    pendingEmail: artist.pendingEmail,
    emailConfirmed: new URL(request.url).searchParams.get("email") === "confirmed",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return accountSettingsAction(request, context, requireArtist(request, context), settingsPath);
}

export default function ArtistProfileSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <DashboardHeader title="Artist Profile Settings">Your email, password and signed-in devices.</DashboardHeader>
      <AccountSettings {...loaderData} reply={actionData} path={settingsPath} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
