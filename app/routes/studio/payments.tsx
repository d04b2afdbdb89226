import { Form, href } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Card } from "~/components/ui/card";
import { Button, LinkButton } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/field";
import { Balances } from "~/components/payments/balances";
import { PayoutMethodChoice, StripeConnection } from "~/components/payments/stripe-connection";
import { SalesTable } from "~/components/payments/sales-table";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { artistShare, currencies, withdrawThreshold } from "~/lib/constants";
import { formatMoney, requestLocale } from "~/lib/format";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { refundLine } from "~/lib/orders/refunds.server";
import { connectStripe, platformCountry, stripeStateNow } from "~/lib/payouts/stripe-connect.server";
import { soldItemOf } from "./sales.server";
import { RefundSchema, SalesSchema, SoldItemsSchema } from "~/lib/schemas/checkout";
import { readForm } from "~/lib/forms/form-body.server";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { ArtistPaymentsSchema, StripeConnectionSchema } from "~/lib/schemas/studio";
import { ArtistPayoutSchema } from "~/lib/schemas/studio-data";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import { envFrom } from "~/lib/http/env.server";
import { marketplaceClient } from "~/lib/backend/marketplace-client.server";
import { sendPayouts } from "~/lib/payouts/payout-job.server";
import { nextPayoutRun } from "~/lib/payouts/schedule";
import { ArtistPayoutsSchema, PayoutsSchema } from "~/lib/schemas/payouts";
import { changePaypalEmail, paypalPasswordField } from "~/lib/payouts/paypal-email.server";
import { changedWithPassword, passwordField } from "~/lib/payouts/payout-changes.server";
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
      .select("paypal_email, payment_settings, payout_method, stripe_account, stripe_ready")
      .eq("artist_id", artistId)
      .maybeSingle(),
    { what: "payment settings", schema: ArtistPayoutSchema, notFound: "Payment settings not found" },
  );
}

/** The newest sales the page lists, each refundable. */
const salesShown = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  const item = soldItemOf(request);
  const stripeStep = new URL(request.url).searchParams.get("stripe");
  const supabase = context.get(supabaseContext);
  const [row, money, sales, items] = await Promise.all([
    payoutRow(context, artist.id),
    supabase.rpc("artist_payouts"),
    supabase.rpc("sales", { how_many: salesShown, item: item ?? undefined }),
    supabase.rpc("sold_items"),
  ]);
  // Back from Stripe's onboarding: Stripe itself says whether the account takes transfers yet (its
  // webhook may not have come).
  const stripeReady =
    stripeStep === "return" && row.stripe_account && !row.stripe_ready
      ? ((await stripeStateNow(context, row.stripe_account)) ?? false)
      : row.stripe_ready;
  return {
    payout: { ...row, stripe_ready: stripeReady },
    stripeStep,
    stripeCountry: platformCountry(context),
    money: readOrThrow(money, { what: "balances", schema: ArtistPayoutsSchema }),
    nextRun: nextPayoutRun(),
    // The days left to claim a payout at PayPal count from here, the same on the server and in the browser.
    now: Date.now(),
    sales: readOrThrow(sales, { what: "sales", schema: SalesSchema }),
    items: readOrThrow(items, { what: "items sold", schema: SoldItemsSchema }),
    item,
    locale: requestLocale(request),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const formData = await readForm(request);
  if (formData.get("intent") === "withdraw") return withdraw(context);
  if (formData.get("intent") === "connect-stripe") return connectStripeWithPassword(request, context, artist.id, formData);
  if (formData.get("intent") === "refund") {
    const refund = parseForm(RefundSchema, formData);
    if (!refund.success) return replyWith(formError("This sale no longer exists", { intent: "refund" }), 400);
    const outcome = await refundLine(request, context, refund.value.lineId);
    return "refused" in outcome
      ? replyWith(formError(outcome.refused, { intent: "refund" }), 409)
      : replyWith({ fieldErrors: {}, formError: null, values: { intent: "refund" }, notice: outcome.notice }, 200);
  }
  const submission = parseForm(ArtistPaymentsSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const settings = submission.value;
  const stored = await payoutRow(context, artist.id);
  const methodChanged = settings.payoutMethod !== stored.payout_method;
  // Stripe is chosen once its account is ready (the database holds the same).
  if (methodChanged && settings.payoutMethod === "stripe" && !stored.stripe_ready) {
    const first = stored.stripe_account ? "Finish setting up your Stripe account first" : "Connect your Stripe account first";
    return replyWith({ fieldErrors: { payoutMethod: first }, formError: null, values: submission.values }, 400);
  }
  // A new PayPal email takes the account's password (and the account is told), before anything is saved.
  if (settings.paypalEmail !== stored.paypal_email) {
    const changed = await changePaypalEmail(context, settings.paypalEmail, settings.currentPassword);
    if ("refused" in changed) {
      return replyWith(
        { fieldErrors: { [paypalPasswordField]: changed.refused }, formError: null, values: submission.values },
        changed.status,
      );
    }
  }
  // So does choosing where payouts go.
  if (methodChanged) {
    const chosen = await changedWithPassword(context, "change where payouts go", settings.currentPassword, () =>
      vouchedClient(context).rpc("choose_payout_method", { payout_method: settings.payoutMethod, password: settings.currentPassword }),
    );
    if ("refused" in chosen) {
      return replyWith({ fieldErrors: { [passwordField]: chosen.refused }, formError: null, values: submission.values }, chosen.status);
    }
  }
  // With withdrawals off the threshold field is not shown: the stored one is kept.
  const threshold = settings.withdrawThreshold ?? stored.payment_settings.withdraw_threshold;
  const { error } = await context
    .get(supabaseContext)
    .from("artist_payout_settings")
    .update({
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

/**
 * On to Stripe's onboarding from the Stripe form, with the current password: for the account connected, or
 * a new one in its place when asked (so a connection someone else made can be undone).
 */
async function connectStripeWithPassword(request: Request, context: Route.ActionArgs["context"], artistId: string, formData: FormData) {
  const connection = parseForm(StripeConnectionSchema, formData);
  if (!connection.success) {
    // The country is the one field a person gets wrong; anything else was not sent by this form.
    const wrongCountry = connection.reply.fieldErrors.country !== undefined;
    return replyWith(wrongCountry ? connection.reply : formError("Choose this Stripe account or another", connection.reply.values), 400);
  }
  const sent = await connectStripe(request, context, artistId, {
    password: connection.value.currentPassword,
    another: connection.value.connection === "another",
    country: connection.value.country ?? platformCountry(context),
  });
  if (sent instanceof Response) return sent;
  if ("passwordRefused" in sent) {
    return replyWith(
      { fieldErrors: { [passwordField]: sent.passwordRefused.refused }, formError: null, values: connection.values },
      sent.passwordRefused.status,
    );
  }
  return replyWith(formError(sent.refused, connection.values), 502);
}

/**
 * "Withdraw now": each available balance at or above the threshold paid out at once, through the
 * marketplace (the database starts the payout, for an artist in good standing alone), then sent.
 */
async function withdraw(context: Route.ActionArgs["context"]) {
  const started = await vouchedClient(context).rpc("withdraw_now");
  if (started.error) return refusedWrite(started.error, { what: "withdrawing", values: { intent: "withdraw" } });
  const payouts = readOrThrow(started, { what: "payouts started", schema: PayoutsSchema });
  if (payouts.length === 0) {
    return replyWith(formError("Your available balance is below your withdrawal threshold.", { intent: "withdraw" }), 409);
  }
  const env = envFrom(context);
  const run = await sendPayouts(env, marketplaceClient(env), payouts);
  if (run.failed > 0) {
    return replyWith(
      formError("The payout could not be made: see Payouts below. The money is back in your balance.", { intent: "withdraw" }),
      502,
    );
  }
  const total = (list: typeof payouts) =>
    formatMoney(
      list.reduce((sum, one) => sum + one.amount_cents, 0),
      list[0]!.currency,
    );
  const byPaypal = payouts.filter((started) => started.method === "paypal");
  const toStripe = payouts.filter((started) => started.method === "stripe");
  const notice = [
    byPaypal.length > 0
      ? run.unclaimed > 0
        ? `${total(byPaypal)} sent to ${byPaypal[0]!.recipient} by PayPal, waiting for you to claim it at PayPal: see Payouts below.`
        : `${total(byPaypal)} ${run.waiting > 0 ? "is on its way" : "paid"} to ${byPaypal[0]!.recipient} by PayPal.`
      : null,
    toStripe.length > 0 ? `${total(toStripe)} transferred to your Stripe account.` : null,
  ]
    .filter(Boolean)
    .join(" ");
  return replyWith({ fieldErrors: {}, formError: null, values: { intent: "withdraw" }, notice }, 200);
}

export default function PaymentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { payout, stripeStep, stripeCountry, money, nextRun, now, sales, items, item, locale } = loaderData;
  const exportPath = `${href("/dashboard/artist/payments/sales.csv")}${item ? `?${new URLSearchParams({ item })}` : ""}`;
  const settings = payout.payment_settings;
  const refunding = actionData?.values.intent === "refund";
  const withdrawing = actionData?.values.intent === "withdraw";
  const connecting = actionData?.values.intent === "connect-stripe";
  const form = formFields(refunding || withdrawing || connecting ? undefined : actionData);
  const stripe = { account: payout.stripe_account, ready: payout.stripe_ready };
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
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            hint="Needed only to change your PayPal email or where payouts go."
            error={form.error("currentPassword")}
          />
          <PayoutMethodChoice
            chosen={form.text("payoutMethod") === "stripe" || (!actionData && payout.payout_method === "stripe") ? "stripe" : "paypal"}
            stripe={stripe}
            error={form.error("payoutMethod")}
          />
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
              label={`Withdrawal threshold (${settings.default_currency})`}
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
      <div className="mt-6">
        <StripeConnection
          stripe={stripe}
          action={paymentsPath}
          step={stripeStep}
          problem={connecting ? (actionData?.formError ?? null) : null}
          passwordError={connecting ? actionData?.fieldErrors.currentPassword : undefined}
          country={connecting ? String(actionData?.values.country ?? stripeCountry) : stripeCountry}
          countryError={connecting ? actionData?.fieldErrors.country : undefined}
        />
      </div>
      <section aria-labelledby="balance-heading" className="mt-10 max-w-4xl">
        <h2 id="balance-heading" className="text-xl font-bold">
          Balance
        </h2>
        <div className="mt-3 grid gap-3">
          <FormAlert>{withdrawing ? actionData?.formError : null}</FormAlert>
          <FormAlert tone="success">{withdrawing ? actionData?.notice : null}</FormAlert>
          <Balances
            money={money}
            plan={{
              method: payout.payout_method,
              stripeReady: payout.stripe_ready,
              autoWithdraw: settings.auto_withdraw,
              threshold: settings.withdraw_threshold,
              paypalEmail: payout.paypal_email,
              nextRun: `at ${nextRun}`,
            }}
            action={paymentsPath}
            now={now}
            locale={locale}
          />
        </div>
      </section>
      <section aria-labelledby="sales-heading" className="mt-10">
        <h2 id="sales-heading" className="text-xl font-bold">
          Sales
        </h2>
        <p className="mt-1 text-sm text-ink-muted">
          Your newest sales, with your share of each ({artistShare.digitalPercent}% of a download&rsquo;s price after discounts,{" "}
          {artistShare.physicalPercent}% of merch&rsquo;s and all of its shipping). A refund gives the fan their money back and takes the
          sale and your share away.
        </p>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          {items.length > 0 ? (
            <Form method="get" action={paymentsPath} className="flex flex-wrap items-end gap-3">
              <SelectField
                label="Release or item"
                name="item"
                defaultValue={item ?? ""}
                placeholder="Everything"
                options={items.map((sold) => ({ value: sold.item_id, label: `${sold.title} (${sold.kind})` }))}
              />
              <Button type="submit" variant="secondary">
                Show
              </Button>
            </Form>
          ) : null}
          <LinkButton to={exportPath} reloadDocument variant="secondary">
            Download CSV
          </LinkButton>
        </div>
        <div className="mt-3 grid gap-3">
          <FormAlert>{refunding ? actionData?.formError : null}</FormAlert>
          <FormAlert tone="success">{refunding ? actionData?.notice : null}</FormAlert>
          <SalesTable sales={sales} action={paymentsPath} locale={locale} />
        </div>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
