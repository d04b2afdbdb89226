import { Form, href } from "react-router";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Card } from "~/components/ui/card";
import { Field, SelectField } from "~/components/ui/field";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { currencies } from "~/lib/constants";
import { formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { FanPaymentsSchema } from "~/lib/schemas/fan";
import { FanPayoutSchema } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import { changePaypalEmail, paypalPasswordField } from "~/lib/payouts/paypal-email.server";
import type { Route } from "./+types/payments";

export const meta = () => pageMeta("Payment Settings", "Your PayPal email and preferred currency.");

const paymentsPath = href("/dashboard/fan/payments");

/** The fan's own payout settings: only they read or write them (row-level security on the owner-only table). */
async function fanSettings(context: Route.LoaderArgs["context"], fanId: string) {
  const payout = readOrThrow(
    await context.get(supabaseContext).from("fan_payout_settings").select("payment_settings").eq("fan_id", fanId).maybeSingle(),
    { what: "payment settings", schema: FanPayoutSchema, notFound: "Payment settings not found" },
  );
  return payout.payment_settings;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  return { settings: await fanSettings(context, fan.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const fan = requireFan(request, context);
  const submission = parseForm(FanPaymentsSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  const { paypalEmail, currency, currentPassword } = submission.value;
  // A new PayPal email takes the account's password (and the account is told), before anything is saved.
  if (paypalEmail !== ((await fanSettings(context, fan.id)).paypal_email ?? null)) {
    const changed = await changePaypalEmail(context, paypalEmail, currentPassword);
    if ("refused" in changed) {
      return replyWith(
        { fieldErrors: { [paypalPasswordField]: changed.refused }, formError: null, values: submission.values },
        changed.status,
      );
    }
  }
  const { error } = await context
    .get(supabaseContext)
    .from("fan_payout_settings")
    .update({ payment_settings: { paypal_email: paypalEmail, default_currency: currency } })
    .eq("fan_id", fan.id);
  if (error) return refusedWrite(error, { what: "saving the fan's payment settings", values: submission.values });
  return replyWith({ fieldErrors: {}, formError: null, values: submission.values, notice: "Payment settings saved" }, 200);
}

export default function FanPaymentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings } = loaderData;
  const form = formFields(actionData);
  return (
    <>
      <DashboardHeader title="Payment Settings" kicker="Your music" dashboard={href("/dashboard/fan")}>
        How you pay, and the currency you see prices in.
      </DashboardHeader>
      <Card className="max-w-xl">
        <Form method="post" action={paymentsPath} noValidate className="grid gap-5">
          <FormAlert>{form.formError}</FormAlert>
          <FormAlert tone="success">{form.notice}</FormAlert>
          <Field label="PayPal email" {...form.field("paypalEmail", settings.paypal_email ?? "")} type="email" autoComplete="email" />
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            hint="Needed only to change your PayPal email."
            error={form.error("currentPassword")}
          />
          <SelectField label="Preferred currency" {...form.field("currency", settings.default_currency)} options={currencies} />
          <div className="max-w-xs">
            <SubmitButton action={paymentsPath} pendingLabel="Saving...">
              Save payment settings
            </SubmitButton>
          </div>
        </Form>
      </Card>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
