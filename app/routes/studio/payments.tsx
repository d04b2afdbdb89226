import { Form, href } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Card } from "~/components/ui/card";
import { Field, SelectField } from "~/components/ui/field";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { currencies, withdrawThreshold } from "~/lib/constants";
import { formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { ArtistPaymentsSchema } from "~/lib/schemas/studio";
import { ArtistPayoutSchema } from "~/lib/schemas/studio-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/payments";

export const meta = () => pageMeta("Payment Settings", "Where your earnings go, and when.");

const paymentsPath = href("/dashboard/artist/payments");
const savedNotice = "Payment settings saved";

/** The artist's payout row: only they can read or write it (row-level security on the owner-only table). */
async function payoutRow(context: Route.LoaderArgs["context"], artistId: string) {
  return readOrThrow(
    await context
      .get(supabaseContext)
      .from("artist_payout_settings")
      .select("paypal_email, payment_settings")
      .eq("artist_id", artistId)
      .maybeSingle(),
    { what: "payment settings", schema: ArtistPayoutSchema, notFound: "Payment settings not found" },
  );
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  return { payout: await payoutRow(context, artist.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const submission = parseForm(ArtistPaymentsSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  const settings = submission.value;
  // With withdrawals off the threshold field is not shown: the stored one is kept.
  const threshold = settings.withdrawThreshold ?? (await payoutRow(context, artist.id)).payment_settings.withdraw_threshold;
  const { error } = await context
    .get(supabaseContext)
    .from("artist_payout_settings")
    .update({
      paypal_email: settings.paypalEmail,
      payment_settings: {
        minimum_price: settings.minimumPrice,
        default_currency: settings.currency,
        auto_withdraw: settings.autoWithdraw,
        withdraw_threshold: threshold,
      },
    })
    .eq("artist_id", artist.id);
  if (error) {
    return refusedWrite(error, { what: "saving payment settings", values: submission.values, fields: { paypal_email: "paypalEmail" } });
  }
  return replyWith({ fieldErrors: {}, formError: null, values: submission.values, notice: savedNotice }, 200);
}

export default function PaymentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { payout } = loaderData;
  const settings = payout.payment_settings;
  const form = formFields(actionData);
  return (
    <>
      <DashboardHeader title="Payment Settings">
        Where your earnings go, the price your releases start from, and when you are paid.
      </DashboardHeader>
      <Card className="max-w-2xl">
        <Form method="post" action={paymentsPath} noValidate className="grid gap-5">
          <FormAlert>{form.formError}</FormAlert>
          <FormAlert tone="success">{form.notice}</FormAlert>
          <Field label="PayPal email" {...form.field("paypalEmail", payout.paypal_email)} type="email" autoComplete="email" required />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Default minimum price"
              {...form.field("minimumPrice", String(settings.minimum_price))}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              required
              hint="What new releases are priced at unless you set another price."
            />
            <SelectField label="Currency" {...form.field("currency", settings.default_currency)} options={currencies} />
          </div>
          {/* The threshold shows only while automatic withdrawals are ticked: CSS (:has), so also without JavaScript. */}
          <fieldset className="grid gap-4 rounded-xl border border-stage-700 p-4 [&:not(:has([name=autoWithdraw]:checked))_.withdraw-threshold]:hidden">
            <legend className="px-1 text-sm font-semibold text-ink">Automatic withdrawals</legend>
            <CheckboxField
              name="autoWithdraw"
              label="Pay out automatically when my balance reaches the threshold"
              defaultChecked={actionData ? form.checked("autoWithdraw") : settings.auto_withdraw}
            />
            <Field
              className="withdraw-threshold"
              label="Withdrawal threshold (USD)"
              {...form.field("withdrawThreshold", String(settings.withdraw_threshold))}
              type="number"
              inputMode="numeric"
              min={withdrawThreshold.minimum}
              step={withdrawThreshold.step}
              hint={`Minimum amount required for automatic withdrawal (minimum $${withdrawThreshold.minimum}).`}
            />
          </fieldset>
          <SubmitButton action={paymentsPath} pendingLabel="Saving...">
            Save payment settings
          </SubmitButton>
        </Form>
      </Card>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
