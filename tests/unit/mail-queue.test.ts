// Mail links go to the site's address as its setting (SITE_URL) names it, never to the address a request
// came in at: the page Worker queues a mail's id alone, and the media Worker renders it with SITE_URL.
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleMailBatch, queueMails } from "~/lib/mail/mail-queue.server";
import type { MailToSend } from "~/lib/mail/order-mails.server";

const mailId = "00000000-0000-4000-8000-000000000001";
const trackId = "00000000-0000-4000-8000-000000000002";

const receipt: MailToSend = {
  id: mailId,
  kind: "receipt",
  recipient: "fan@example.com",
  sent: false,
  order: {
    id: "3f9a0c12-0000-4000-8000-000000000000",
    currency: "EUR",
    total: 500,
    taxes: [],
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
      item_id: trackId,
      title: "Greenhouse",
      artist_name: "The Paper Lanterns",
      amount: 500,
      discount_code: null,
      code_discount: 0,
      bundle_discount: 0,
      total: 500,
      tax: 0,
      artist_share: 440,
      refunded: false,
    },
  ],
};

/** The consumer's own queue binding (its variables are checked once, so every test hands it the same). */
const mailQueue = { sendBatch: vi.fn() };

afterEach(() => vi.unstubAllGlobals());

describe("the mail queue", () => {
  it("queues a mail's id alone: no address a request came in at", async () => {
    const sendBatch = vi.fn();
    await queueMails({ sendBatch } as unknown as Queue, [mailId]);
    expect(sendBatch).toHaveBeenCalledWith([{ body: { mail: mailId }, contentType: "json" }]);
  });

  it("links a mail to SITE_URL, whatever origin a message queued before names", async () => {
    const sent: { html: string; text: string }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.endsWith("/rpc/mail_to_send")) return Response.json(receipt);
        if (url.endsWith("/rpc/mail_attempted")) return Response.json(null);
        if (url === "https://mail.example/emails") {
          sent.push(JSON.parse(String(init?.body)) as { html: string; text: string });
          return Response.json({ id: "sent-1" });
        }
        return new Response(null, { status: 404 });
      }),
    );
    const message = { id: "m1", body: { mail: mailId, origin: "https://evil.example" }, attempts: 1, ack: vi.fn(), retry: vi.fn() };
    await handleMailBatch({ queue: "marketplace-mail", messages: [message] } as unknown as MessageBatch<unknown>, {
      SUPABASE_URL: "https://backend.example",
      SUPABASE_ANON_KEY: "anon",
      MARKETPLACE_SECRET: "a".repeat(32),
      RESEND_API_KEY: "re_test",
      MAIL_API_URL: "https://mail.example",
      SITE_URL: "https://crate.example",
      MAIL: mailQueue,
    });
    expect(message.ack).toHaveBeenCalled();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`https://crate.example/track/${trackId}/download`);
    expect(sent[0]!.html).toContain("https://crate.example/dashboard/fan/purchased");
    expect(`${sent[0]!.html}${sent[0]!.text}`).not.toContain("evil.example");
  });

  it("holds a mail the provider's rate limit refused until its retry-after, counting no failure", async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input instanceof Request ? input.url : input);
        asked.push(url);
        if (url.endsWith("/rpc/mail_to_send")) return Response.json(receipt);
        if (url === "https://mail.example/emails")
          return Response.json(
            { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." },
            { status: 429, headers: { "retry-after": "3" } },
          );
        return new Response(null, { status: 404 });
      }),
    );
    const message = (id: string) => ({ id, body: { mail: mailId }, attempts: 1, ack: vi.fn(), retry: vi.fn() });
    const [first, second] = [message("m1"), message("m2")];
    await handleMailBatch({ queue: "marketplace-mail", messages: [first, second] } as unknown as MessageBatch<unknown>, {
      SUPABASE_URL: "https://backend.example",
      SUPABASE_ANON_KEY: "anon",
      MARKETPLACE_SECRET: "a".repeat(32),
      RESEND_API_KEY: "re_test",
      MAIL_API_URL: "https://mail.example",
      SITE_URL: "https://crate.example",
      MAIL: mailQueue,
    });
    // Both queued afresh after 3 s (the second never tried), neither retried nor recorded as failed.
    expect(mailQueue.sendBatch).toHaveBeenCalledWith([
      { body: { mail: mailId }, contentType: "json", delaySeconds: 3 },
      { body: { mail: mailId }, contentType: "json", delaySeconds: 3 },
    ]);
    expect([first.ack, second.ack].every((ack) => ack.mock.calls.length === 1)).toBe(true);
    expect(first.retry).not.toHaveBeenCalled();
    expect(asked.filter((url) => url === "https://mail.example/emails")).toHaveLength(1);
    expect(asked.some((url) => url.endsWith("/rpc/mail_attempted"))).toBe(false);
  });
});
