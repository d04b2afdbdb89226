import { data, href, Link, redirect, type RouterContextProvider } from "react-router";
import * as v from "valibot";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { orderStates, soldKinds } from "~/lib/constants";
import { formatMoney } from "~/lib/format";
import { OrderTaxes } from "~/components/payments/order-taxes";
import { OrderTaxesSchema, taxTotal } from "~/lib/schemas/checkout";
import { waiverRecord } from "~/lib/payments/withdrawal";
import { itemLabel, itemPath, sameItem, shippingNote } from "~/lib/payments/cart";
import { envFrom } from "~/lib/http/env.server";
import { uncached } from "~/lib/http/http-cache";
import { receiptPass } from "~/lib/http/signed-values.server";
import { visitorCartCookie, visitorLines } from "~/lib/payments/cart.server";
import { requireUser } from "~/lib/session/guards.server";
import { supabaseContext, userContext, vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import { settleReturn } from "~/lib/orders/checkout.server";
import type { Route } from "./+types/done";

// Where the payment provider sends the buyer back (`session_id`: their checkout): their order, as the
// provider says it stands. It asks the provider itself (the webhook may not have arrived yet) and applies
// what it says, so a paid order's downloads are there at once, never "no purchase"; a bank payment still
// settling says so.

export const meta = () => pageMeta("Thank you", "Your order.");

const OrderSchema = v.object({
  id: v.string(),
  state: v.picklist(orderStates),
  currency: v.string(),
  total: v.number(),
  waived_withdrawal: v.boolean(),
  ship_to: v.nullable(v.string()),
  taxes: OrderTaxesSchema,
  lines: v.array(
    v.object({
      kind: v.picklist(soldKinds),
      item_id: v.nullable(v.string()),
      title: v.string(),
      quantity: v.number(),
      total: v.number(),
      /** A gift's recipient, mailed a link to claim it. */
      gift_for: v.optional(v.nullable(v.string())),
    }),
  ),
});

const GuestOrderSchema = v.nullable(
  v.object({
    id: v.string(),
    paid_at: v.string(),
    lines: v.array(v.object({ kind: v.picklist(soldKinds), item_id: v.nullable(v.string()) })),
  }),
);

/**
 * A guest back from paying: the checkout (its id is the secret the provider handed them, or a free order's
 * random one) asked of the provider and applied, then, once the guest's order of exactly that checkout is paid, their
 * receipt link, with what they bought out of their cart. A payment still settling says so (the receipt,
 * with the link, is mailed when it lands). Anything else is an account's order: its buyer logs in.
 */
async function guestReturn(request: Request, context: Readonly<RouterContextProvider>, sessionId: string) {
  if ((await settleReturn(request, context, sessionId)) === "pending") return { guestPending: true as const };
  // A checkout's id (a provider's, or a free order's), never anything else, is looked up.
  if (/^[a-z]+_[\w-]+$/.test(sessionId)) {
    const { data: found, error } = await vouchedClient(context).rpc("guest_checkout_order", { checkout_session: sessionId });
    if (error) throw new Error("reading a guest's order on its return page failed", { cause: error });
    const order = v.parse(GuestOrderSchema, found);
    if (order) {
      const bought = order.lines.map((line) => ({ kind: line.kind, id: line.item_id ?? "" }));
      const pass = await receiptPass(envFrom(context).MARKETPLACE_SECRET, order.id, new Date(order.paid_at), "return page");
      throw redirect(href("/receipt/:pass", { pass }), {
        status: 303,
        headers: {
          ...uncached,
          "Set-Cookie": visitorCartCookie(
            request,
            visitorLines(request).filter((line) => !bought.some((item) => sameItem(item, line))),
          ),
        },
      });
    }
  }
  requireUser(request, context);
  throw data("Order not found", { status: 404 });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  if (!context.get(userContext)) return guestReturn(request, context, sessionId);
  const supabase = context.get(supabaseContext);
  const read = async () =>
    readOrThrow(await supabase.rpc("checkout_order", { checkout_session: sessionId }), {
      what: "order",
      schema: OrderSchema,
      notFound: "Order not found",
    });
  // Only the buyer's own order is found: a session id of someone else's is not.
  let order = await read();
  if (order.state !== "paid" && (await settleReturn(request, context, sessionId))) order = await read();
  if (order.state === "expired" || order.state === "failed")
    throw data(order.state === "failed" ? "The payment failed: nothing was charged." : "This checkout has ended.", { status: 410 });
  return { order };
}

export default function CheckoutDone({ loaderData }: Route.ComponentProps) {
  if ("guestPending" in loaderData) {
    return (
      <div className="mx-auto max-w-2xl">
        <h1 className="mb-2 text-3xl font-bold">Payment pending</h1>
        <p className="text-ink-muted">
          Your bank has not confirmed the payment yet. We will email your receipt, with the link to your downloads, as soon as it does.
        </p>
      </div>
    );
  }
  const { order } = loaderData;
  const money = (cents: number) => formatMoney(cents, order.currency);
  const paid = order.state === "paid";
  // What is the buyer's own to download now: not a gift, which its recipient claims.
  const ownMusic = order.lines.some((line) => line.kind !== "merch" && !line.gift_for);
  const gifts = order.lines.some((line) => line.gift_for);
  const { heading, message } =
    order.state === "paid"
      ? {
          heading: "Thank you!",
          message: `Your order is paid: ${money(order.total + taxTotal(order.taxes))}.${ownMusic ? " Its music is yours to play and download now." : ""}${gifts ? " Each gift is mailed to its recipient on its send date, with a link to claim it: Purchased says when it is claimed." : ""}`,
        }
      : order.state === "pending"
        ? {
            heading: "Payment pending",
            message:
              "Your bank has not confirmed the payment yet. What you bought appears in your purchases as soon as it does; reload this page to see.",
          }
        : {
            heading: "Not paid yet",
            message: "This payment was not completed, and nothing was charged. Your cart still holds your items.",
          };
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-2 text-3xl font-bold">{heading}</h1>
      <p className="mb-6 text-ink-muted">{message}</p>
      <Card>
        <h2 className="mb-3 text-xl font-semibold">Your order</h2>
        <ul className="grid gap-2">
          {order.lines.map((line) => {
            const page = itemPath(line.kind, line.item_id);
            return (
              <li key={`${line.kind}:${line.item_id ?? line.title}`} className="flex items-center justify-between gap-3">
                <span className="min-w-0 truncate">
                  {page ? <Link to={page}>{line.title}</Link> : line.title}
                  <span className="text-ink-muted">
                    {" "}
                    · {itemLabel(line.kind, line.quantity)}
                    {line.gift_for ? ` · a gift for ${line.gift_for}` : null}
                  </span>
                </span>
                <span className="shrink-0">{money(line.total)}</span>
              </li>
            );
          })}
        </ul>
        <OrderTaxes taxes={order.taxes} money={money} />
        {paid && ownMusic ? <p className="mt-4 text-sm text-ink-muted">Open each one to download it in the format you like.</p> : null}
        {order.ship_to ? <p className="mt-2 text-sm text-ink-muted">{shippingNote(order.ship_to)}</p> : null}
        {order.waived_withdrawal ? <p className="mt-2 text-sm text-ink-muted">{waiverRecord}</p> : null}
      </Card>
      <div className="mt-6 flex flex-wrap gap-3">
        {order.state === "open" ? <LinkButton to={href("/cart")}>Back to your cart</LinkButton> : null}
        <LinkButton to={href("/discover")} variant="secondary">
          Keep exploring
        </LinkButton>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
