// A receipt speaks of what buyers and artists typed (titles, names): in its HTML that text is text, never markup.
import { describe, expect, it } from "vitest";
import { orderMail, type MailToSend } from "~/lib/mail/order-mails.server";

const mail: MailToSend = {
  id: "00000000-0000-4000-8000-000000000001",
  kind: "receipt",
  recipient: "fan@example.com",
  sent: false,
  order: {
    id: "3f9a0c12-0000-4000-8000-000000000000",
    currency: "EUR",
    total: 450,
    // France's VAT, on top of the price.
    taxes: [{ name: "VAT", country: "FR", rate: 20, amount: 90 }],
    paid_at: "2026-11-29T00:00:00Z",
    buyer_email: "fan@example.com",
    guest: false,
    country: "FR",
    waived_withdrawal: false,
    ship_to: null,
    shipping_address: null,
  },
  lines: [
    {
      id: "line",
      kind: "track",
      quantity: 1,
      shipping: 0,
      item_id: "00000000-0000-4000-8000-000000000002",
      title: '<img src=x onerror="alert(1)">',
      artist_name: "Tom & Jerry",
      amount: 500,
      discount_code: "HALF",
      code_discount: 50,
      bundle_discount: 0,
      total: 450,
      tax: 90,
      artist_share: 396,
      refunded: false,
    },
  ],
};

describe("order mails", () => {
  it("gives a refunded line's tax back with its price", () => {
    const refund = orderMail(
      { ...mail, kind: "refund", lines: mail.lines.map((line) => ({ ...line, refunded: true })) },
      "https://crate.example",
    );
    expect(refund.text).toContain("€5.40 for");
  });

  it("tells a pre-order's buyer the day it moved to, escaped", () => {
    const moved = orderMail(
      { ...mail, kind: "preorder_moved", moved_to: "2027-04-12", lines: mail.lines.map((line) => ({ ...line, kind: "album" })) },
      "https://crate.example",
    );
    expect(moved.subject).toBe('<img src=x onerror="alert(1)"> moved to 12 April 2027');
    expect(moved.html).not.toContain("<img");
    expect(moved.text).toContain("Tom & Jerry moved");
    expect(moved.text).toContain("(order 3F9A0C12) to 12 April 2027. It is yours on that day");
    expect(moved.text).toContain("https://crate.example/dashboard/fan/purchased");
  });

  it("escapes what people typed, and names the price, the discount, the share and the download", () => {
    const message = orderMail(mail, "https://crate.example");
    expect(message.subject).toBe("Your Crate receipt 3F9A0C12");
    expect(message.html).not.toContain("<img");
    expect(message.html).toContain("&lt;img");
    expect(message.html).toContain("Tom &amp; Jerry");
    expect(message.text).toContain("€4.50 (price €5.00; code HALF: −€0.50); artist’s share €3.96");
    // The tax comes on top of the price, named as a receipt names it; the artist's share is of the price.
    expect(message.text).toContain("Order 3F9A0C12, €5.40 in all.");
    expect(message.text).toContain("VAT (FR) 20%: €0.90");
    expect(message.html).toContain("VAT (FR) 20%: €0.90");
    expect(message.text).toContain("Download: https://crate.example/track/00000000-0000-4000-8000-000000000002/download");
  });

  it("tells the artist where their merch goes, with its quantity and shipping, and offers no download of it", () => {
    const sale: MailToSend = {
      ...mail,
      kind: "sale",
      recipient: "artist@example.com",
      order: {
        ...mail.order,
        total: 3800,
        ship_to: "DE",
        shipping_address: {
          name: "Ada Fan",
          line1: "Hauptstraße 1",
          line2: null,
          city: "Berlin",
          postal_code: "10115",
          state: null,
          country: "DE",
        },
      },
      lines: [
        {
          ...mail.lines[0]!,
          kind: "merch",
          item_id: "00000000-0000-4000-8000-000000000003",
          title: "Lantern tee",
          quantity: 2,
          shipping: 800,
          amount: 3000,
          discount_code: null,
          code_discount: 0,
          total: 3800,
          artist_share: 3560,
        },
      ],
    };
    const message = orderMail(sale, "https://crate.example");
    expect(message.text).toContain("Lantern tee (Merch × 2) · Tom & Jerry: €38.00 (shipping €8.00); artist’s share €35.60");
    expect(message.text).toContain("Please send the merch to:\nAda Fan\nHauptstraße 1\n10115 Berlin\nGermany");
    expect(message.text).not.toContain("Download");
  });

  it("fits a 390 px phone: the lines are no table of columns, nothing is wider than 360 px, and a long word wraps", () => {
    for (const kind of ["receipt", "sale"] as const) {
      const { html } = orderMail({ ...mail, kind }, "https://crate.example");
      expect(html).not.toContain("<table");
      const widths = [...html.matchAll(/width:\s*(\d+)px|width="(\d+)"/g)].map((found) => Number(found[1] ?? found[2]));
      expect(widths.filter((width) => width > 360)).toEqual([]);
      expect(html).toContain("max-width:40rem");
      expect(html).toContain("overflow-wrap:anywhere");
      // the figures a table's columns held, each named
      expect(html).toMatch(/Price €5\.00.*Discount code HALF: −€0\.50.*Paid <strong>€4\.50<\/strong>.*Artist’s share (<!-- -->)?€3\.96/);
    }
  });
});
