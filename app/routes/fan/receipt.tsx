import { data, Form, href, redirect } from "react-router";
import * as v from "valibot";
import { errorMessage, GeneralErrorBoundary } from "~/components/error-boundary";
import { DownloadLinks } from "~/components/catalog/download-links";
import { Badge } from "~/components/ui/badge";
import { FormAlert } from "~/components/form-controls";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { downloadChoices } from "~/lib/media/downloads";
import { formatMoney, formatOrderReference } from "~/lib/format";
import { OrderTaxes } from "~/components/payments/order-taxes";
import { OrderTaxesSchema, taxTotal } from "~/lib/schemas/checkout";
import { envFrom } from "~/lib/http/env.server";
import { linkHolderPageHeaders, uncached } from "~/lib/http/http-cache";
import { readReceiptPass, receiptPassDays } from "~/lib/http/signed-values.server";
import { waiverRecord } from "~/lib/payments/withdrawal";
import { downloadPath, itemLabel, shippingNote } from "~/lib/payments/cart";
import { formError, replyWith } from "~/lib/forms/forms";
import { requireUser } from "~/lib/session/guards.server";
import { useOptionalUser } from "~/lib/session/use-user";
import { brandName, soldKinds } from "~/lib/constants";
import { userContext, vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/receipt";

// A guest's receipt link (in their receipt, and where the return page sends them): what their order
// bought, each to download in the formats on offer (as an account's Purchased offers them), in any browser, for 30 days after the payment, without an account.
// The link is signed by the Worker; the marketplace names its order to the database, which answers for it
// alone. Never cached: the page is the link's holder's alone.

export const meta = () => [...pageMeta("Your purchase", "What you bought, to download."), { name: "robots", content: "noindex" }];

// Every answer, the page, a form's reply or an invalid link's, is the link holder's alone.
export const headers = linkHolderPageHeaders;

const ReceiptSchema = v.object({
  id: v.string(),
  currency: v.string(),
  total: v.number(),
  email: v.string(),
  waived_withdrawal: v.boolean(),
  ship_to: v.nullable(v.string()),
  taxes: OrderTaxesSchema,
  lines: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(soldKinds),
      quantity: v.number(),
      item_id: v.nullable(v.string()),
      title: v.string(),
      artist_name: v.string(),
      total: v.number(),
      refunded: v.boolean(),
      masters: v.array(v.object({ format: v.string(), mp3_kbps: v.nullable(v.number()) })),
    }),
  ),
});

/** The order a receipt link names (and whether it is the mailed link), or the page that says it has lapsed. */
async function orderOf(context: Route.LoaderArgs["context"], pass: string) {
  const guestOrder = await readReceiptPass(envFrom(context).MARKETPLACE_SECRET, pass);
  if (!guestOrder) {
    throw data(`Receipt links hold ${receiptPassDays} days after the payment. Log in to find your purchases in your account.`, {
      status: 410,
      headers: uncached,
    });
  }
  return guestOrder;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { orderId, mailed } = await orderOf(context, params.pass);
  const receipt = readOrThrow(await vouchedClient(context, { guestOrder: orderId }).rpc("guest_receipt"), {
    what: "receipt",
    schema: ReceiptSchema,
    notFound: "Receipt not found",
  });
  // Each line's formats on offer, named here (the page carries no registry of formats).
  const lines = receipt.lines.map((line) => ({ ...line, downloads: line.masters.length > 0 ? downloadChoices(line.masters) : [] }));
  return data(
    { receipt: { ...receipt, lines }, pass: params.pass, days: receiptPassDays, signedIn: context.get(userContext) !== null, mailed },
    { headers: uncached },
  );
}

/**
 * "Add to my account": the signed-in account whose email is the order's takes it, through the link its
 * receipt mail carries alone (which proves the account's email as a confirmation would: the return page's
 * link proves only the browser that paid); then its purchases are in Purchased.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { orderId, mailed } = await orderOf(context, params.pass);
  requireUser(request, context);
  if (!mailed) return replyWith(formError(fromTheMail), 403);
  const { data: joined, error } = await vouchedClient(context, { guestOrder: orderId }).rpc("join_guest_order");
  if (error) {
    console.error("joining a guest order failed", error);
    return replyWith(formError("This order could not be added to your account. Please try again."), 500);
  }
  if (!joined) {
    return replyWith(
      formError("This order was bought with another email address: log in with that address to add it to your account."),
      409,
    );
  }
  throw redirect(href("/dashboard/fan/purchased"), 303);
}

const fromTheMail = "To add this order to your account, open the link in your receipt email: it proves the address is yours.";

export default function Receipt({ loaderData, actionData }: Route.ComponentProps) {
  const { receipt, pass, days, signedIn, mailed } = loaderData;
  const money = (cents: number) => formatMoney(cents, receipt.currency);
  const query = `?${new URLSearchParams({ receipt: pass })}`;
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-2 text-3xl font-bold">Your purchase</h1>
      <p className="mb-6 text-ink-muted">
        Order {formatOrderReference(receipt.id)}, {money(receipt.total + taxTotal(receipt.taxes))}. This page is yours for {days} days after
        the payment, in any browser.
      </p>
      <Card>
        <ul className="grid gap-3">
          {receipt.lines.map((line) => {
            const path = downloadPath(line.kind, line.item_id);
            const download = path === null ? null : `${path}${query}`;
            return (
              <li key={line.id}>
                <p className="flex flex-wrap items-center justify-between gap-3">
                  <span className="min-w-0">
                    <span className="font-semibold">{line.title}</span>
                    <span className="text-ink-muted">
                      {" "}
                      · {line.artist_name} · {itemLabel(line.kind, line.quantity)} · {money(line.total)}
                    </span>
                  </span>
                  {line.refunded ? <Badge tone="danger">Refunded</Badge> : null}
                </p>
                {!line.refunded && download && line.downloads.length > 0 ? (
                  <DownloadLinks path={download} title={line.title} album={line.kind === "album"} choices={line.downloads} />
                ) : null}
              </li>
            );
          })}
        </ul>
        <OrderTaxes taxes={receipt.taxes} money={money} />
        {receipt.ship_to ? <p className="mt-4 text-sm text-ink-muted">{shippingNote(receipt.ship_to)}</p> : null}
        {receipt.waived_withdrawal ? <p className="mt-4 text-sm text-ink-muted">{waiverRecord}</p> : null}
      </Card>
      <div className="mt-6 grid gap-3">
        <FormAlert>{actionData?.formError}</FormAlert>
        {signedIn && mailed ? (
          <Form method="post" action={href("/receipt/:pass", { pass })}>
            <Button type="submit">Add to my account</Button>
          </Form>
        ) : signedIn ? (
          <p className="text-ink-muted">{fromTheMail}</p>
        ) : (
          <p className="text-ink-muted">
            Sign up or log in with {receipt.email}, then open the link in your receipt email to add what you bought to your account.
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        {signedIn ? null : <LinkButton to={href("/register/fan")}>Sign up</LinkButton>}
        <LinkButton to={href("/discover")} variant="secondary">
          Keep exploring
        </LinkButton>
      </div>
    </div>
  );
}

/**
 * A receipt link that names no receipt (lapsed, altered, or its order gone): where the purchases are
 * instead, not an error to reload.
 */
function InvalidReceiptLink({ message }: { message: string }) {
  const user = useOptionalUser();
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <title>{`Receipt link invalid or expired · ${brandName}`}</title>
      <h1 className="text-3xl font-bold">This receipt link is invalid or expired</h1>
      <p className="mt-3 text-ink-muted">{message}</p>
      <div className="mt-8 flex justify-center gap-3">
        {user ? (
          <LinkButton to={href("/dashboard/fan/purchased")}>Your purchases</LinkButton>
        ) : (
          <LinkButton to={`${href("/login")}?${new URLSearchParams({ redirectTo: href("/dashboard/fan/purchased") })}`}>Log in</LinkButton>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        410: ({ error }) => <InvalidReceiptLink message={errorMessage(error)} />,
        404: () => <InvalidReceiptLink message="Its order is not one we know. Log in to find your purchases in your account." />,
      }}
    />
  );
}
