// Refunds, by an order line's artist or an administrator: the database says whether the caller may and
// what to refund (`line_to_refund`), the provider that took the money refunds that line's total of the
// order's payment (once per line: the line's id is the idempotency key), and the database records it
// (`record_refund`: the purchases go, so the download is refused and the analytics take the sale back; the
// buyer is mailed). A line already paid to its artist per sale (a Stripe transfer) is taken back at once.
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { cloudflareContext } from "~/lib/http/context.server";
import { envFrom } from "~/lib/http/env.server";
import { marketplaceClient } from "~/lib/backend/marketplace-client.server";
import { reverseRefundedPayouts } from "~/lib/payouts/payout-job.server";
import { paymentProvider } from "~/lib/providers/payments.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { vouchedClient } from "~/lib/session/session.server";
import { sqlState } from "~/lib/backend/sqlstate";

const LineToRefund = v.object({
  line_id: v.string(),
  payment_intent: v.nullable(v.string()),
  /** Who took the order's money (`orders.provider`). */
  provider: v.nullable(v.string()),
  total: v.number(),
  currency: v.string(),
  refunded: v.boolean(),
});

export type RefundOutcome = { notice: string } | { refused: string };

/** Refunds one order line as the signed-in artist or administrator. */
export async function refundLine(request: Request, context: Readonly<RouterContextProvider>, lineId: string): Promise<RefundOutcome> {
  const backend = vouchedClient(context);
  const asked = await backend.rpc("line_to_refund", { line_id: lineId });
  if (asked.error) {
    if (asked.error.code === sqlState.insufficientPrivilege)
      return { refused: "Only the artist of this sale or an administrator can refund it." };
    if (asked.error.code === sqlState.invalidParameter) return { refused: "This order is not paid, so there is nothing to refund." };
    console.error("reading a line to refund failed", asked.error);
    return { refused: "The refund could not be made. Please try again." };
  }
  const line = v.parse(LineToRefund, asked.data);
  if (line.refunded) return { notice: "This sale is refunded already." };
  let refundId: string | undefined;
  // A line that cost nothing (a code took all of it) or a free order has no payment to give back.
  if (line.payment_intent && line.total > 0) {
    const provider = paymentProvider(envFrom(context), line.provider);
    if (!provider) return { refused: "Refunds are not available: payments are not set up." };
    try {
      refundId = await provider.refundLine({ id: line.line_id, payment: line.payment_intent, amount: line.total });
    } catch (error) {
      console.error("a refund failed", line.line_id, error);
      return { refused: `The payment provider did not make the refund: ${error instanceof Error ? error.message : "unknown error"}` };
    }
  }
  const recorded = await backend.rpc("record_refund", { line_id: line.line_id, refund_id: refundId });
  if (recorded.error) {
    // The money went back; the provider's news of the refund still reaches the order through the webhook.
    console.error("recording a refund failed", line.line_id, recorded.error);
    return { refused: "The refund was made, but could not be recorded yet. Please try again." };
  }
  await queueMails(context.get(cloudflareContext).env.MAIL, recorded.data ?? []).catch((error: unknown) =>
    console.error("queueing a refund's mail failed", line.line_id, error),
  );
  await reverseRefundedTransfers(context);
  return { notice: "Refunded. The buyer is told by email, and the download is theirs no more." };
}

/**
 * Takes back the payouts of lines refunded since they were paid to their artist per sale (Stripe transfers),
 * at once rather than at the payout job's next run (which would). Never throws: what fails waits for that run.
 */
export async function reverseRefundedTransfers(context: Readonly<RouterContextProvider>): Promise<void> {
  const env = envFrom(context);
  await reverseRefundedPayouts(env, marketplaceClient(env)).catch((error: unknown) =>
    console.error("reversing refunded lines' transfers failed; the payout job tries again", error),
  );
}
