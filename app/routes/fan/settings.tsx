import { href } from "react-router";
import { AccountSettings } from "~/components/account/account-settings";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { accountSettingsAction, finishEmailChange } from "../account/account-settings.server";
import type { Route } from "./+types/settings";

export const meta = () => pageMeta("Account settings", "Your email, password and signed-in devices.");

const settingsPath = href("/dashboard/fan/settings");

/** No read of its own: the session check already brought the account's email and any pending change. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  await finishEmailChange(request, context, settingsPath);
  return {
    email: fan.email,
    pendingEmail: fan.pendingEmail,
    emailConfirmed: new URL(request.url).searchParams.get("email") === "confirmed",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return accountSettingsAction(request, context, requireFan(request, context), settingsPath);
}

export default function FanAccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <DashboardHeader title="Account settings" kicker="Your music" dashboard={href("/dashboard/fan")}>
        Your email, password and signed-in devices.
      </DashboardHeader>
      <AccountSettings {...loaderData} reply={actionData} path={settingsPath} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
