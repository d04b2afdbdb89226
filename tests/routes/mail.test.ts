// Mail paced to the provider's rate: a burst of 429s from the mail stand-in (Resend's rate limit, held by
// the stand-in: stand-ins/tests/mail.test.ts) delays a mail until the provider takes sends again, and the
// mail still goes, once.
import { inject, describe, expect, it } from "vitest";
import { Visitor, mailsTo, newArtist } from "./support.ts";

const mail = inject("mail");

/** Keeps the stand-in's rate limit used up for `ms`, as other senders of the same team would: how many sends it took. */
async function burst(ms: number): Promise<number> {
  const until = Date.now() + ms;
  let taken = 0;
  const sender = async () => {
    while (Date.now() < until) {
      const response = await fetch(`${mail.url}/emails`, {
        method: "POST",
        headers: { Authorization: `Bearer ${mail.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from: "Burst <burst@example.com>", to: ["burst@example.com"], subject: "Burst", text: "Burst" }),
      });
      await response.body?.cancel();
      if (response.ok) taken += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([sender(), sender(), sender(), sender()]);
  return taken;
}

describe("mail at the provider's rate limit", () => {
  it("a 429 burst delays mail without dropping it", async () => {
    const artist = await newArtist("Burst Lantern");
    const address = `burst-lantern-${Date.now().toString(36)}@example.com`;
    const bursting = burst(4000);
    // A newsletter signup's confirmation, queued while the burst holds every place the provider has.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signup = await new Visitor().post(`/artist/${artist.id}`, { intent: "newsletter", email: address });
    expect(signup.response.status).toBe(200);
    expect(await bursting).toBeGreaterThan(0);

    // The Worker's send was refused for the rate limit, and waited rather than being given up.
    const limited = (await (await fetch(`${mail.url}/_limited`)).json()) as string[];
    expect(limited).toContain(address);
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 15_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await mailsTo(address)).toHaveLength(1);
  });
});
