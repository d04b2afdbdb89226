import { useId, useState } from "react";
import { Form, href, Link, redirect } from "react-router";
import { Captcha } from "~/components/account/captcha";
import { Artwork } from "~/components/catalog/artist-image";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, SelectField } from "~/components/ui/field";
import { albumPath, trackPath } from "~/lib/catalog/catalog";
import { formatMoney } from "~/lib/format";
import { artistPercentOf } from "~/lib/constants";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { uncached } from "~/lib/http/http-cache";
import {
  belowMinimum,
  codeLimit,
  codeMessage,
  itemLabel,
  merchQuantityLimit,
  minimumChargeOf,
  problemMessage,
  smallestPayment,
  tooManyCodes,
  type PricedLine,
} from "~/lib/payments/cart";
import { shippingCountryOptions } from "~/lib/payments/shipping";
import { paymentsOn } from "~/lib/payments/payments-on.server";
import {
  AddToCartSchema,
  CartLineSchema,
  CheckoutSchema,
  DiscountCodeSchema,
  GuestCheckoutSchema,
  ShipToSchema,
  giftOf,
} from "~/lib/schemas/checkout";
import { GiftFields } from "~/components/payments/gift-fields";
import { merchNotGiftable } from "~/lib/payments/gifts";
import { waiverForBuyNow, waiverLabel, waiverNeeded, waiverRequired } from "~/lib/payments/withdrawal";
import { cloudflareContext } from "~/lib/http/context.server";
import { captchaFailedMessage, captchaTokenFrom } from "~/lib/http/captcha";
import { captchaPassed, captchaSiteKey, envFrom } from "~/lib/http/env.server";
import { shopperFrom, userContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import {
  codesCookieHeader,
  pricedCart,
  type Shopper,
  putInCart,
  shipTo,
  shipToCookieHeader,
  takeFromCart,
  typedCodes,
  visitorLines,
} from "~/lib/payments/cart.server";
import { endCheckout, startCheckout } from "~/lib/orders/checkout.server";
import type { Route } from "./+types/cart";
import { pricesAndTax } from "~/lib/providers/payments.server";
import type { TaxInPrices } from "~/lib/providers/payment-provider";

export const meta = () => pageMeta("Your Cart", "What you are about to buy, and paying for it.");

const cartPath = href("/cart");
/** Where Buy Now lands when the download's waiver was not ticked: the cart, which says so beside its own box. */
const waiverAskedPath = `${cartPath}?waiver=asked`;
/** Where the payment page's way back lands once its checkout is ended: the cart, saying nothing was paid. */
const paymentCancelledPath = `${cartPath}?payment=cancelled`;
const giftNeedsAnAccount = "Log in to buy a gift: your account keeps it, so you can see whether it was claimed.";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!paymentsOn(context)) return { payments: false as const };
  // Back from the payment page without paying: its checkout ends (the buyer's own alone: the way back is
  // signed for it), what its order held is let go, and the cart says nothing was charged.
  const back = new URL(request.url).searchParams.get("back");
  if (back !== null) {
    const ended = await endCheckout(request, context, back).catch((error: unknown) => {
      console.error("ending a checkout failed", error);
      return false;
    });
    throw redirect(ended ? paymentCancelledPath : cartPath, { headers: uncached });
  }
  const signedIn = context.get(userContext) !== null;
  const cart = await pricedCart(request, shopperFrom(context));
  return {
    payments: true as const,
    cart,
    waiverAsked: new URL(request.url).searchParams.get("waiver") === "asked",
    paymentCancelled: new URL(request.url).searchParams.get("payment") === "cancelled",
    shipTo: shipTo(request, context.get(cloudflareContext).country),
    signedIn,
    askWaiver: waiverNeeded(context.get(cloudflareContext).country),
    captchaSiteKey: signedIn ? null : captchaSiteKey(context),
    // Whether the prices shown are before tax (the payment adds what is due where the buyer is) or include it.
    tax: pricesAndTax(envFrom(context)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const shopper = shopperFrom(context);
  const { country } = context.get(cloudflareContext);
  const cookies = new Headers(uncached);
  const back = (to = cartPath) => redirect(to, { status: 303, headers: cookies });
  const reply = (answer: FormReply, status: number) => replyWith(answer, status);
  if (!paymentsOn(context)) return reply(formError("Payment options will be available soon."), 503);

  if (intent === "add" || intent === "buy-now" || intent === "gift") {
    // A gift is given from an account, which keeps it (Purchased says whether it was claimed).
    if (intent === "gift" && !context.get(userContext)) return reply(formError(giftNeedsAnAccount), 401);
    const submission = parseForm(AddToCartSchema, formData);
    if (!submission.success) {
      // A gift refused for its fields waits in the cart, where its checkout asks for them again, as typed.
      const line = parseForm(CartLineSchema, formData);
      if (intent === "gift" && line.success) await putInCart(request, shopper, [line.value], cookies);
      return reply(submission.reply, 400);
    }
    const { kind, id, amount, quantity, waiveWithdrawal } = submission.value;
    const refused = await putInCart(request, shopper, [{ kind, id, amount, quantity }], cookies);
    if (refused) return reply(formError(refused, submission.values), 409);
    if (intent === "gift") {
      const started = await startCheckout(request, context, {
        lines: [{ kind, id, amount, quantity }],
        codes: [],
        currency: null,
        followArtists: true,
        // The right to withdraw stays whole: the giver downloads nothing, and may refund the gift until it is claimed.
        waivedWithdrawal: false,
        shipTo: null,
        gift: giftOf(submission.value),
      });
      if ("refused" in started) return reply(formError(started.refused, submission.values), 409);
      throw back(started.pay);
    }
    // Straight to payment with this one item; a visitor finds it in their cart (where they pay as a guest,
    // with an email, or log in), as does a buyer who did not tick the waiver where it is needed (the cart
    // asks for it beside Pay).
    if (intent === "add" || !context.get(userContext)) throw back();
    // Merch goes nowhere yet: the cart asks where it ships.
    if (kind === "merch" && !shipTo(request, country)) throw back();
    if (kind !== "merch" && waiverNeeded(country) && !waiveWithdrawal) throw back(waiverAskedPath);
    const started = await startCheckout(request, context, {
      lines: [{ kind, id, amount, quantity }],
      // A code applies to the order it was typed for: the cart's codes stay with the cart, never silently
      // taking something off an item bought at once.
      codes: [],
      currency: null,
      followArtists: true,
      waivedWithdrawal: waiveWithdrawal,
      shipTo: shipTo(request, country),
    });
    if ("refused" in started) throw back();
    throw back(started.pay);
  }

  if (intent === "remove" || intent === "amount") {
    const submission = parseForm(CartLineSchema, formData);
    if (!submission.success) return reply(submission.reply, 400);
    const { kind, id, amount, quantity } = submission.value;
    if (intent === "remove") await takeFromCart(request, shopper, { kind, id }, cookies);
    else {
      // A price under the item's own stays out of the cart: the field says so, with what was typed.
      const held =
        amount === null ? undefined : (await pricedCart(request, shopper)).lines.find((line) => line.kind === kind && line.id === id);
      if (held && amount !== null && held.minimum !== null && amount < held.minimum)
        return reply(
          { fieldErrors: { amount: belowMinimum(formatMoney(held.minimum, held.currency)) }, formError: null, values: submission.values },
          400,
        );
      const refused = await putInCart(request, shopper, [{ kind, id, amount, quantity }], cookies);
      if (refused) return reply(formError(refused, submission.values), 409);
    }
    throw back();
  }

  if (intent === "code" || intent === "remove-code") {
    const submission = parseForm(DiscountCodeSchema, formData);
    if (!submission.success) return reply(submission.reply, 400);
    const { code } = submission.value;
    const codes = typedCodes(request).filter((typed) => typed.toLowerCase() !== code.toLowerCase());
    if (intent === "code") {
      if (codes.length >= codeLimit)
        return reply({ fieldErrors: { code: `A cart keeps at most ${codeLimit} codes` }, formError: null, values: submission.values }, 400);
      codes.push(code);
      // Past the limit on typing codes the code is not looked up, nor kept: the field says so, as typed.
      const { codes: said } = await pricedCart(request, shopper, codes);
      if (said.some((typed) => typed.status === "too_many" && typed.code.toLowerCase() === code.trim().toLowerCase()))
        return reply({ fieldErrors: { code: tooManyCodes }, formError: null, values: submission.values }, 429);
    }
    cookies.append("Set-Cookie", codesCookieHeader(request, codes));
    throw back();
  }

  if (intent === "ship-to") {
    const submission = parseForm(ShipToSchema, formData);
    if (!submission.success) return reply(submission.reply, 400);
    cookies.append("Set-Cookie", shipToCookieHeader(request, submission.value.shipTo));
    throw back();
  }

  if (intent === "checkout" && !context.get(userContext)) {
    // A guest: an email for the receipt and its downloads, and the security check.
    const submission = parseForm(GuestCheckoutSchema, formData);
    if (!submission.success) return reply(submission.reply, 400);
    const { currency, email, waiveWithdrawal } = submission.value;
    if (waiverNeeded(country) && !waiveWithdrawal && (await sellsDownloads(request, shopper, currency)))
      return reply({ fieldErrors: { waiveWithdrawal: waiverRequired }, formError: null, values: submission.values }, 400);
    if (!(await captchaPassed(context, captchaTokenFrom(formData)))) return reply(formError(captchaFailedMessage, submission.values), 400);
    const started = await startCheckout(request, context, {
      lines: visitorLines(request),
      codes: typedCodes(request),
      currency,
      followArtists: false,
      waivedWithdrawal: waiveWithdrawal,
      email,
      shipTo: shipTo(request, country),
    });
    if ("refused" in started) return reply(formError(started.refused, submission.values), 409);
    throw back(started.pay);
  }

  if (intent === "checkout") {
    const submission = parseForm(CheckoutSchema, formData);
    if (!submission.success) return reply(submission.reply, 400);
    const { currency, followArtists, waiveWithdrawal } = submission.value;
    const gift = giftOf(submission.value);
    if (!gift && waiverNeeded(country) && !waiveWithdrawal && (await sellsDownloads(request, shopper, currency)))
      return reply({ fieldErrors: { waiveWithdrawal: waiverRequired }, formError: null, values: submission.values }, 400);
    const started = await startCheckout(request, context, {
      lines: null,
      codes: typedCodes(request),
      currency,
      followArtists,
      waivedWithdrawal: waiveWithdrawal && !gift,
      shipTo: shipTo(request, country),
      gift,
    });
    if ("refused" in started) return reply(formError(started.refused, submission.values), 409);
    throw back(started.pay);
  }
  return reply(formError("Unknown request"), 400);
}

/** Whether the cart's lines in `currency` hold a download (the right to withdraw is waived for those alone). */
async function sellsDownloads(request: Request, shopper: Shopper, currency: string) {
  const cart = await pricedCart(request, shopper);
  return cart.lines.some((line) => line.currency === currency && line.kind !== "merch");
}

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
  const form = formFields(actionData);
  if (!loaderData.payments) {
    return (
      <EmptyState title="Your Cart">
        <p>Payment options will be available soon.</p>
      </EmptyState>
    );
  }
  const { cart, signedIn, askWaiver, captchaSiteKey, waiverAsked, paymentCancelled, tax } = loaderData;
  const currencies = [...new Set(cart.lines.map((line) => line.currency))];
  const shipping = cart.lines.some((line) => line.kind === "merch");
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold">Your Cart</h1>
      <FormAlert tone="success">
        {paymentCancelled && !form.formError ? "Your payment was cancelled: nothing was charged." : null}
      </FormAlert>
      <FormAlert>{form.formError}</FormAlert>
      {cart.lines.length === 0 ? (
        <EmptyState title="Your cart is empty" action={<LinkButton to={href("/discover")}>Discover Music</LinkButton>}>
          Buy Now on a track or an album puts it here.
        </EmptyState>
      ) : (
        <>
          {currencies.length > 1 ? (
            <p className="mb-4 rounded-xl border border-stage-600 bg-stage-900 px-4 py-3 text-sm text-ink-muted">
              Your cart holds prices in {currencies.length} currencies, each artist&apos;s own: each currency is paid in a checkout of its
              own.
            </p>
          ) : null}
          {shipping ? <ShipToForm shipTo={loaderData.shipTo} reply={actionData} /> : null}
          {currencies.map((currency) => (
            <CurrencyGroup
              key={currency}
              currency={currency}
              lines={cart.lines.filter((line) => line.currency === currency)}
              bundles={cart.bundles}
              signedIn={signedIn}
              captchaSiteKey={captchaSiteKey}
              several={currencies.length > 1}
              askWaiver={askWaiver}
              waiverAsked={waiverAsked}
              tax={tax}
              reply={actionData}
            />
          ))}
        </>
      )}
      <Card className="mt-8">
        <h2 className="text-xl font-semibold">Discount codes</h2>
        {cart.codes.length > 0 ? (
          <ul className="mt-3 grid gap-2">
            {cart.codes.map((code) => (
              <li key={code.code} className="flex items-center justify-between gap-3 text-sm">
                <span className={code.status === "applied" ? "text-accent" : "text-danger"}>{codeMessage(code)}</span>
                <Form method="post" action={cartPath}>
                  <input type="hidden" name="intent" value="remove-code" />
                  <input type="hidden" name="code" value={code.code} />
                  <Button type="submit" size="sm" variant="ghost" aria-label={`Remove the code ${code.code}`}>
                    Remove
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="post" action={cartPath} noValidate className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="code" />
          <Field
            label="Discount code"
            name="code"
            autoComplete="off"
            className="min-w-0 flex-1"
            defaultValue={actionData?.values.intent === "code" ? form.text("code") : ""}
            error={form.error("code")}
          />
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </Form>
      </Card>
    </div>
  );
}

/** The lines in one currency, their totals, and paying for them. */
function CurrencyGroup({
  currency,
  lines,
  bundles,
  signedIn,
  captchaSiteKey,
  several,
  askWaiver,
  waiverAsked,
  tax,
  reply,
}: {
  currency: string;
  lines: PricedLine[];
  bundles: { artist_id: string; percentage: number; applies: boolean }[];
  signedIn: boolean;
  /** A visitor's checkout's security check (null: off). */
  captchaSiteKey: string | null;
  several: boolean;
  /** Whether the buyer must waive the right to withdraw before downloading (the EU's, or where unknown). */
  askWaiver: boolean;
  /** Whether Buy Now brought the buyer here without the waiver ticked: the box says why they are here. */
  waiverAsked: boolean;
  /** Whether the payment adds the tax due where the buyer is on top of these prices, or they include it. */
  tax: TaxInPrices | null;
  /** The action's reply: a refused amount shows beside its line, as typed. */
  reply: FormReply | undefined;
}) {
  const money = (cents: number) => formatMoney(cents, currency);
  // The reply to this currency's Pay, when it was refused.
  const paying = reply?.values.intent === "checkout" && reply.values.currency === currency ? reply : undefined;
  // A gift the purchase dialog could not start waits here, its fields asked again as typed.
  const giftAsked = reply?.values.intent === "gift" && lines.some((line) => line.id === reply.values.id) ? reply : undefined;
  const payable = lines.every((line) => line.problem === null);
  // Merch with nowhere to ship yet is only asking where: no line else is wrong.
  const onlyShipTo = !payable && lines.every((line) => line.problem === null || line.problem === "ship_to");
  const total = lines.reduce((sum, line) => sum + (lineTotal(line) ?? 0), 0);
  const discounts = lines.reduce((sum, line) => sum + line.code_discount + line.bundle_discount, 0);
  const shipping = lines.reduce((sum, line) => sum + shippingOf(line), 0);
  const artists = [...new Map(lines.map((line) => [line.artist_id, line.artist_name])).entries()];
  return (
    <section aria-label={several ? `Paid in ${currency}` : "Your items"} className="mb-6">
      {several ? <h2 className="mb-3 text-lg font-semibold">Paid in {currency}</h2> : null}
      <ul className="grid gap-3">
        {lines.map((line) => (
          <CartLineRow
            key={`${line.kind}:${line.id}`}
            line={line}
            money={money}
            refused={
              reply?.values.intent === "amount" && reply.values.kind === line.kind && reply.values.id === line.id ? reply : undefined
            }
          />
        ))}
      </ul>
      {artists.map(([artistId, artistName]) => {
        const bundle = bundles.find((candidate) => candidate.artist_id === artistId);
        return bundle ? (
          <p key={artistId} className="mt-3 text-sm text-ink-muted">
            Bundle: buy two or more releases (albums or singles) or merch items from {artistName} together and save {bundle.percentage}%.
            {bundle.applies ? " Applied." : ""}
          </p>
        ) : null;
      })}
      <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        {discounts > 0 ? (
          <>
            <dt className="text-ink-muted">Discounts</dt>
            <dd className="text-right">
              <Minus>{money(discounts)}</Minus>
            </dd>
          </>
        ) : null}
        {shipping > 0 ? (
          <>
            <dt className="text-ink-muted">Shipping</dt>
            <dd className="text-right">{money(shipping)}</dd>
          </>
        ) : null}
        <dt className="text-lg font-semibold">Total</dt>
        <dd className="text-right text-lg font-semibold">{money(total)}</dd>
      </dl>
      {tax ? (
        <p className="mt-1 text-sm text-ink-muted">
          {tax === "added"
            ? "Before tax: any VAT or sales tax due where you are is added at payment."
            : "Prices include any VAT or sales tax due where you are."}
        </p>
      ) : null}
      <Form method="post" action={cartPath} noValidate className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="checkout" />
        <input type="hidden" name="currency" value={currency} />
        {signedIn ? (
          <CheckboxField name="followArtists" label="Follow the artists I buy from" defaultChecked />
        ) : (
          <>
            <p className="text-sm text-ink-muted">
              Pay as a guest with your email: your receipt brings a link to your downloads, from which an account with that address can keep
              them. Or{" "}
              <Link
                to={`${href("/login")}?${new URLSearchParams({ redirectTo: cartPath })}`}
                className="font-semibold text-accent underline"
              >
                log in to pay
              </Link>
              .
            </p>
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={paying ? String(paying.values.email ?? "") : ""}
              error={paying?.fieldErrors.email}
            />
          </>
        )}
        {askWaiver && lines.some((line) => line.kind !== "merch") ? (
          <CheckboxField
            name="waiveWithdrawal"
            label={waiverLabel}
            defaultChecked={paying ? paying.values.waiveWithdrawal === "on" : false}
            error={paying ? paying.fieldErrors.waiveWithdrawal : waiverAsked ? waiverForBuyNow : undefined}
          />
        ) : null}
        {!signedIn ? (
          <p className="text-sm text-ink-muted">To buy these as a gift, log in to pay.</p>
        ) : lines.some((line) => line.kind === "merch") ? (
          <p className="text-sm text-ink-muted">{merchNotGiftable}</p>
        ) : (
          <GiftFields ticked reply={paying ?? giftAsked} />
        )}
        {signedIn ? null : <Captcha siteKey={captchaSiteKey} reply={paying} />}
        {payable && total > 0 && total < minimumChargeOf(currency) ? (
          <p className="text-sm text-danger">{smallestPayment(currency)} Add to your order to pay.</p>
        ) : payable ? (
          <SubmitButton action={cartPath} intent="checkout" pendingLabel="Opening the payment…">
            {signedIn ? `Pay ${money(total)}` : `Pay ${money(total)} as a guest`}
          </SubmitButton>
        ) : onlyShipTo ? (
          <p className="text-sm text-danger">Choose where your merch ships, above, then pay.</p>
        ) : (
          <p className="text-sm text-danger">Remove or change the items that cannot be bought, then pay.</p>
        )}
      </Form>
    </section>
  );
}

/** A line's shipping, once there is a country to price it for (before, the figure would be a guess). */
const shippingOf = (line: PricedLine) => (line.problem === "ship_to" ? 0 : line.shipping);

/** What a line costs as shown: without a shipping figure until a country is chosen. */
const lineTotal = (line: PricedLine) => (line.total === null ? null : line.total - line.shipping + shippingOf(line));

/** An amount taken off, its minus sign kept on the amount's line. */
function Minus({ children }: { children: string }) {
  return <span className="whitespace-nowrap">{`−${children}`}</span>;
}

/** Where the cart's merch ships: the country its shipping is priced for, and the only one the payment takes an address in. */
function ShipToForm({ shipTo, reply }: { shipTo: string | null; reply: FormReply | undefined }) {
  const refused = reply?.values.intent === "ship-to" ? reply : undefined;
  return (
    <Form
      method="post"
      action={cartPath}
      noValidate
      className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-stage-700 bg-stage-900 p-4"
    >
      <input type="hidden" name="intent" value="ship-to" />
      <SelectField
        label="Merch ships to"
        name="shipTo"
        // wide enough for "Choose a country" whole: the button goes under it on a phone
        className="min-w-0 flex-1 basis-56"
        options={shippingCountryOptions()}
        placeholder="Choose a country"
        defaultValue={shipTo ?? ""}
        error={refused?.fieldErrors.shipTo}
      />
      <Button type="submit" variant="secondary">
        Update shipping
      </Button>
    </Form>
  );
}

function CartLineRow({ line, money, refused }: { line: PricedLine; money: (cents: number) => string; refused?: FormReply }) {
  const problem = problemMessage(line, money);
  const page = line.id && line.kind !== "merch" ? (line.kind === "album" ? albumPath(line.id) : trackPath(line.id)) : null;
  const title = line.title ?? "An item no longer for sale";
  return (
    <li className="flex gap-3 rounded-xl border border-stage-700 bg-stage-900 p-3">
      {line.artwork_url ? <Artwork src={line.artwork_url} alt="" className="size-16 shrink-0 rounded-lg" /> : null}
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{page && line.problem !== "unavailable" ? <Link to={page}>{title}</Link> : title}</p>
        <p className="text-sm text-ink-muted">
          {itemLabel(line.kind)}
          {line.artist_name ? ` · ${line.artist_name}` : ""}
          {line.kind === "merch" && line.units_left !== null && line.units_left <= 10 ? ` · ${line.units_left} left` : ""}
        </p>
        {line.code_discount > 0 ? (
          <p className="text-sm text-accent">
            Code {line.discount_code}: <Minus>{money(line.code_discount)}</Minus>
          </p>
        ) : null}
        {line.bundle_discount > 0 ? (
          <p className="text-sm text-accent">
            Bundle: <Minus>{money(line.bundle_discount)}</Minus>
          </p>
        ) : null}
        {shippingOf(line) > 0 ? <p className="text-sm text-ink-muted">Shipping: {money(shippingOf(line))}</p> : null}
        {line.kind === "merch" && line.problem !== "unavailable" ? <QuantityForm line={line} refused={refused} /> : null}
        {line.allow_pay_more && line.problem !== "unavailable" ? (
          // Keyed by the price the cart holds: a tier chosen (or any change saved) starts the field from it.
          <AmountForm key={line.unit} line={line} money={money} refused={refused} />
        ) : null}
        {problem ? (
          <p role="alert" className="mt-1 text-sm text-danger">
            {problem}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-col items-end gap-2">
        <p className="font-semibold">{lineTotal(line) === null ? "" : money(lineTotal(line)!)}</p>
        {line.id ? (
          <Form method="post" action={cartPath}>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="kind" value={line.kind} />
            <input type="hidden" name="id" value={line.id} />
            <Button type="submit" size="sm" variant="ghost" aria-label={`Remove ${title} from the cart`}>
              Remove
            </Button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}

/** A line's own fields, carried by each of its forms: which line, and what it holds that the form leaves as it is. */
function LineFields({ line, keep }: { line: PricedLine; keep: "amount" | "quantity" }) {
  return (
    <>
      <input type="hidden" name="intent" value="amount" />
      <input type="hidden" name="kind" value={line.kind} />
      <input type="hidden" name="id" value={line.id ?? ""} />
      {keep === "quantity" ? (
        <input type="hidden" name="quantity" value={line.quantity} />
      ) : line.allow_pay_more && line.unit !== null ? (
        <input type="hidden" name="amount" value={(line.unit / 100).toFixed(2)} />
      ) : null}
    </>
  );
}

/** How many of a merch item: 1 to 10. */
function QuantityForm({ line, refused }: { line: PricedLine; refused?: FormReply }) {
  const form = formFields(refused);
  return (
    <Form method="post" action={cartPath} noValidate className="mt-2 flex flex-wrap items-end gap-2">
      <LineFields line={line} keep="amount" />
      <SelectField
        label="Quantity"
        name="quantity"
        className="w-28"
        options={Array.from({ length: merchQuantityLimit }, (_, index) => String(index + 1))}
        defaultValue={String(line.quantity)}
        error={form.error("quantity")}
      />
      <Button type="submit" size="sm" variant="secondary">
        Update<span className="sr-only"> the quantity</span>
      </Button>
    </Form>
  );
}

/** Name your price: the amount, at least the price, and what the artist receives of it (as the fan types, with JavaScript). */
function AmountForm({ line, money, refused }: { line: PricedLine; money: (cents: number) => string; refused?: FormReply }) {
  const form = formFields(refused);
  const [typed, setTyped] = useState(refused ? form.text("amount") : ((line.unit ?? line.minimum ?? 0) / 100).toFixed(2));
  const cents = Math.round(Number(typed) * 100);
  const receives = Number.isFinite(cents) && cents >= 0 ? money(Math.round((cents * artistPercentOf[line.kind]) / 100)) : null;
  const lineFields = <LineFields line={line} keep="quantity" />;
  const tiersHeading = useId();
  return (
    <>
      <Form method="post" action={cartPath} noValidate className="mt-2 flex flex-wrap items-end gap-2">
        {lineFields}
        <Field
          label={line.kind === "merch" ? `Your price for one (${line.currency})` : `Your price (${line.currency})`}
          name="amount"
          inputMode="decimal"
          className="w-40"
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          error={form.error("amount")}
          hint={`At least ${money(line.minimum ?? 0)}.${receives ? ` ${line.artist_name ?? "The artist"} receives ${receives} before discounts.` : ""}`}
        />
        <Button type="submit" size="sm" variant="secondary">
          Update
        </Button>
      </Form>
      {line.tiers.length > 0 ? (
        // The artist's own prices, each its own form (a preset's amount is the only one it sends), with what it gives.
        <section aria-labelledby={tiersHeading} className="mt-3">
          <h3 id={tiersHeading} className="text-sm font-semibold">
            {`${line.artist_name ?? "The artist"}'s prices`}
          </h3>
          <ul className="mt-1 grid gap-1">
            {line.tiers.map((tier) => (
              <li key={tier.name} className="flex flex-wrap items-baseline gap-x-2">
                <Form method="post" action={cartPath}>
                  {lineFields}
                  <Button type="submit" size="sm" variant="ghost" name="amount" value={(tier.amount / 100).toFixed(2)}>
                    {`${tier.name} ${money(tier.amount)}`}
                  </Button>
                </Form>
                {tier.description ? <span className="text-sm text-ink-muted">{tier.description}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
