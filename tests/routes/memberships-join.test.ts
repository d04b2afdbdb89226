// Joining an artist's membership from their page as a browser without JavaScript: the page lists the open
// tiers with what they cost and give; a visitor's Join asks them to log in; the artist sees no Join and is
// refused one; a fan's Join goes on to the payment page (the stand-in's), is paid there, and the page it
// comes back to says they are a member, made once; paying less than the price is refused next to the field;
// the artist is told of the new member.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, newArtist, newFan, serviceClient, text } from "./support.ts";

let artist: Awaited<ReturnType<typeof newArtist>>;
let tierId: string;
let page: string;

beforeAll(async () => {
  artist = await newArtist(`Joinable ${Date.now().toString(36)}`);
  page = `/artist/${artist.id}`;
  const { data, error } = await serviceClient
    .from("membership_tiers")
    .insert({
      artist_id: artist.id,
      name: "Inner circle",
      monthly_price_cents: 500,
      yearly_price_cents: 5000,
      currency: "EUR",
      allow_pay_more: true,
      grants_back_catalogue: true,
    })
    .select("id")
    .single();
  if (error) throw error;
  tierId = data.id;
});

const join = (fields: Record<string, string> = {}) => ({ intent: "join", tierId, interval: "year", amount: "", ...fields });

describe("joining an artist's membership", () => {
  it("lists the open tiers, and sends a visitor's Join to log in first", async () => {
    const visitor = new Visitor();
    const shown = text((await visitor.get(page)).html);
    expect(shown).toContain("Become a member");
    expect(shown).toContain("Inner circle €5.00 a month or €50.00 a year");
    expect(shown).toContain("The whole back catalogue on joining");
    const { response } = await visitor.post(page, join());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: page })}`);
  });

  it("shows the artist no Join, and refuses theirs", async () => {
    const { html } = await artist.visitor.get(page);
    expect(text(html)).toContain("Inner circle");
    expect(html).not.toContain('aria-label="Join Inner circle"');
    expect((await artist.visitor.post(page, join())).response.status).toBe(403);
  });

  it("takes a fan to the payment page, and makes them a member once they paid", async () => {
    const fan = await newFan(`member${Date.now().toString(36)}`);
    expect((await fan.visitor.get(page)).html).toContain('aria-label="Join Inner circle"');

    const tooLittle = await fan.visitor.post(page, join({ amount: "20" }));
    expect(tooLittle.response.status).toBe(400);
    expect(text(tooLittle.html)).toContain("Pay at least €50.00.");
    const tooMuch = await fan.visitor.post(page, join({ interval: "month", amount: "600" }));
    expect(tooMuch.response.status).toBe(400);
    expect(text(tooMuch.html)).toContain("Pay at most €500.00.");

    const started = await fan.visitor.post(page, join({ amount: "60" }));
    expect(started.response.status).toBe(303);
    const checkout = started.response.headers.get("Location")!;
    const paid = await fetch(checkout, {
      method: "POST",
      body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "DE" }),
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("Location")!);
    expect(back.pathname).toBe(page);
    expect(back.searchParams.get("session_id")).toMatch(/^cs_/);

    const returned = await fan.visitor.get(`${back.pathname}${back.search}`);
    expect(returned.response.status).toBe(200);
    expect(text(returned.html)).toContain("You're a member (Inner circle)");
    expect(returned.html).not.toContain('aria-label="Join Inner circle"');
    // Once, however often the return page and the webhook say it.
    await fan.visitor.get(`${back.pathname}${back.search}`);
    const { data: memberships } = await serviceClient.from("memberships").select("*").eq("fan_id", fan.id);
    expect(memberships).toHaveLength(1);
    expect(memberships![0]).toMatchObject({ tier_id: tierId, billing_interval: "year", amount_cents: 6000, state: "active" });
    const { data: lines } = await serviceClient.from("order_lines").select("id").eq("kind", "membership").eq("item_id", tierId);
    expect(lines).toHaveLength(1);

    const again = await fan.visitor.post(page, join());
    expect(again.response.status).toBe(409);
    expect(text(again.html)).toContain("You're a member (Inner circle)");

    const { html: told } = await artist.visitor.get("/notifications");
    const { data: profile } = await serviceClient.from("fan_profiles").select("username").eq("id", fan.id).single();
    expect(text(told)).toContain(`${profile!.username} became a member.`);
  });
});
