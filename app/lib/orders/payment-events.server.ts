// A payment provider's events, applied one way whether its webhook brought them or an administrator asked
// for one again ("Apply again" on the Admin Dashboard): what a checkout's payment came to, a charge refunded
// (and the transfers of its lines taken back), a dispute opened or closed, an artist's payout account
// updated, a membership's period paid or its subscription set to end or ended. Each event applied once (the
// database takes its id once); one that fails is kept with its error for administrators
// (`failed_payment_events`) until a delivery of it is applied.
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { formError, type FormReply } from "~/lib/forms/forms";
import { envFrom } from "~/lib/http/env.server";
import { recordStripeAccount } from "~/lib/payouts/stripe-accounts.server";
import type { AppliableNews, PaymentEvent, PaymentProvider, WebhookNews } from "~/lib/providers/payment-provider";
import { paymentProvider } from "~/lib/providers/payments.server";
import { vouchedClient } from "~/lib/session/session.server";
import { applyPaymentNews, settleCheckout } from "./checkout.server";
import { applyMembershipNews } from "./memberships.server";
import { reverseRefundedTransfers } from "./refunds.server";

/** What became of an event: applied, ignored (nothing of the marketplace's), or the reason it failed. */
export type EventOutcome = { applied: true } | { ignored: true } | { failure: string };

/**
 * Applies what one event says and records how it went (a failure kept with its reason, an applied event's
 * earlier failure forgotten). Never throws for the event's own work; throws when its outcome cannot be
 * recorded.
 */
export async function applyPaymentEvent(
  request: Request,
  context: Readonly<RouterContextProvider>,
  providerName: string,
  provider: PaymentProvider,
  news: AppliableNews,
): Promise<EventOutcome> {
  let outcome: EventOutcome;
  try {
    outcome = await apply(request, context, provider, news);
  } catch (error) {
    console.error("a payment provider's event could not be applied", news.event.id, error);
    outcome = { failure: failureOf(error) };
  }
  await recordOutcome(context, providerName, news.event, "failure" in outcome ? outcome.failure : undefined);
  return outcome;
}

async function apply(
  request: Request,
  context: Readonly<RouterContextProvider>,
  payments: PaymentProvider,
  news: AppliableNews,
): Promise<EventOutcome> {
  if ("payoutAccount" in news) await recordStripeAccount(context, news.payoutAccount);
  else if ("checkout" in news) await settleCheckout(request, context, payments, news);
  else if ("payment" in news) {
    await applyPaymentNews(context, news);
    if ("refunded" in news.payment) await reverseRefundedTransfers(context);
  } else if ("membership" in news) await applyMembershipNews(context, news.membership);
  else return { ignored: true };
  return { applied: true };
}

/** An error's message and what caused it (the database's own words), as an administrator reads it. */
function failureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error;
  const said = typeof cause === "object" && cause !== null && "message" in cause && typeof cause.message === "string" ? cause.message : "";
  return said !== "" ? `${error.message}: ${said}` : error.message;
}

/**
 * An event refused as sent (another API version than the app's): kept with the reason for administrators,
 * as one that failed, so an endpoint set wrong shows on the Admin Dashboard rather than in the logs alone.
 */
export async function keepRefusedEvent(
  context: Readonly<RouterContextProvider>,
  providerName: string,
  news: Extract<WebhookNews, { refused: string }>,
) {
  await recordOutcome(context, providerName, news.event, news.refused);
}

async function recordOutcome(context: Readonly<RouterContextProvider>, provider: string, event: PaymentEvent, failure?: string) {
  const { error } = await vouchedClient(context).rpc("payment_event_outcome", {
    provider,
    event_id: event.id,
    event_type: event.type,
    account: event.account,
    failure,
  });
  if (error) throw new Error(`recording how event ${event.id} went failed`, { cause: error });
}

const ListedEventSchema = v.nullable(v.object({ provider: v.string(), account: v.nullable(v.string()) }));

/**
 * An administrator's "Apply again" of an event listed as not applied (the database checks they are one,
 * finds the event's provider and account, and writes the audit log): asked of its provider again (a
 * connected account's on its behalf) and applied as its webhook would apply it. Answers the reply to show.
 */
export async function applyEventAgain(request: Request, context: Readonly<RouterContextProvider>, eventId: string): Promise<FormReply> {
  const values = { intent: "apply-event" };
  const { data, error } = await vouchedClient(context).rpc("payment_event_to_apply", { event_id: eventId });
  if (error) throw new Error(`finding event ${eventId} to apply again failed`, { cause: error });
  const listed = v.parse(ListedEventSchema, data);
  if (!listed) return formError("This event is no longer waiting: it was applied since.", values);
  const { provider: providerName, account } = listed;
  const provider = paymentProvider(envFrom(context), providerName);
  if (!provider) return formError("This payment provider is not set up here.", values);
  let news: AppliableNews | null;
  try {
    news = await provider.eventNews(eventId, account ?? undefined);
  } catch (error) {
    return formError(`The payment provider could not be reached: ${failureOf(error)}`, values);
  }
  if (!news) return formError("The payment provider no longer has this event (Stripe keeps events for 30 days).", values);
  const outcome = await applyPaymentEvent(request, context, providerName, provider, news);
  if ("failure" in outcome) return formError(`It failed again: ${outcome.failure}`, values);
  const notice = "ignored" in outcome ? "Nothing to apply: the marketplace does not act on this event." : "Applied.";
  return { fieldErrors: {}, formError: null, values, notice };
}
