/** The kinds of mail the marketplace sends (`private.mails.kind`), as "Mail not sent" names them. */
export const mailKindLabels = {
  receipt: "Receipt",
  sale: "“You sold”",
  refund: "Refund notice",
  shipped: "Shipping notice",
  releases: "Release mail",
  newsletter_signup: "Newsletter confirmation",
  paypal_changed: "PayPal email changed",
  payout_method_changed: "Payout method changed",
  stripe_connected: "Stripe account connected",
  gift: "Gift’s claim link",
  preorder_moved: "Pre-order’s new day",
} as const;
