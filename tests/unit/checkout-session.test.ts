// The Checkout Session an order opens: its amounts are the database's cents, its metadata names the order,
// its merch's shipping is one rate with the address taken in the priced country alone, it lapses when the
// database's hold ends and comes back by its signed way back, and with Stripe Tax on, the tax comes on top
// of the prices the shares were made of. An artist's share is transferred in the currency its charge
// settled in, at the charge's rate.
import { describe, expect, it } from "vitest";
import { checkoutSessionParams } from "~/lib/providers/stripe/payments.server";
import { convertedCents } from "~/lib/providers/stripe/settlements.server";

const order = {
  order_id: "3f9a0c12-0000-4000-8000-000000000000",
  currency: "GBP",
  total: 348,
  email: "fan@example.com",
  ship_to: null,
  expires_at: 1_796_654_546,
  ended: [],
  lines: [
    { n: 1, kind: "track" as const, title: "Greenhouse", artist_name: "The Paper Lanterns", quantity: 1, shipping: 0, total: 99 },
    { n: 2, kind: "track" as const, title: "Kites", artist_name: "The Paper Lanterns", quantity: 1, shipping: 0, total: 249 },
  ],
};
const back = "3f9a0c12-0000-4000-8000-000000000000.signature";
const where = { done: "https://crate.example/checkout/done", cancel: `https://crate.example/cart?${new URLSearchParams({ back })}` };

describe("a checkout's session", () => {
  it("charges each line's total in the order's currency and names the order", () => {
    const params = checkoutSessionParams(order, { ...where, tax: null });
    expect(params.line_items?.map((item) => [item.price_data?.currency, item.price_data?.unit_amount])).toEqual([
      ["gbp", 99],
      ["gbp", 249],
    ]);
    expect(params.metadata).toEqual({ order_id: order.order_id });
    expect(params.success_url).toBe("https://crate.example/checkout/done?session_id={CHECKOUT_SESSION_ID}");
    expect(params.automatic_tax).toBeUndefined();
    expect(params.shipping_address_collection).toBeUndefined();
    expect(params.cancel_url).toBe(`https://crate.example/cart?back=${encodeURIComponent(back)}`);
    expect(params.expires_at).toBe(order.expires_at);
  });

  it("charges merch's shipping as one rate and takes an address in the country it was priced for alone", () => {
    const withMerch = {
      ...order,
      total: 99 + 2 * 1500 + 2 * 400,
      ship_to: "DE",
      lines: [
        ...order.lines.slice(0, 1),
        { n: 2, kind: "merch" as const, title: "Lantern tee", artist_name: "The Paper Lanterns", quantity: 2, shipping: 800, total: 3800 },
      ],
    };
    const params = checkoutSessionParams(withMerch, { ...where, tax: null });
    expect(params.line_items?.map((item) => [item.price_data?.product_data?.name, item.price_data?.unit_amount])).toEqual([
      ["Greenhouse · The Paper Lanterns", 99],
      ["Lantern tee × 2 · The Paper Lanterns", 3000],
    ]);
    expect(params.shipping_address_collection).toEqual({ allowed_countries: ["DE"] });
    expect(params.shipping_options).toEqual([
      { shipping_rate_data: { type: "fixed_amount", fixed_amount: { amount: 800, currency: "gbp" }, display_name: "Shipping to Germany" } },
    ]);
  });

  it("has Stripe Tax add the tax on top of the prices when it is on, each thing sold with its tax code", () => {
    const params = checkoutSessionParams(order, { ...where, tax: "added" });
    expect(params.automatic_tax).toEqual({ enabled: true });
    expect(params.line_items?.every((item) => item.price_data?.tax_behavior === "exclusive")).toBe(true);
    expect(params.line_items?.map((item) => item.price_data?.product_data?.tax_code)).toEqual(["txcd_10401100", "txcd_10401100"]);
    const merch = checkoutSessionParams(
      { ...order, ship_to: "DE", lines: [{ ...order.lines[0]!, kind: "merch", shipping: 400, total: 1400 }] },
      { ...where, tax: "added" },
    );
    expect(merch.line_items?.[0]?.price_data?.product_data?.tax_code).toBe("txcd_99999999");
    expect(merch.shipping_options?.[0]?.shipping_rate_data).toMatchObject({ tax_behavior: "exclusive", tax_code: "txcd_92010001" });
  });

  it("takes the tax as included in the prices when the site says prices include it", () => {
    const params = checkoutSessionParams(order, { ...where, tax: "included" });
    expect(params.automatic_tax).toEqual({ enabled: true });
    expect(params.line_items?.every((item) => item.price_data?.tax_behavior === "inclusive")).toBe(true);
  });
});

describe("a share converted at its charge's rate", () => {
  it("goes from the sale's smallest unit to the settlement currency's, to the nearest", () => {
    // Stripe's own example: 10.00 EUR at 1.234 is 12.34 USD.
    expect(convertedCents(1000, "eur", "usd", 1.234)).toBe(1234);
    expect(convertedCents(880, "gbp", "usd", 1.27)).toBe(1118);
    // Yen have no decimals: £8.80 at 190.5 yen to the pound is ¥1,676.
    expect(convertedCents(880, "gbp", "jpy", 190.5)).toBe(1676);
  });
});
