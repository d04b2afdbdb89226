import * as v from "valibot";
import { currencies, giftDaysAhead, soldKinds, textLimits } from "~/lib/constants";
import { email } from "~/lib/schemas/auth";
import { isUuid } from "~/lib/catalog/catalog";
import { cartKinds, highestAmountCents, merchQuantityLimit } from "~/lib/payments/cart";
import { shippingCountries } from "~/lib/payments/shipping";
import { giftDates } from "~/lib/payments/gifts";

// The cart's and checkout's forms: one schema per form (app/routes/checkout/cart.tsx).

const kind = v.picklist(cartKinds, "Unknown item");
const id = v.pipe(
  v.string(),
  v.check((value: string) => isUuid(value), "Unknown item"),
);

const amountMessage = "Please enter an amount like 5 or 5.50";

/** What a fan chose to pay, typed in the currency's units ("5.50"): its cents; empty is the price. */
const chosenAmount = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.transform((typed) => (typed === "" ? null : typed)),
  v.nullable(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}(\.\d{1,2})?$/, amountMessage),
      v.transform((typed) => Math.round(Number(typed) * 100)),
      v.maxValue(highestAmountCents, "The most you can pay is 1,000"),
    ),
  ),
);

/** How many: a whole number from 1 to 10 (a download's is 1, which the database judges); empty is one. */
const quantity = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.transform((typed) => (typed === "" ? "1" : typed)),
  v.regex(/^\d{1,2}$/, `Please choose from 1 to ${merchQuantityLimit}`),
  v.transform(Number),
  v.minValue(1, `Please choose from 1 to ${merchQuantityLimit}`),
  v.maxValue(merchQuantityLimit, `Please choose from 1 to ${merchQuantityLimit}`),
);

/** The address a payment collected for merch, as the order keeps it. */
export const ShippingAddressSchema = v.object({
  name: v.nullish(v.string()),
  line1: v.nullish(v.string()),
  line2: v.nullish(v.string()),
  city: v.nullish(v.string()),
  postal_code: v.nullish(v.string()),
  state: v.nullish(v.string()),
  country: v.nullish(v.string()),
});
export type ShippingAddress = v.InferOutput<typeof ShippingAddressSchema>;

const checkbox = v.pipe(
  v.optional(v.string(), ""),
  v.transform((value) => value === "on"),
);

const giftDateMessage = `Please choose today or a day up to ${giftDaysAhead} days ahead`;
const giftEmailMessage = "Please enter the recipient’s email address";

/** A gift's fields (the dialog's and the cart's), checked when "Buy as a gift" is ticked, else ignored. */
const giftEntries = {
  gift: checkbox,
  recipientEmail: v.pipe(v.optional(v.string(), ""), v.trim()),
  giftMessage: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.maxLength(textLimits.giftMessage, `A message is at most ${textLimits.giftMessage} characters`),
  ),
  sendOn: v.pipe(v.optional(v.string(), ""), v.trim()),
};

/** A gift's address and date, each checked beside its field when "Buy as a gift" is ticked. */
const giftEmailHolds = (input: { gift: boolean; recipientEmail: string }) =>
  !input.gift || v.is(v.pipe(v.string(), v.email(), v.maxLength(254)), input.recipientEmail);
const giftDateHolds = (input: { gift: boolean; sendOn: string }) => {
  if (!input.gift) return true;
  const { first, last } = giftDates();
  return /^\d{4}-\d{2}-\d{2}$/.test(input.sendOn) && input.sendOn >= first && input.sendOn <= last;
};

/** What a checkout sends the database of a gift (open_order's `gift`), or nothing when it is no gift. */
export function giftOf(value: { gift: boolean; recipientEmail: string; giftMessage: string; sendOn: string }) {
  return value.gift ? { email: value.recipientEmail, message: value.giftMessage, send_on: value.sendOn } : null;
}

/** Buy Now's dialog: into the cart, straight to payment with this one item, or bought as a gift. */
export const AddToCartSchema = v.pipe(
  v.object({
    intent: v.picklist(["add", "buy-now", "gift"]),
    kind,
    id,
    amount: chosenAmount,
    quantity,
    waiveWithdrawal: checkbox,
    ...giftEntries,
  }),
  // "Buy as a gift" is its own button: it ticks the gift, so its fields are checked.
  v.transform((input) => ({ ...input, gift: input.gift || input.intent === "gift" })),
  v.forward(v.partialCheck([["gift"], ["recipientEmail"]], giftEmailHolds, giftEmailMessage), ["recipientEmail"]),
  v.forward(v.partialCheck([["gift"], ["sendOn"]], giftDateHolds, giftDateMessage), ["sendOn"]),
);

/** A line's own forms: a new amount or quantity, or out of the cart. */
export const CartLineSchema = v.object({ kind, id, amount: chosenAmount, quantity });

/** The country the cart's merch ships to. */
export const ShipToSchema = v.object({ shipTo: v.picklist(shippingCountries, "Please choose a country") });

/** A discount code typed into the cart. */
export const DiscountCodeSchema = v.object({
  code: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.nonEmpty("Please enter a discount code"),
    v.maxLength(40, "A discount code is at most 40 characters"),
  ),
});

/** Paying for the cart's items in one currency, for oneself or as a gift. */
export const CheckoutSchema = v.pipe(
  v.object({
    currency: v.picklist(currencies, "Unknown currency"),
    followArtists: checkbox,
    waiveWithdrawal: checkbox,
    ...giftEntries,
  }),
  v.forward(v.partialCheck([["gift"], ["recipientEmail"]], giftEmailHolds, giftEmailMessage), ["recipientEmail"]),
  v.forward(v.partialCheck([["gift"], ["sendOn"]], giftDateHolds, giftDateMessage), ["sendOn"]),
);

/** A gift's mail sent again to its recipient (Purchased). */
export const SendGiftAgainSchema = v.object({ giftId: id });

/** A gift given to another address (Purchased): its new recipient. */
export const GiftRecipientSchema = v.object({
  giftId: id,
  recipientEmail: v.pipe(v.optional(v.string(), ""), v.trim(), v.email(giftEmailMessage), v.maxLength(254, giftEmailMessage)),
});

/** A visitor's checkout: as a guest, with the email their receipt and downloads go to. */
export const GuestCheckoutSchema = v.object({
  currency: v.picklist(currencies, "Unknown currency"),
  email,
  waiveWithdrawal: checkbox,
});

/** A refund of one sale (the studio's Payments page, the administrators' dashboard). */
export const RefundSchema = v.object({ lineId: id });

/** Merch sent: "Mark as shipped", with the carrier's tracking number if there is one. */
export const MarkShippedSchema = v.object({
  lineId: id,
  tracking: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.maxLength(textLimits.tracking, `A tracking number is at most ${textLimits.tracking} characters`),
    v.transform((typed) => (typed === "" ? null : typed)),
  ),
});

/** Merch to send, as `merch_orders` lists it. */
export const MerchOrdersSchema = v.array(
  v.object({
    line_id: v.string(),
    /** The order's short reference (artists never read an order's id). */
    order_reference: v.string(),
    paid_at: v.string(),
    title: v.string(),
    quantity: v.number(),
    currency: v.string(),
    total: v.number(),
    ship_to: v.nullable(v.string()),
    shipping_address: v.nullable(ShippingAddressSchema),
    shipped_at: v.nullable(v.string()),
    tracking: v.nullable(v.string()),
  }),
);
export type MerchOrder = v.InferOutput<typeof MerchOrdersSchema>[number];

/** Purchased's "Send the receipt again". */
export const ResendReceiptSchema = v.object({ orderId: id });

/** Sales as `sales` lists them. */
export const SalesSchema = v.array(
  v.object({
    line_id: v.string(),
    /** The order's short reference (artists never read an order's id). */
    order_reference: v.string(),
    paid_at: v.string(),
    kind: v.picklist(soldKinds),
    title: v.string(),
    artist_name: v.string(),
    currency: v.string(),
    amount: v.number(),
    discount: v.number(),
    total: v.number(),
    artist_share: v.number(),
    country: v.nullable(v.string()),
    refunded_at: v.nullable(v.string()),
    buyer_email: v.nullable(v.string()),
    /** The release (a track sold alone: its release) or merch item it sold. */
    item_id: v.nullable(v.string()),
    quantity: v.number(),
    shipping: v.number(),
    /** Bought as a gift. */
    gift: v.optional(v.boolean(), false),
  }),
);
export type Sale = v.InferOutput<typeof SalesSchema>[number];

/** What an artist has sold, for the Payments page's filter (`sold_items`). */
export const SoldItemsSchema = v.array(
  v.object({ item_id: v.string(), title: v.string(), kind: v.picklist(["single", "album", "merch"]) }),
);

/** Disputes as administrators read them. */
export const DisputesSchema = v.array(
  v.object({
    id: v.string(),
    order_id: v.string(),
    amount_cents: v.number(),
    currency: v.string(),
    reason: v.string(),
    status: v.string(),
    opened_at: v.string(),
    closed_at: v.nullable(v.string()),
  }),
);

/**
 * One tax on an order as its receipt lists it (`order_taxes`): its name ("VAT"), the country it is owed to,
 * its rate in percent and its amount in cents. The order's total is before it.
 */
export const OrderTaxSchema = v.object({
  name: v.nullable(v.string()),
  country: v.nullable(v.string()),
  rate: v.nullable(v.number()),
  amount: v.number(),
});
export type OrderTax = v.InferOutput<typeof OrderTaxSchema>;
export const OrderTaxesSchema = v.array(OrderTaxSchema);

/** What an order's taxes come to, in cents. */
export const taxTotal = (taxes: readonly OrderTax[]) => taxes.reduce((sum, tax) => sum + tax.amount, 0);
