import { forgetCached } from "~/lib/cache/edge-cache.server";
import { Form, href, redirect } from "react-router";
import { CheckboxField, FormAlert } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, SelectField, TextareaField } from "~/components/ui/field";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { countOf } from "~/lib/catalog/catalog";
import { artistShare, currencies, membershipLimits } from "~/lib/constants";
import { formatDate, formatMoney } from "~/lib/format";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { SaveTierSchema, StudioTiersSchema, TierStateSchema, type StudioTier } from "~/lib/schemas/memberships";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/memberships";

export const meta = () => pageMeta("Memberships", "Tiers fans join to support you every month or year, and who joined.");

const path = href("/dashboard/artist/memberships");
const dateLocale = "en-US";
const tooManyTiers = `You offer ${membershipLimits.tiers} tiers, the most there can be: close or delete one first`;
const keptWithMembers = "A tier that has had members can be closed to new ones, not deleted";

/** The artist's tiers, each with its members counted and its newest 50 named: one read (studio_memberships). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const tiers = readOrThrow(await context.get(supabaseContext).rpc("studio_memberships"), {
    what: "membership tiers",
    schema: StudioTiersSchema,
  });
  return { tiers };
}

/** A tier added or edited, closed or reopened, or deleted (the database refuses one that has had members). */
export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request);
  if (formData.get("intent") !== "save") {
    const submission = parseForm(TierStateSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { intent, tierId } = submission.value;
    const tiers = supabase.from("membership_tiers");
    const { data: changed, error } =
      intent === "delete"
        ? await tiers.delete().eq("id", tierId).eq("artist_id", artist.id).select("id")
        : await tiers
            .update({ closed: intent === "close" })
            .eq("id", tierId)
            .eq("artist_id", artist.id)
            .select("id");
    if (error?.code === sqlState.foreignKeyViolation) return replyWith(formError(keptWithMembers, submission.values), 409);
    if (error) return refusedWrite(error, { what: `${intent === "delete" ? "deleting" : "changing"} a tier`, values: submission.values });
    if (changed.length === 0) return replyWith(formError("This tier is not one of yours", submission.values), 404);
    // The artist's page lists the open tiers: a cached copy would offer one closed or gone.
    await forgetCached(request, context, [`user:${artist.id}`]);
    throw redirect(path, 303);
  }
  const submission = parseForm(SaveTierSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const tier = submission.value;
  const row = {
    name: tier.name,
    description: tier.description ?? "",
    monthly_price_cents: tier.monthlyPrice,
    yearly_price_cents: tier.yearlyPrice,
    currency: tier.currency,
    allow_pay_more: tier.allowPayMore,
    grants_new_releases: tier.newReleases,
    grants_back_catalogue: tier.backCatalogue,
    discount_percent: tier.discountPercent,
  };
  const tiers = supabase.from("membership_tiers");
  const { data: saved, error } = tier.tierId
    ? await tiers.update(row).eq("id", tier.tierId).eq("artist_id", artist.id).select("id")
    : await tiers.insert({ ...row, artist_id: artist.id }).select("id");
  if (error?.code === sqlState.limitReached) return replyWith(formError(tooManyTiers, submission.values), 400);
  if (error) return refusedWrite(error, { what: "saving a tier", values: submission.values });
  if (saved.length === 0) return replyWith(formError("This tier is not one of yours", submission.values), 404);
  await forgetCached(request, context, [`user:${artist.id}`]);
  throw redirect(path, 303);
}

export default function Memberships({ loaderData, actionData }: Route.ComponentProps) {
  const { tiers } = loaderData;
  // A reply belongs to the form that was sent: a tier's (by its id) or the new one's.
  const replyFor = (tierId: string) => (actionData && (actionData.values.tierId ?? "") === tierId ? actionData : undefined);
  return (
    <>
      <DashboardHeader title="Memberships">
        Fans who join a tier support you every month (or year) and get what it gives: your new releases as they come out, your back
        catalogue. Each paid period is a sale: your {artistShare.digitalPercent}% is in your balance as any sale&apos;s. Up to{" "}
        {membershipLimits.tiers} tiers.
      </DashboardHeader>
      {tiers.length === 0 ? <EmptyState title="No tiers yet">Add your first below: fans see it on your page.</EmptyState> : null}
      <div className="grid gap-6">
        {tiers.map((tier) => (
          <TierCard key={tier.id} tier={tier} reply={replyFor(tier.id)} />
        ))}
      </div>
      {/* At the limit the form is shown only to say why what was typed was not added. */}
      {tiers.length < membershipLimits.tiers || replyFor("") ? (
        <section aria-labelledby="new-tier-heading" className="mt-10 max-w-2xl">
          <h2 id="new-tier-heading" className="mb-3 text-xl font-semibold">
            Add a tier
          </h2>
          <Card>
            {/* A tier added empties the form for the next (it is remounted). */}
            <TierForm key={tiers.length} reply={replyFor("")} />
          </Card>
        </section>
      ) : null}
    </>
  );
}

function TierCard({ tier, reply }: { tier: StudioTier; reply: FormReply | undefined }) {
  const editing = reply?.values.intent === "save" ? reply : undefined;
  const gives = [
    tier.grants_new_releases ? "new releases" : null,
    tier.grants_back_catalogue ? "the back catalogue" : null,
    tier.discount_percent > 0 ? `${tier.discount_percent}% off` : null,
  ].filter(Boolean);
  return (
    <Card>
      <section aria-labelledby={`tier-${tier.id}`}>
        <div className="flex flex-wrap items-start gap-3">
          <div className="min-w-0 flex-1">
            <h2 id={`tier-${tier.id}`} className="text-xl font-semibold text-ink">
              {tier.name} {tier.closed ? <Badge>Closed</Badge> : null}
            </h2>
            <p className="text-sm text-ink-muted">
              {formatMoney(tier.monthly_price_cents, tier.currency)} a month
              {tier.yearly_price_cents !== null ? ` or ${formatMoney(tier.yearly_price_cents, tier.currency)} a year` : ""}
              {tier.allow_pay_more ? ", or more" : ""} · {gives.length > 0 ? `Gives ${gives.join(", ")}` : "Support alone"} ·{" "}
              {countOf(tier.member_count, "member")}
            </p>
          </div>
          <Form method="post" action={path}>
            <input type="hidden" name="tierId" value={tier.id} />
            <Button type="submit" name="intent" value={tier.closed ? "reopen" : "close"} variant="secondary" size="sm">
              {tier.closed ? `Reopen ${tier.name}` : `Close ${tier.name} to new members`}
            </Button>
          </Form>
          {tier.has_members ? null : (
            <Form method="post" action={path}>
              <input type="hidden" name="tierId" value={tier.id} />
              <Button type="submit" name="intent" value="delete" variant="ghost" size="sm">
                Delete {tier.name}
              </Button>
            </Form>
          )}
        </div>
        {reply && !editing ? <FormAlert>{reply.formError}</FormAlert> : null}
        <details className="mt-4" open={editing ? true : undefined}>
          <summary className="cursor-pointer font-semibold text-ink">Edit {tier.name}</summary>
          <div className="mt-4">
            <TierForm tier={tier} reply={editing} />
          </div>
        </details>
        <h3 className="mt-6 mb-2 font-semibold text-ink">Members</h3>
        {tier.members.length === 0 ? (
          <p className="text-sm text-ink-muted">No members yet.</p>
        ) : (
          <ul aria-label={`Members of ${tier.name}`} className="divide-y divide-stage-700">
            {tier.members.map((member) => (
              <li key={member.id} className="flex flex-wrap gap-x-3 py-2 text-sm">
                <span className="font-semibold text-ink">{member.name}</span>
                <span className="text-ink-muted">
                  joined <time dateTime={member.joined_at}>{formatDate(member.joined_at.slice(0, 10), dateLocale)}</time> · by the{" "}
                  {member.billing_interval}
                </span>
                {member.state === "active" ? null : <Badge>{member.state === "cancelling" ? "Ends at the period's end" : "Ended"}</Badge>}
              </li>
            ))}
          </ul>
        )}
        {tier.member_count > tier.members.length ? (
          <p className="mt-2 text-sm text-ink-muted">The newest {tier.members.length} are listed.</p>
        ) : null}
      </section>
    </Card>
  );
}

/** A tier's form: empty to add one, filled to edit it; what was typed comes back with its messages. */
function TierForm({ tier, reply }: { tier?: StudioTier; reply: FormReply | undefined }) {
  const form = formFields(reply);
  const units = (cents: number | null | undefined) => (cents === null || cents === undefined ? "" : (cents / 100).toFixed(2));
  const checked = (name: string, stored: boolean) => (reply ? form.checked(name) : stored);
  return (
    <Form method="post" action={path} noValidate className="grid gap-4">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="tierId" value={tier?.id ?? ""} />
      <FormAlert>{form.formError}</FormAlert>
      <Field label="Name" maxLength={membershipLimits.name} {...form.field("name", tier?.name ?? "")} />
      <TextareaField
        label="Description"
        hint="What members get from you, in your words."
        maxLength={membershipLimits.description}
        rows={3}
        {...form.field("description", tier?.description ?? "")}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Price a month" inputMode="decimal" {...form.field("monthlyPrice", units(tier?.monthly_price_cents))} />
        <Field
          label="Price a year"
          inputMode="decimal"
          hint="Empty: monthly alone."
          {...form.field("yearlyPrice", units(tier?.yearly_price_cents))}
        />
        <SelectField
          label="Currency"
          options={currencies}
          name="currency"
          defaultValue={reply ? form.text("currency") : (tier?.currency ?? "USD")}
          error={form.error("currency")}
        />
      </div>
      <CheckboxField
        name="allowPayMore"
        label="Fans may pay more"
        defaultChecked={checked("allowPayMore", tier?.allow_pay_more ?? false)}
      />
      <CheckboxField
        name="newReleases"
        label="Members get each new release on its day"
        defaultChecked={checked("newReleases", tier?.grants_new_releases ?? false)}
      />
      <CheckboxField
        name="backCatalogue"
        label="Members get the back catalogue when they join"
        defaultChecked={checked("backCatalogue", tier?.grants_back_catalogue ?? false)}
      />
      <Field
        label="Discount on downloads and merch (%)"
        inputMode="numeric"
        hint="0 for none."
        {...form.field("discountPercent", String(tier?.discount_percent ?? 0))}
      />
      <Button type="submit">{tier ? `Save ${tier.name}` : "Add tier"}</Button>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
