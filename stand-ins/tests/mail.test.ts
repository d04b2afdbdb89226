// The mail stand-in, spoken to as the Worker speaks to Resend: a send answered with its id and kept in the
// outbox, once per idempotency key; wrong keys and incomplete mails refused with Resend's error shape; a
// provider that is down, when a test asks for one; more than 2 sends a second refused, as Resend refuses them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailStandIn, type MailStandIn } from "../mail.ts";

let standIn: MailStandIn;

beforeAll(async () => {
  // Its rate limit raised: these tests send back to back (the limit has its own test below).
  standIn = await startMailStandIn({ apiKey: "re_stand_in", requestsPerSecond: 100 });
});
afterAll(() => standIn.close());

const send = (body: object, { key = "re_stand_in", idempotencyKey }: { key?: string; idempotencyKey?: string } = {}) =>
  fetch(`${standIn.url}/emails`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });

const receipt = {
  from: "Crate <receipts@crate.example>",
  to: ["fan@example.com"],
  subject: "Your receipt",
  html: "<p>Thanks</p>",
  text: "Thanks",
};

describe("the mail stand-in", () => {
  it("sends a mail once per idempotency key, and lists it in the outbox", async () => {
    const first = await send(receipt, { idempotencyKey: "mail-1" });
    expect(first.status).toBe(200);
    const { id } = (await first.json()) as { id: string };
    expect(((await (await send(receipt, { idempotencyKey: "mail-1" })).json()) as { id: string }).id).toBe(id);
    expect((await send({ ...receipt, subject: "Other" }, { idempotencyKey: "mail-1" })).status).toBe(409);
    expect(standIn.messages.filter((mail) => mail.id === id)).toHaveLength(1);
    const listed = await fetch(`${standIn.url}/emails`, { headers: { Authorization: "Bearer re_stand_in" } });
    expect(((await listed.json()) as { data: { id: string; subject: string }[] }).data[0]).toMatchObject({ id, subject: "Your receipt" });
    expect(await (await fetch(standIn.url)).text()).toContain("Your receipt");
  });

  it("shows each mail's headers and tags in the outbox, as a mail client would read them", async () => {
    const unsubscribe = "<https://crate.example/unsubscribe?token=a&b>";
    await send({
      ...receipt,
      subject: "New from Ember Road",
      headers: { "List-Unsubscribe": unsubscribe, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      tags: [{ name: "kind", value: "release" }],
    });
    const outbox = await (await fetch(standIn.url)).text();
    expect(outbox).toContain("<dt>List-Unsubscribe</dt><dd>&#60;https://crate.example/unsubscribe?token=a&#38;b&#62;</dd>");
    expect(outbox).toContain("<dt>List-Unsubscribe-Post</dt><dd>List-Unsubscribe=One-Click</dd>");
    expect(outbox).toContain("<dt>tag kind</dt><dd>release</dd>");
  });

  it("refuses a wrong or missing key and an incomplete mail, as Resend does", async () => {
    expect((await send(receipt, { key: "re_wrong" })).status).toBe(403);
    expect(await (await send({ ...receipt, to: ["not an address"] })).json()).toMatchObject({ statusCode: 422, name: "validation_error" });
    expect((await send({ ...receipt, subject: "" })).status).toBe(422);
  });

  it("fails the next sends when asked, as a provider that is down", async () => {
    expect((await fetch(`${standIn.url}/_failures`, { method: "POST", body: "1" })).status).toBe(204);
    expect((await send(receipt, { idempotencyKey: "mail-down" })).status).toBe(500);
    expect((await send(receipt, { idempotencyKey: "mail-down" })).status).toBe(200);
  });
});

describe("the mail stand-in's rate limit", () => {
  // Resend: "The default maximum rate limit is 2 requests per second per team [...] After that, you'll hit
  // the rate limit and receive a 429 response error code", with `retry-after` in seconds
  // (https://resend.com/docs/api-reference/rate-limit).
  it("takes 2 sends a second and answers the third 429 with retry-after, until the second has passed", async () => {
    const limitedStandIn = await startMailStandIn({ apiKey: "re_limited" });
    try {
      const sendTo = (to: string) =>
        fetch(`${limitedStandIn.url}/emails`, {
          method: "POST",
          headers: { Authorization: "Bearer re_limited", "Content-Type": "application/json" },
          body: JSON.stringify({ ...receipt, to: [to] }),
        });
      const first = await sendTo("one@example.com");
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-limit")).toBe("2");
      expect(first.headers.get("ratelimit-remaining")).toBe("1");
      expect((await sendTo("two@example.com")).status).toBe(200);
      const third = await sendTo("three@example.com");
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("1");
      expect(third.headers.get("ratelimit-remaining")).toBe("0");
      expect(await third.json()).toMatchObject({ statusCode: 429, name: "rate_limit_exceeded" });
      expect(limitedStandIn.messages.map((mail) => mail.to[0])).toEqual(["one@example.com", "two@example.com"]);
      expect(await (await fetch(`${limitedStandIn.url}/_limited`)).json()).toEqual(["three@example.com"]);

      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await sendTo("three@example.com")).status).toBe(200);
    } finally {
      await limitedStandIn.close();
    }
  });
});
