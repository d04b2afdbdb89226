// Buy Now's dialog: where fans can pay (the root loader counts a cart) it sells the track, with the fan's
// own price where they may pay more; without payment keys, and for what is not sold yet (merch), it keeps
// the spec's "available soon".
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { CompletePurchase, type ForSale } from "~/components/track/complete-purchase";

function dialog(cart: number | null, item: ForSale | null) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      Component: () => (
        <CompletePurchase
          open
          onClose={() => {}}
          title="Glow"
          artistName="Mara Vale"
          artworkUrl="/a.jpg"
          price={1.29}
          currency="USD"
          formats={null}
          item={item}
        />
      ),
    },
  ]);
  return renderToStaticMarkup(
    <Stub initialEntries={["/"]} hydrationData={{ loaderData: { root: { user: null, playlists: [], origin: "", cart } } }} />,
  );
}

const track: ForSale = { kind: "track", id: "a1000000-0000-4000-8000-000000000001", allowPayMore: true };

describe("the purchase dialog", () => {
  it("sells the item where fans can pay: Buy now and Add to cart, posting to the cart, with the fan's own price", () => {
    const html = dialog(0, track);
    expect(html).toMatch(/<form(?=[^>]*method="post")(?=[^>]*action="\/cart")/);
    expect(html).toMatch(/<button(?=[^>]*name="intent")(?=[^>]*value="buy-now")[^>]*>Buy now</);
    expect(html).toMatch(/<button(?=[^>]*name="intent")(?=[^>]*value="add")[^>]*>Add to cart</);
    expect(html).toContain(`name="id" value="${track.id}"`);
    expect(html).toMatch(/<input(?=[^>]*name="amount")(?=[^>]*value="1.29")/);
    expect(html).not.toContain("Payment options will be available soon.");
  });

  it("asks no price of its own where the price is fixed", () => {
    expect(dialog(2, { ...track, allowPayMore: false })).not.toContain('name="amount"');
  });

  it("keeps the spec's text without payment keys, and for what is not sold yet", () => {
    for (const html of [dialog(null, track), dialog(0, null)]) {
      expect(html).toContain("Payment options will be available soon.");
      expect(html).not.toContain('value="buy-now"');
    }
  });
});
