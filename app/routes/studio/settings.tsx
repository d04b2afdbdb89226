import { href } from "react-router";
import { AccountSettings, EmailSettingsForm } from "~/components/account/account-settings";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Card } from "~/components/ui/card";
import { LinkButton } from "~/components/ui/button";
import { countOf } from "~/lib/catalog/catalog";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import { accountSettingsAction, finishEmailChange, readEmailSettings } from "~/lib/account/account-settings.server";
import type { Route } from "./+types/settings";

export const meta = () => pageMeta("Artist Profile Settings", "Your email, password, signed-in devices and which emails you get.");

const settingsPath = href("/dashboard/artist/settings");

/**
 * The email settings and how many signed up for the artist's news, read at once: the session check already
 * brought the account's email and any pending change.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  await finishEmailChange(request, context, settingsPath);
  const [emailSettings, signups] = await Promise.all([
    readEmailSettings(context, artist.id),
    context.get(supabaseContext).from("newsletter_signups").select("id", { count: "exact", head: true }).eq("artist_id", artist.id),
  ]);
  return {
    emailSettings,
    signups: signups.count ?? 0,
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
      <DashboardHeader title="Artist Profile Settings">Your email, password, signed-in devices and which emails you get.</DashboardHeader>
      <div className="grid max-w-2xl gap-6">
        <AccountSettings {...loaderData} reply={actionData} path={settingsPath} />
        <EmailSettingsForm settings={loaderData.emailSettings} isArtist={true} reply={actionData} path={settingsPath} />
        <Card>
          <h2 className="text-lg font-semibold">Newsletter signups</h2>
          <p className="mt-1 text-sm text-ink-muted">
            {countOf(loaderData.signups, "address", "addresses")} signed up on your page for your news. Each confirmed address gets your
            release emails, with a link to unsubscribe; the list marks who is pending confirmation and who unsubscribed.
          </p>
          <div className="mt-4">
            <LinkButton to={href("/dashboard/artist/newsletter.csv")} reloadDocument variant="secondary">
              Download CSV
            </LinkButton>
          </div>
        </Card>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
