import { Form, href, Link, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow } from "~/lib/backend/backend.server";
import { artistPath } from "~/lib/catalog/catalog";
import { formatDate, formatMoney } from "~/lib/format";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { cancelMembership } from "~/lib/orders/membership-cancel.server";
import { CancelMembershipSchema, FanMembershipsSchema, type FanMembership } from "~/lib/schemas/fan-memberships";
import { requireFan } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/memberships";

export const meta = () => pageMeta("Memberships", "The artists you are a member of, and when each renews or ends.");

const path = href("/dashboard/fan/memberships");
const dateLocale = "en-US";
/** How many memberships the page lists (the newest): at most one live per artist, so far more than a fan keeps. */
const listLimit = 100;

/** The fan's memberships, newest first (row-level security: members read their own), in one read. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  const memberships = readOrThrow(
    await context
      .get(supabaseContext)
      .from("memberships")
      .select(
        "id, billing_interval, amount_cents, currency, state, current_period_end, ended_at, tier:membership_tiers(name), artist:artist_profiles(id, artist_name)",
      )
      .eq("fan_id", fan.id)
      .order("joined_at", { ascending: false })
      .limit(listLimit),
    { what: "memberships", schema: FanMembershipsSchema },
  );
  const url = new URL(request.url);
  const toCancel = url.searchParams.get("cancel");
  return {
    memberships,
    // The confirmation step (`?cancel=<id>`), for an active membership of the fan's alone.
    confirming: memberships.find((membership) => membership.id === toCancel && membership.state === "active") ?? null,
    cancelled: memberships.find((membership) => membership.id === url.searchParams.get("cancelled")) ?? null,
  };
}

/** A cancel confirmed: the provider's subscription set to end at its period's end, then the membership marked so. */
export async function action({ request, context }: Route.ActionArgs) {
  const fan = requireFan(request, context);
  const submission = parseForm(CancelMembershipSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  const outcome = await cancelMembership(context, fan.id, submission.value.membershipId);
  if ("refused" in outcome) return replyWith(formError(outcome.refused, submission.values), outcome.status);
  throw redirect(`${path}?${new URLSearchParams({ cancelled: submission.value.membershipId })}`, 303);
}

const endsOn = (membership: FanMembership) => formatDate(membership.current_period_end, dateLocale);

export default function Memberships({ loaderData, actionData }: Route.ComponentProps) {
  const { memberships, confirming, cancelled } = loaderData;
  const form = formFields(actionData);
  return (
    <>
      <DashboardHeader title="Memberships" kicker="Your music" dashboard={href("/dashboard/fan")}>
        The artists you are a member of. A cancelled membership stays yours until the end of the period you paid for.
      </DashboardHeader>
      <FormAlert>{form.formError}</FormAlert>
      {cancelled?.state === "cancelling" ? (
        <Card role="status" className="mb-8 max-w-xl">
          <p className="text-ink">
            Your membership of {cancelled.artist.artist_name} is cancelled. It ends on{" "}
            <time dateTime={cancelled.current_period_end}>{endsOn(cancelled)}</time>, and you will not be charged again.
          </p>
        </Card>
      ) : null}
      {confirming ? (
        <Card className="mb-8 max-w-xl">
          <h2 className="text-xl font-semibold text-ink">
            Cancel {confirming.tier.name} with {confirming.artist.artist_name}?
          </h2>
          <p className="mt-2 text-ink-muted">
            Your membership ends on <time dateTime={confirming.current_period_end}>{endsOn(confirming)}</time>. You stay a member until
            then, and what it gave you stays yours.
          </p>
          <Form method="post" action={path} className="mt-4 flex flex-wrap gap-3">
            <input type="hidden" name="membershipId" value={confirming.id} />
            <Button type="submit" variant="danger">
              Confirm cancel
            </Button>
            <LinkButton to={path} variant="secondary">
              Keep my membership
            </LinkButton>
          </Form>
        </Card>
      ) : null}
      {memberships.length === 0 ? (
        <EmptyState title="You are not a member of any artist yet">
          An artist&apos;s page shows their memberships, if they offer any.
        </EmptyState>
      ) : (
        <ul aria-label="Your memberships" className="divide-y divide-stage-700 rounded-2xl border border-stage-700 bg-stage-850">
          {memberships.map((membership) => (
            <MembershipRow key={membership.id} membership={membership} />
          ))}
        </ul>
      )}
    </>
  );
}

const states = { active: "Active", cancelling: "Cancelled", ended: "Ended" } as const;

function MembershipRow({ membership }: { membership: FanMembership }) {
  const { artist, tier, state } = membership;
  return (
    <li className="flex flex-wrap items-center gap-4 p-4">
      <div className="min-w-0 flex-1">
        <Link to={artistPath(artist.id)} className="font-semibold text-ink hover:text-accent hover:underline">
          {artist.artist_name}
        </Link>
        <p className="text-sm text-ink-muted">
          {tier.name} · {formatMoney(membership.amount_cents, membership.currency)} a {membership.billing_interval} · {states[state]}
        </p>
        <p className="text-sm text-ink-faint">
          {state === "active" ? "Renews on " : state === "cancelling" ? "Ends on " : "Ended on "}
          <time dateTime={membership.ended_at ?? membership.current_period_end}>
            {formatDate(membership.ended_at ?? membership.current_period_end, dateLocale)}
          </time>
        </p>
      </div>
      {state === "active" ? (
        <LinkButton to={`${path}?${new URLSearchParams({ cancel: membership.id })}`} variant="secondary" size="sm">
          Cancel<span className="sr-only"> your membership of {artist.artist_name}</span>
        </LinkButton>
      ) : null}
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
