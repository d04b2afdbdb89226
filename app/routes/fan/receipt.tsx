import { data, Form, href, redirect } from "react-router";
import * as v from "valibot";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DownloadLinks } from "~/components/catalog/download-links";
import { Badge } from "~/components/ui/badge";
import { FormAlert } from "~/components/form-controls";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { downloadChoices } from "~/lib/media/downloads";
import { formatMoney, formatOrderReference } from "~/lib/format";
import { envFrom, guestOrderHeader, marketplaceHeader } from "~/lib/http/env.server";
import { uncached } from "~/lib/http/http-cache";
import { readReceiptPass, receiptPassDays } from "~/lib/http/signed-values.server";
import { waiverRecord } from "~/lib/payments/withdrawal";
import { cartKinds, itemLabel, shippingNote } from "~/lib/payments/cart";
import { formError, replyWith } from "~/lib/forms/forms";
import { requireUser } from "~/lib/session/guards.server";
import { supabaseContext, userContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/receipt";

// A guest's receipt link (in their receipt, and where the return page sends them): what their order
// bought, each to download in the formats on offer (as an account's Purchased offers them), in any browser, for 30 days after the payment, without an account.
// The link is signed by the Worker; the marketplace names its order to the database, which answers for it
// alone. Never cached: the page is the link's holder's alone.

export const meta = () => [...pageMeta("Your purchase", "What you bought, to download."), { name: "robots", content: "noindex" }];

const ReceiptSchema = v.object({
  id: v.string(),
  currency: v.string(),
  total: v.number(),
  email: v.string(),
  waived_withdrawal: v.boolean(),
  ship_to: v.nullable(v.string()),
  lines: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(cartKinds),
      quantity: v.number(),
      track_id: v.nullable(v.string()),
      release_id: v.nullable(v.string()),
      title: v.string(),
      artist_name: v.string(),
      total: v.number(),
      refunded: v.boolean(),
      masters: v.array(v.object({ format: v.string(), mp3_kbps: v.nullable(v.number()) })),
    }),
  ),
});

/** The order a receipt link names, or the page that says it has lapsed. */
async function orderOf(context: Route.LoaderArgs["context"], pass: string) {
  const guestOrder = await readReceiptPass(envFrom(context).MARKETPLACE_SECRET, pass);
  if (!guestOrder) {
    throw data(`This receipt link has lapsed (links hold ${receiptPassDays} days), or is not one of ours. Log in to find your purchases.`, {
      status: 410,
      headers: uncached,
    });
  }
  return guestOrder;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const guestOrder = await orderOf(context, params.pass);
  const receipt = readOrThrow(
    await context
      .get(supabaseContext)
      .rpc("guest_receipt")
      .setHeader(...marketplaceHeader(context))
      .setHeader(...guestOrderHeader(guestOrder)),
    { what: "receipt", schema: ReceiptSchema, notFound: "Receipt not found" },
  );
  // Each line's formats on offer, named here (the page carries no registry of formats).
  const lines = receipt.lines.map((line) => ({ ...line, downloads: line.masters.length > 0 ? downloadChoices(line.masters) : [] }));
  return data(
    { receipt: { ...receipt, lines }, pass: params.pass, days: receiptPassDays, signedIn: context.get(userContext) !== null },
    { headers: uncached },
  );
}

/**
 * "Add to my account": the signed-in account whose email is the order's takes it (the link proves the
 * mailbox); then its purchases are in Purchased.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const guestOrder = await orderOf(context, params.pass);
  requireUser(request, context);
  const { data: joined, error } = await context
    .get(supabaseContext)
    .rpc("join_guest_order")
    .setHeader(...marketplaceHeader(context))
    .setHeader(...guestOrderHeader(guestOrder));
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

export default function Receipt({ loaderData, actionData }: Route.ComponentProps) {
  const { receipt, pass, days, signedIn } = loaderData;
  const money = (cents: number) => formatMoney(cents, receipt.currency);
  const query = `?${new URLSearchParams({ receipt: pass })}`;
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-2 text-3xl font-bold">Your purchase</h1>
      <p className="mb-6 text-ink-muted">
        Order {formatOrderReference(receipt.id)}, {money(receipt.total)}. This page is yours for {days} days after the payment, in any
        browser.
      </p>
      <Card>
        <ul className="grid gap-3">
          {receipt.lines.map((line) => {
            const id = line.kind === "album" ? line.release_id : line.track_id;
            const download = id
              ? `${line.kind === "album" ? href("/album/:id/download", { id }) : href("/track/:id/download", { id })}${query}`
              : null;
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
        {receipt.ship_to ? <p className="mt-4 text-sm text-ink-muted">{shippingNote(receipt.ship_to)}</p> : null}
        {receipt.waived_withdrawal ? <p className="mt-4 text-sm text-ink-muted">{waiverRecord}</p> : null}
      </Card>
      <div className="mt-6 grid gap-3">
        <FormAlert>{actionData?.formError}</FormAlert>
        {signedIn ? (
          <Form method="post" action={href("/receipt/:pass", { pass })}>
            <Button type="submit">Add to my account</Button>
          </Form>
        ) : (
          <p className="text-ink-muted">
            Sign up or log in with {receipt.email}, then open this link again to add what you bought to your account.
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
