import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { artistPath } from "~/lib/catalog/catalog";
import { formatMoney } from "~/lib/format";
import { formFields, type FormReply } from "~/lib/forms/forms";
import type { ArtistMembershipTier } from "~/lib/schemas/catalog-data";

/**
 * "Become a member": the artist's open tiers, each with what it costs and gives, and its Join form (a POST
 * to the artist's page, so it works without JavaScript) that goes on to the payment page. A visitor's Join
 * asks them to log in first; the artist, other artists and administrators see the tiers without Join. A fan
 * already a member sees which tier they are a member of instead.
 */
export function MembershipSection({
  artistId,
  tiers,
  membership,
  mayJoin,
  reply,
}: {
  artistId: string;
  tiers: ArtistMembershipTier[];
  /** The caller's own tier's name, if they are a member. */
  membership: string | null;
  mayJoin: boolean;
  reply: FormReply | undefined;
}) {
  return (
    <section aria-labelledby="membership">
      <h2 id="membership" className="mb-3 text-lg font-bold">
        Become a member
      </h2>
      {membership ? (
        <p role="status" className="mb-3 rounded-xl border border-success/40 bg-success/10 px-4 py-3 font-semibold text-success">
          You're a member ({membership})
        </p>
      ) : null}
      <ul className="grid grid-cols-1 gap-3">
        {tiers.map((tier) => (
          <li key={tier.id} className="rounded-xl border border-stage-700 bg-stage-850 p-3">
            <h3 className="font-semibold text-ink">{tier.name}</h3>
            <p className="text-sm text-ink-muted">
              {formatMoney(tier.monthly_price_cents, tier.currency)} a month
              {tier.yearly_price_cents !== null ? ` or ${formatMoney(tier.yearly_price_cents, tier.currency)} a year` : ""}
            </p>
            {tier.description ? <p className="mt-1 text-sm whitespace-pre-line text-ink-muted">{tier.description}</p> : null}
            {tier.grants_new_releases || tier.grants_back_catalogue ? (
              <ul className="mt-1 list-disc pl-5 text-sm text-ink-muted">
                {tier.grants_new_releases ? <li>Each new release on its day</li> : null}
                {tier.grants_back_catalogue ? <li>The whole back catalogue on joining</li> : null}
              </ul>
            ) : null}
            {mayJoin && !membership ? (
              <JoinForm artistId={artistId} tier={tier} reply={reply?.values.tierId === tier.id ? reply : undefined} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function JoinForm({ artistId, tier, reply }: { artistId: string; tier: ArtistMembershipTier; reply: FormReply | undefined }) {
  const fields = formFields(reply);
  const chosen = fields.text("interval") || "month";
  const errorId = `join-${tier.id}-error`;
  return (
    <Form method="post" action={artistPath(artistId)} className="mt-3 grid gap-3" noValidate>
      <input type="hidden" name="intent" value="join" />
      <input type="hidden" name="tierId" value={tier.id} />
      {tier.yearly_price_cents !== null ? (
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-ink">Pay</legend>
          {(["month", "year"] as const).map((interval) => (
            <label key={interval} className="mr-4 inline-flex items-center gap-2 text-sm text-ink">
              <input type="radio" name="interval" value={interval} defaultChecked={chosen === interval} />
              {interval === "month" ? "Monthly" : "Yearly"}
            </label>
          ))}
        </fieldset>
      ) : null}
      {tier.allow_pay_more ? (
        <Field
          id={`join-${tier.id}-amount`}
          label={`Pay more (${tier.currency}, optional)`}
          inputMode="decimal"
          {...fields.field("amount")}
        />
      ) : null}
      {fields.formError ? (
        <p id={errorId} role="alert" className="text-sm text-danger">
          {fields.formError}
        </p>
      ) : null}
      <Button type="submit" size="sm" aria-label={`Join ${tier.name}`}>
        Join
      </Button>
    </Form>
  );
}
