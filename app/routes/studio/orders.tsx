import { Form, href, redirect } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Field } from "~/components/ui/field";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { formatDate, formatMoney, requestLocale } from "~/lib/format";
import { formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { cloudflareContext } from "~/lib/http/context.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { addressLines, itemLabel } from "~/lib/payments/cart";
import { MarkShippedSchema, MerchOrdersSchema, type MerchOrder } from "~/lib/schemas/checkout";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/orders";

export const meta = () => pageMeta("Merch Orders", "The merch fans bought, where to send it, and what you sent.");

const ordersPath = href("/dashboard/artist/orders");

/** The artist's paid merch, those still to send first, each with the address its payment collected. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const orders = readOrThrow(await context.get(supabaseContext).rpc("merch_orders"), { what: "merch orders", schema: MerchOrdersSchema });
  return { orders, locale: requestLocale(request) };
}

/**
 * "Mark as shipped": the line sent, once (its artist's alone, as the database judges), taken out of the
 * item's stock, and the buyer mailed with the tracking number.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireArtist(request, context);
  const submission = parseForm(MarkShippedSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  const { lineId, tracking } = submission.value;
  const { data, error } = await vouchedClient(context).rpc("mark_shipped", { line_id: lineId, tracking: tracking ?? undefined });
  if (error) return refusedWrite(error, { what: "marking merch shipped", values: submission.values });
  await queueMails(context.get(cloudflareContext).env.MAIL, data ?? []).catch((queueing: unknown) =>
    console.error("queueing a shipping notice failed", lineId, queueing),
  );
  throw redirect(ordersPath, 303);
}

export default function MerchOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, locale } = loaderData;
  const toShip = orders.filter((order) => !order.shipped_at).length;
  return (
    <>
      <DashboardHeader title="Merch Orders">
        {toShip > 0 ? `${toShip} to send.` : "Nothing to send."} Mark each one shipped when it is on its way: the fan is told by email.
      </DashboardHeader>
      {orders.length === 0 ? (
        <EmptyState title="No merch orders yet">When fans buy your merch, it appears here with the address to send it to.</EmptyState>
      ) : (
        <ul className="grid gap-4">
          {orders.map((order) => (
            <MerchOrderCard
              key={order.line_id}
              order={order}
              locale={locale}
              reply={actionData?.values.lineId === order.line_id ? actionData : undefined}
            />
          ))}
        </ul>
      )}
    </>
  );
}

function MerchOrderCard({ order, locale, reply }: { order: MerchOrder; locale: string; reply: FormReply | undefined }) {
  const form = formFields(reply);
  const address = addressLines(order.shipping_address);
  return (
    <li>
      <Card className="grid gap-4 sm:grid-cols-[1fr_auto]">
        <div className="min-w-0">
          <p className="font-semibold">
            {order.title} <span className="font-normal text-ink-muted">· {itemLabel("merch", order.quantity)}</span>
          </p>
          <p className="text-sm text-ink-muted">
            Order {order.order_reference}, {formatDate(order.paid_at, locale)} · {formatMoney(order.total, order.currency)}
          </p>
          <address className="mt-3 text-sm not-italic">
            {address.length > 0
              ? address.map((part, index) => (
                  <span key={index} className="block">
                    {part}
                  </span>
                ))
              : "No address was collected."}
          </address>
        </div>
        <div className="sm:w-64">
          {order.shipped_at ? (
            <p className="grid justify-items-start gap-1 text-sm text-ink-muted">
              <Badge>Shipped</Badge>
              {formatDate(order.shipped_at, locale)}
              {order.tracking ? ` · tracking ${order.tracking}` : ""}
            </p>
          ) : (
            <Form method="post" action={ordersPath} noValidate className="grid gap-3">
              <FormAlert>{form.formError}</FormAlert>
              <input type="hidden" name="lineId" value={order.line_id} />
              <Field
                label={
                  <>
                    Tracking number (optional)<span className="sr-only"> for {order.title}</span>
                  </>
                }
                {...form.field("tracking")}
                autoComplete="off"
              />
              <Button type="submit">
                Mark as shipped
                <span className="sr-only">
                  : {order.title}, order {order.order_reference}
                </span>
              </Button>
            </Form>
          )}
        </div>
      </Card>
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
