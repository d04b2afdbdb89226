// What the marketplace asks of whoever takes a buyer's money (Stripe today): the seam lib/orders talks
// through, so that nothing outside a provider's own folder knows its SDK, its types or its ids. The
// database decides every amount; a provider only carries them to the buyer and brings back what became of
// them. Each provider's folder implements this, and payments.server.ts names it in one line.

/** An order as the database opened it for its checkout: its amounts in cents, each line at its total. */
export type CheckoutOrder = {
  order_id: string;
  currency: string;
  total: number;
  email: string;
  /** Where its merch goes (none without merch): the payment page takes an address in that country alone. */
  ship_to: string | null;
  /** When its checkout lapses (Unix seconds): the database's hold on its stock ends then. */
  expires_at: number;
  lines: {
    n: number;
    kind: "track" | "album" | "merch";
    title: string;
    artist_name: string;
    quantity: number;
    shipping: number;
    total: number;
  }[];
};

/** Where a checkout sends the buyer back: the return page (paid), or the cart with its signed way back (not). */
export type CheckoutPages = { done: string; cancel: string };

/** What a checkout came to, as its order takes it (`apply_checkout`). */
export type CheckoutOutcome = "paid" | "pending" | "failed" | "expired";

/** The address a payment collected for the merch. */
export type ShippingAddress = {
  name: string;
  line1: string | null;
  line2: string | null;
  city: string | null;
  postal_code: string | null;
  state: string | null;
  country: string | null;
};

/** Where tax is collected, whether the tax due where the buyer is comes on top of the prices or is included in them. */
export type TaxInPrices = "added" | "included";

/** One tax as the provider worked it out where the buyer is: cents, the rate in percent, its name ("VAT") and the country it is owed to. */
export type TaxPart = { amount: number; rate: number | null; name: string | null; country: string | null };

/**
 * The tax a paid checkout collected: each line's, in the order the checkout listed them, and the shipping's;
 * `included`: it was part of the prices (else added on top).
 */
export type CheckoutTax = { included: boolean; lines: TaxPart[]; shipping: TaxPart | null };

/** What a provider says about one checkout: its outcome (null: none yet) and what it learnt of the buyer. */
export type CheckoutNews = {
  checkout: string;
  outcome: CheckoutOutcome | null;
  /** The order it was opened for, as the checkout carries it (news may come before the order kept its checkout). */
  orderId?: string | undefined;
  /** The payment, by which later news (a refund, a dispute) finds the order. */
  payment?: string | undefined;
  country?: string | undefined;
  shippingAddress?: ShippingAddress | undefined;
  /** The tax it added (a paid checkout with tax on). */
  tax?: CheckoutTax | undefined;
  /** A membership's checkout, once its subscription's first period is paid: that period, as the webhook says it. */
  membership?: MembershipNews | undefined;
};

/** What a provider says about a payment after it was made: refunded (in all, so far), or a dispute opened or closed. */
export type PaymentNews =
  | { payment: string; refunded: number; refundId?: string | undefined }
  | { payment: string; dispute: { id: string; amount: number; currency: string; reason: string; status: string; closed: boolean } };

/**
 * What a payment added to the platform's balance: in the provider's settlement currency, its amount, the
 * provider's fee, and the rate it was converted at (null: it was charged in that currency).
 */
export type PaymentSettlement = { currency: string; amount: number; fee: number; exchangeRate: number | null };

/**
 * What a provider says about a fan's membership: one period paid (each period an order of its own, taken
 * once per invoice), or the subscription set to end at its period's end, taken back, or ended.
 */
export type MembershipNews =
  | {
      paid: {
        invoice: string;
        subscription: string;
        fanId: string;
        tierId: string;
        interval: "month" | "year";
        /** The period's price before tax, and the tax on it, in cents of `currency`. */
        amount: number;
        tax: number;
        currency: string;
        /** When the paid period ends (Unix seconds). */
        periodEnd: number;
        payment: string | null;
        country: string | null;
      };
    }
  | { changed: { subscription: string; state: "active" | "cancelling" | "ended" } };

/**
 * A fan's membership to open a checkout for: the tier, billed each `interval` at `amount` cents of
 * `currency` (before tax: the tier's price, or more where it lets fans pay more), and the fan it is for.
 */
export type MembershipCheckout = {
  fanId: string;
  email: string;
  tierId: string;
  tierName: string;
  artistName: string;
  interval: "month" | "year";
  amount: number;
  currency: string;
};

/**
 * One of a provider's events: its id (taken once by the database), its type, and the connected account it
 * is about (an artist's payout account, for Connect's events), by which it is asked for again.
 */
export type PaymentEvent = { id: string; type: string; account?: string | undefined };

/** One event of a provider's webhook, and what it says. */
export type WebhookNews = { event: PaymentEvent } & (
  | { checkout: CheckoutNews }
  | { payment: PaymentNews }
  | { membership: MembershipNews }
  /** A payout account of an artist's at the same provider, and whether it takes payouts now. */
  | { payoutAccount: { id: string; ready: boolean } }
  | { ignored: true }
  /** An event the marketplace cannot read as sent (another API version): refused, so the provider sends it again once fixed. */
  | { refused: string }
);

/** An event's news the marketplace can apply: any but one refused as sent. */
export type AppliableNews = Exclude<WebhookNews, { refused: string }>;

export interface PaymentProvider {
  /** Opens the payment page for an order, once per order (its id is the provider's idempotency key). */
  openCheckout(order: CheckoutOrder, pages: CheckoutPages): Promise<{ checkout: string; url: string }>;
  /** Asks what a checkout came to (the return page asks, not waiting for the webhook); null for none of its own. */
  checkoutNews(checkout: string): Promise<CheckoutNews | null>;
  /** Ends a checkout so it can no longer be paid; null when the provider will not (paid meanwhile, say). */
  expireCheckout(checkout: string): Promise<CheckoutNews | null>;
  /** What a paid payment added to the platform's balance. Throws while the provider cannot say. */
  paymentSettlement(payment: string): Promise<PaymentSettlement>;
  /** Refunds `amount` of a payment for one order line, once per line; answers the refund's id. Throws with the provider's reason. */
  refundLine(line: { id: string; payment: string; amount: number }): Promise<string>;
  /** The events a webhook request carries, checked as the provider signs them; null when it is not the provider's. */
  webhookNews(request: Request, body: string): Promise<WebhookNews | null>;
  /**
   * One event asked of the provider again (one its webhook could not apply), what it names read as it stands
   * now (so never refused for its version); null when the provider no longer has it.
   */
  eventNews(eventId: string, account?: string): Promise<AppliableNews | null>;
  /**
   * Opens the payment page of a fan's membership: a subscription on the platform's account, its metadata
   * naming the fan, tier and interval (by which its paid periods become the membership). Its first period's
   * news comes back from `checkoutNews` (the return page) or the webhook, whichever is first.
   */
  openMembershipCheckout(membership: MembershipCheckout, pages: CheckoutPages): Promise<{ checkout: string; url: string }>;
  /**
   * Sets a membership's subscription to end at its paid period's end (the fan stays a member until then), once
   * per subscription however often asked. Throws with the provider's reason.
   */
  cancelMembership(subscription: string): Promise<void>;
}
