import { href, Link } from "react-router";
import { AuthShell } from "~/components/auth-shell";
import { HaveAccountLink } from "~/components/account-fields";
import { redirectSignedIn } from "~/lib/session/guards.server";
import { artistShare } from "~/lib/constants";
import { pageMeta } from "~/lib/sharing/meta";
import { dashboardPath } from "~/lib/session/redirects";
import type { Route } from "./+types/register";
import { Icon, type IconName } from "~/components/ui/icon";

export const meta = () =>
  pageMeta("Sign up", "Create an artist account to sell your music, or a fan account to follow and buy from artists.");

export function loader({ context }: Route.LoaderArgs) {
  redirectSignedIn(context, (user) => dashboardPath(user.role));
  return null;
}

const accountTypes: { to: string; title: string; description: string; icon: IconName }[] = [
  {
    to: href("/register/artist"),
    title: "Artist Account",
    description: `Upload and sell your tracks, albums and merch, watch your stats live, and keep ${artistShare.digitalPercent}% of every digital sale.`,
    icon: "music",
  },
  {
    to: href("/register/fan"),
    title: "Fan Account",
    description: "Follow artists, keep track of what you've played, comment on tracks and buy straight from the people who made them.",
    icon: "headphones",
  },
];

export default function Register() {
  return (
    <AuthShell title="Join the crate" subtitle="Which kind of account do you need?" wide>
      <ul className="grid gap-4 sm:grid-cols-2">
        {accountTypes.map((type) => (
          <li key={type.to}>
            <Link
              to={type.to}
              className="group flex h-full flex-col rounded-2xl border border-stage-600 bg-stage-850 p-6 transition-colors hover:border-accent"
            >
              <Icon name={type.icon} strokeWidth={1.6} className="size-9 text-accent" />
              <span className="mt-4 text-xl font-semibold text-ink">{type.title}</span>
              <span className="mt-2 text-sm text-ink-muted">{type.description}</span>
              <span aria-hidden="true" className="mt-auto pt-5 text-sm font-semibold text-accent-strong group-hover:underline">
                Get started →
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <HaveAccountLink />
    </AuthShell>
  );
}
