import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { DataTable } from "~/components/ui/data-table";
import { EmptyState } from "~/components/ui/empty-state";
import { formatDate, formatMoney } from "~/lib/format";
import { formatDaysLeftToClaim, paypalSignUpUrl } from "~/lib/payouts/claim";
import type { ArtistPayouts, Balance } from "~/lib/schemas/payouts";

/** The payout settings the balances are read against. */
type PayoutPlan = {
  method: "paypal" | "stripe";
  stripeReady: boolean;
  autoWithdraw: boolean;
  threshold: number;
  paypalEmail: string;
  nextRun: string;
};

/** An artist's balances per currency (the ledger's sums), what comes next, and "Withdraw now". */
export function Balances({
  money,
  plan,
  action,
  now,
  locale,
}: {
  money: ArtistPayouts;
  plan: PayoutPlan;
  action: string;
  now: number;
  locale: string;
}) {
  if (money.balances.length === 0)
    return <EmptyState title="No earnings yet">Your share of each sale shows here, and is paid out from here.</EmptyState>;
  const byStripe = plan.method === "stripe";
  // A PayPal payout waiting to be claimed holds back the next in its currency until PayPal pays or returns it.
  const unclaimedIn = (balance: Balance) =>
    money.payouts.some(
      (payout) => payout.method === "paypal" && payout.state === "sending" && payout.unclaimed_at && payout.currency === balance.currency,
    );
  // Through Stripe each settled sale moves as it settles; through PayPal the balance at the threshold.
  const due = (balance: Balance) =>
    byStripe ? plan.stripeReady && balance.available > 0 : balance.available >= plan.threshold * 100 && !unclaimedIn(balance);
  // The threshold in the balance's currency, and how much is left to reach it.
  const toReach = (balance: Balance) =>
    `${formatMoney(plan.threshold * 100, balance.currency)} (${formatMoney(plan.threshold * 100 - balance.available, balance.currency)} to go)`;
  return (
    <div className="grid gap-4">
      {money.balances.map((balance) => (
        <Card key={balance.currency} className="grid gap-4">
          <h3 className="text-lg font-semibold">{balance.currency}</h3>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Figure label="Available" value={formatMoney(balance.available, balance.currency)} />
            <Figure label="Pending" value={formatMoney(balance.pending, balance.currency)} />
            <Figure label="Paid out" value={formatMoney(balance.paid_out, balance.currency)} />
            <Figure label="Earned" value={formatMoney(balance.earned, balance.currency)} />
          </dl>
          {balance.held > 0 ? (
            <p className="text-sm text-ink-muted">
              {formatMoney(balance.held, balance.currency)} is held while a buyer disputes a payment, until the dispute closes.
            </p>
          ) : null}
          {balance.available < 0 ? (
            <p className="text-sm text-ink-muted">
              A refund came after its sale was paid out: your next sales settle the {formatMoney(-balance.available, balance.currency)}{" "}
              first.
            </p>
          ) : null}
          <p className="text-sm text-ink-muted">
            {byStripe
              ? plan.stripeReady
                ? `Each sale moves to your Stripe account once it settles; the next run is ${plan.nextRun}. Stripe then pays your bank on its schedule.`
                : "Payouts wait until your Stripe account is ready: finish setting it up above."
              : unclaimedIn(balance)
                ? "Your next PayPal payout waits until you claim the one waiting for you at PayPal (see Payouts below), or PayPal returns it."
                : plan.autoWithdraw
                  ? due(balance)
                    ? `Next automatic payout: ${formatMoney(balance.available, balance.currency)} to ${plan.paypalEmail} by PayPal, ${plan.nextRun}.`
                    : `Next automatic payout: when your available balance reaches ${toReach(balance)}.`
                  : due(balance)
                    ? "Automatic withdrawals are off: Withdraw now pays out your available balance."
                    : `Automatic withdrawals are off: "Withdraw now" is available once your available balance reaches ${toReach(balance)}.`}
          </p>
          {due(balance) ? (
            <Form method="post" action={action}>
              <input type="hidden" name="intent" value="withdraw" />
              <Button type="submit" variant="secondary">
                Withdraw now<span className="sr-only"> {formatMoney(balance.available, balance.currency)}</span>
              </Button>
            </Form>
          ) : null}
        </Card>
      ))}
      <p className="text-sm text-ink-muted">
        Your share of a sale is pending for {money.settlement_days} days, while the payment settles, then available to pay out.
      </p>
      <PayoutHistory payouts={money.payouts} now={now} locale={locale} />
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="text-xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

const stateLabels = { sending: "On its way", paid: "Paid", failed: "Failed" } as const;

/** A payout's amount, and what Stripe sent in the platform's currency when the sale was in another, at the sale's rate. */
function PayoutAmount({ payout }: { payout: ArtistPayouts["payouts"][number] }) {
  const amount = formatMoney(payout.amount, payout.currency);
  if (!payout.sent_currency || payout.sent_amount === null || payout.exchange_rate === null) return amount;
  return (
    <>
      {amount}
      <span className="block text-sm text-ink-muted">
        sent as {formatMoney(payout.sent_amount, payout.sent_currency)} (
        {`1 ${payout.currency} = ${payout.exchange_rate} ${payout.sent_currency}`})
      </span>
    </>
  );
}

/**
 * The newest payouts with their outcome (a failure with its reason; one PayPal holds for the artist to claim,
 * with the days left and where to claim it: its money comes back only if PayPal returns it).
 */
function PayoutHistory({ payouts, now, locale }: { payouts: ArtistPayouts["payouts"]; now: number; locale: string }) {
  if (payouts.length === 0) return null;
  return (
    <DataTable
      caption="Payouts"
      showCaption
      minWidth="40rem"
      rows={payouts}
      rowKey={(payout) => payout.id}
      columns={[
        { heading: "Date", cell: (payout) => formatDate(payout.created_at, locale) },
        { heading: "Amount", figures: true, cell: (payout) => <PayoutAmount payout={payout} /> },
        {
          heading: "To",
          cell: (payout) =>
            payout.method === "paypal"
              ? `${payout.recipient} (PayPal)`
              : `Your Stripe account${payout.description ? `: ${payout.description}` : ""}`,
        },
        { heading: "Asked by", cell: (payout) => (payout.requested_by === "artist" ? "You (Withdraw now)" : "Automatic") },
        {
          heading: "State",
          cell: (payout) =>
            payout.reversed_at ? (
              <>
                <Badge>Reversed</Badge> The sale was refunded, so Stripe took the transfer back.
              </>
            ) : payout.state === "failed" ? (
              <>
                <Badge tone="danger">Failed</Badge> {payout.failure} The money is back in your balance.
              </>
            ) : payout.state === "sending" && payout.unclaimed_at ? (
              <>
                <Badge>Unclaimed</Badge> Waiting for you to claim it at PayPal ({formatDaysLeftToClaim(payout.unclaimed_at, now)}): sign in
                to PayPal with {payout.recipient} and accept it, or, if that address has no PayPal account,{" "}
                <a href={paypalSignUpUrl} className="underline">
                  sign up at PayPal
                </a>{" "}
                with it. Unclaimed by then, PayPal returns it to your balance.
              </>
            ) : (
              <Badge>{stateLabels[payout.state]}</Badge>
            ),
        },
      ]}
    />
  );
}
