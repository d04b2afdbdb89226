// The Checkout Session an order opens: its amounts are the database's cents, its metadata names the order,
// and with Stripe Tax on, the tax comes on top of the prices the shares were made of.
import { describe, expect, it } from "vitest";
import { checkoutSessionParams } from "~/routes/checkout/checkout.server";

const order = {
  order_id: "3f9a0c12-0000-4000-8000-000000000000",
  currency: "GBP",
  total: 348,
  email: "fan@example.com",
  lines: [
    { n: 1, title: "Greenhouse", artist_name: "The Paper Lanterns", total: 99 },
    { n: 2, title: "Kites", artist_name: "The Paper Lanterns", total: 249 },
  ],
};
const where = { origin: "https://crate.example", done: "https://crate.example/checkout/done" };

describe("a checkout's session", () => {
  it("charges each line's total in the order's currency and names the order", () => {
    const params = checkoutSessionParams(order, { ...where, tax: false });
    expect(params.line_items?.map((item) => [item.price_data?.currency, item.price_data?.unit_amount])).toEqual([
      ["gbp", 99],
      ["gbp", 249],
    ]);
    expect(params.metadata).toEqual({ order_id: order.order_id });
    expect(params.success_url).toBe("https://crate.example/checkout/done?session_id={CHECKOUT_SESSION_ID}");
    expect(params.automatic_tax).toBeUndefined();
  });

  it("has Stripe Tax add the tax on top of the prices when it is on", () => {
    const params = checkoutSessionParams(order, { ...where, tax: true });
    expect(params.automatic_tax).toEqual({ enabled: true });
    expect(params.line_items?.every((item) => item.price_data?.tax_behavior === "exclusive")).toBe(true);
  });
});
