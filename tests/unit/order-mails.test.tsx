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
    paid_at: "2026-11-29T00:00:00Z",
    buyer_email: "fan@example.com",
    guest: false,
    country: "FR",
    waived_withdrawal: false,
  },
  lines: [
    {
      id: "line",
      kind: "track",
      track_id: "00000000-0000-4000-8000-000000000002",
      release_id: null,
      title: '<img src=x onerror="alert(1)">',
      artist_name: "Tom & Jerry",
      amount: 500,
      discount_code: "HALF",
      code_discount: 50,
      bundle_discount: 0,
      total: 450,
      artist_share: 396,
      refunded: false,
    },
  ],
};

describe("order mails", () => {
  it("escapes what people typed, and names the price, the discount, the share and the download", () => {
    const message = orderMail(mail, "https://crate.example");
    expect(message.subject).toBe("Your Crate receipt 3F9A0C12");
    expect(message.html).not.toContain("<img");
    expect(message.html).toContain("&lt;img");
    expect(message.html).toContain("Tom &amp; Jerry");
    expect(message.text).toContain("€4.50 (price €5.00; code HALF: −€0.50); artist’s share €3.96");
    expect(message.text).toContain("Download: https://crate.example/track/00000000-0000-4000-8000-000000000002/download");
  });
});
