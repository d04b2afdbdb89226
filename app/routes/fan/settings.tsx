import { href } from "react-router";
import { AccountSettings, EmailSettingsForm } from "~/components/account/account-settings";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { accountSettingsAction, finishEmailChange, readEmailSettings } from "~/lib/account/account-settings.server";
import type { Route } from "./+types/settings";

export const meta = () => pageMeta("Account settings", "Your email, password, signed-in devices and which emails you get.");

const settingsPath = href("/dashboard/fan/settings");

/** One read of its own (the email settings): the session check already brought the account's email and any pending change. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  await finishEmailChange(request, context, settingsPath);
  return {
    emailSettings: await readEmailSettings(context, fan.id),
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
        Your email, password, signed-in devices and which emails you get.
      </DashboardHeader>
      <div className="grid max-w-2xl gap-6">
        <AccountSettings {...loaderData} reply={actionData} path={settingsPath} />
        <EmailSettingsForm settings={loaderData.emailSettings} isArtist={false} reply={actionData} path={settingsPath} />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
