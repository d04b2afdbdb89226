import type { Ref } from "react";
import { Form, href, Link, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, type DialogHandle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { CheckboxField } from "~/components/form-controls";
import { waiverLabel } from "~/lib/payments/withdrawal";
import { formatPrice } from "~/lib/format";
import { artistPercentOf } from "~/lib/constants";
import type { CartKind } from "~/lib/payments/cart";
import { useCartCount, useOptionalUser } from "~/lib/session/use-user";
import { GiftFields } from "~/components/payments/gift-fields";
import { merchNotGiftable } from "~/lib/payments/gifts";

/** What Buy Now sells: a track, an album or merch, whether fans may pay more than its price, and whether it sold out. */
export type ForSale = { kind: CartKind; id: string; allowPayMore: boolean; soldOut?: boolean };

export type CompletePurchaseProps = {
  ref?: Ref<DialogHandle>;
  open: boolean;
  onClose: () => void;
  title: string;
  artistName: string;
  artworkUrl: string;
  price: number;
  /** What its price is in: its artist's currency. */
  currency: string;
  /** What the downloads are (`WAV as uploaded, MP3 320 kbps, FLAC`), stated before anyone pays; null when there is no audio. */
  formats: string | null;
  item?: ForSale | null;
};

/**
 * 'Complete Purchase': what is bought, and where fans can pay, "Buy now" (straight to payment with it) and
 * "Add to cart", with the fan's own price where they may pay more (and for a download, the waiver of the
 * right to withdraw, and "Buy as a gift" for a signed-in fan: a visitor is asked to log in first); merch sold out says so; elsewhere (no payments configured) the spec's "available
 * soon". Plain forms posting to the cart, so they work without JavaScript; Close is a `method="dialog"`
 * form, which closes the dialog either way.
 */
export function CompletePurchase({
  ref,
  open,
  onClose,
  title,
  artistName,
  artworkUrl,
  price,
  currency,
  formats,
  item = null,
}: CompletePurchaseProps) {
  // The root loader says whether fans can pay here (a cart exists).
  const payments = useCartCount() !== null;
  const signedIn = useOptionalUser() !== null;
  const location = useLocation();
  return (
    <Dialog ref={ref} open={open} onClose={onClose} title="Complete Purchase">
      <div className="flex items-center gap-4">
        <img src={artworkUrl} alt="" width={80} height={80} className="size-20 shrink-0 rounded-lg object-cover" />
        <div className="min-w-0">
          <p className="truncate font-semibold text-ink">{title}</p>
          <p className="truncate text-sm text-ink-muted">{artistName}</p>
          <p className="mt-1 text-lg font-bold text-accent-strong">{formatPrice(price, currency)}</p>
          {formats ? <p className="text-sm text-ink-muted">Download: {formats}</p> : null}
        </div>
      </div>
      {/* The dialog's error area (spec section 1); a refused payment is said on the cart, beside what it concerns. */}
      <div role="alert" className="empty:hidden mt-4 rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger" />
      {payments && item?.soldOut ? (
        <p className="mt-5 rounded-xl border border-stage-600 bg-stage-900 px-4 py-3 text-ink-muted">Sold out.</p>
      ) : payments && item ? (
        <Form method="post" action={href("/cart")} noValidate className="mt-5 grid gap-4">
          <input type="hidden" name="kind" value={item.kind} />
          <input type="hidden" name="id" value={item.id} />
          {item.allowPayMore ? (
            <Field
              label={`Your price (${currency})`}
              name="amount"
              inputMode="decimal"
              defaultValue={price.toFixed(2)}
              hint={`At least ${formatPrice(price, currency)}. Pay more if you like: the artist receives ${artistPercentOf[item.kind]}% of what you pay.`}
            />
          ) : null}
          {item.kind === "merch" ? null : <CheckboxField name="waiveWithdrawal" label={waiverLabel} />}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="buy-now">
              Buy now
            </Button>
            <Button type="submit" name="intent" value="add" variant="secondary">
              Add to cart
            </Button>
          </div>
        </Form>
      ) : (
        <p className="mt-5 rounded-xl border border-stage-600 bg-stage-900 px-4 py-3 text-ink-muted">
          Payment options will be available soon.
        </p>
      )}
      {/* A gift is a form of its own, so Enter in its fields never buys the item for oneself. */}
      {payments && item && !item.soldOut ? (
        item.kind === "merch" ? (
          <p className="mt-4 text-sm text-ink-muted">{merchNotGiftable}</p>
        ) : signedIn ? (
          <Form method="post" action={href("/cart")} noValidate className="mt-4">
            <input type="hidden" name="kind" value={item.kind} />
            <input type="hidden" name="id" value={item.id} />
            <GiftFields ticked={false}>
              {item.allowPayMore ? (
                <Field label={`The gift’s price (${currency})`} name="amount" inputMode="decimal" defaultValue={price.toFixed(2)} />
              ) : null}
              <Button type="submit" name="intent" value="gift">
                Buy as a gift
              </Button>
            </GiftFields>
          </Form>
        ) : (
          <p className="mt-4 text-sm text-ink-muted">
            To buy it as a gift,{" "}
            <Link
              to={`${href("/login")}?${new URLSearchParams({ redirectTo: location.pathname })}`}
              className="font-semibold text-accent underline"
            >
              log in
            </Link>{" "}
            first: your account keeps the gift, to see whether it was claimed.
          </p>
        )
      ) : null}
      <form method="dialog" className="mt-6 flex justify-end">
        <Button type="submit" variant="secondary" autoFocus={!payments || !item || item.soldOut}>
          Close
        </Button>
      </form>
    </Dialog>
  );
}
