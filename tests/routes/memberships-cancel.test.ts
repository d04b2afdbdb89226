// A fan's Memberships page as a browser without JavaScript uses it: a member sees their membership (tier,
// price, when it renews), asks to cancel it, is told the day it ends, and confirms: Stripe's subscription is
// set to end at its period's end and the page says so at once, with no Cancel left. Another fan cannot
// cancel it; a visitor is sent to log in.
import Stripe from "stripe";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Visitor, newArtist, newFan, serviceClient, text } from "./support.ts";

const { url: stripeUrl, secretKey } = inject("stripe");
const api = new URL(stripeUrl);
const stripe = new Stripe(secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });

const page = "/dashboard/fan/memberships";
let fan: Awaited<ReturnType<typeof newFan>>;
let membership: { id: string; subscription_id: string; current_period_end: string };

/** A day as the page writes it (the app's formatter, en-US): "January 7, 2027". */
const day = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

/** Waits for what the stand-in's deliveries write (they run beside the page's answer). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; ; tries++) {
    const value = await read();
    if (done(value) || tries > 50) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stateOf = async (id: string) => (await serviceClient.from("memberships").select("state").eq("id", id).single()).data?.state;

beforeAll(async () => {
  const artist = await newArtist(`Leaving hub ${Date.now().toString(36)}`);
  const { data: tier, error } = await serviceClient
    .from("membership_tiers")
    .insert({ artist_id: artist.id, name: "Front row", monthly_price_cents: 500, currency: "EUR" })
    .select("id")
    .single();
  if (error) throw error;
  fan = await newFan(`leaver${Date.now().toString(36)}`);
  // Joined as Stripe's webhook makes a member: a subscription paid with 4242 on the stand-in's page.
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    line_items: [
      {
        quantity: 1,
        price_data: { currency: "eur", unit_amount: 500, recurring: { interval: "month" }, product_data: { name: "Front row" } },
      },
    ],
    customer_email: fan.email,
    subscription_data: { metadata: { fan_id: fan.id, membership_tier_id: tier.id, membership_interval: "month" } },
    success_url: "http://localhost/done?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://localhost/",
  });
  const paid = await fetch(session.url!, {
    method: "POST",
    body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "DE" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const subscriptionId = String((await stripe.checkout.sessions.retrieve(session.id)).subscription);
  const made = await eventually(
    async () =>
      (
        await serviceClient
          .from("memberships")
          .select("id, subscription_id, current_period_end")
          .eq("subscription_id", subscriptionId)
          .maybeSingle()
      ).data,
    (found) => found !== null,
  );
  if (!made) throw new Error("the membership was not made");
  membership = made;
});

describe("a fan's memberships", () => {
  it("sends a visitor to log in", async () => {
    const { response } = await new Visitor().get(page);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
  });

  it("lists the member's membership with when it renews", async () => {
    const listed = text((await fan.visitor.get(page)).html);
    expect(listed).toContain("Front row · €5.00 a month · Active");
    expect(listed).toContain(`Renews on ${day(membership.current_period_end)}`);
    expect(listed).toContain("Cancel your membership of");
  });

  it("refuses another fan's cancel", async () => {
    const other = await newFan(`stranger${Date.now().toString(36)}`);
    expect(text((await other.visitor.get(`${page}?cancel=${membership.id}`)).html)).not.toContain("Confirm cancel");
    const refused = await other.visitor.post(page, { membershipId: membership.id });
    expect(refused.response.status).toBe(403);
    expect(text(refused.html)).toContain("This membership is not yours to cancel.");
    expect(await stateOf(membership.id)).toBe("active");
    expect((await stripe.subscriptions.retrieve(membership.subscription_id)).cancel_at_period_end).toBe(false);
  });

  it("asks to confirm, then cancels at the period's end and says so at once", async () => {
    const asked = text((await fan.visitor.get(`${page}?cancel=${membership.id}`)).html);
    expect(asked).toContain(`Your membership ends on ${day(membership.current_period_end)}`);
    expect(asked).toContain("Confirm cancel");
    expect(await stateOf(membership.id)).toBe("active");

    const confirmed = await fan.visitor.post(page, { membershipId: membership.id });
    expect(confirmed.response.status).toBe(303);
    expect(await stateOf(membership.id)).toBe("cancelling");
    expect((await stripe.subscriptions.retrieve(membership.subscription_id)).cancel_at_period_end).toBe(true);

    const after = text((await fan.visitor.get(confirmed.response.headers.get("Location")!)).html);
    expect(after).toContain(`is cancelled. It ends on ${day(membership.current_period_end)}`);
    expect(after).toContain("and you will not be charged again.");
    expect(after).toContain(`Front row · €5.00 a month · Cancelled`);
    expect(after).toContain(`Ends on ${day(membership.current_period_end)}`);
    expect(after).not.toContain("Cancel your membership of");

    // Confirmed again (a second tab): nothing more to do.
    expect((await fan.visitor.post(page, { membershipId: membership.id })).response.status).toBe(303);
    expect(await stateOf(membership.id)).toBe("cancelling");
  });
});
