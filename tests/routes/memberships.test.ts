// The studio's Memberships page as a browser without JavaScript uses it: an artist adds a tier (its
// messages next to the fields, what was typed kept), edits it, closes and reopens it, deletes one without
// members, and is refused a sixth and the deletion of one that has had members; members are listed by
// name; another artist, a fan and a visitor are refused.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, inputValue, marketplaceBackend, newArtist, newFan, serviceClient, signedIn, text } from "./support.ts";

const page = "/dashboard/artist/memberships";
let artist: Awaited<ReturnType<typeof newArtist>>;

beforeAll(async () => {
  artist = await newArtist(`Tiered ${Date.now().toString(36)}`);
});

const tier = (fields: Record<string, string>) => ({
  intent: "save",
  tierId: "",
  name: "Inner circle",
  description: "Everything, as it comes out",
  monthlyPrice: "5",
  yearlyPrice: "50.00",
  currency: "EUR",
  newReleases: "on",
  backCatalogue: "on",
  discountPercent: "10",
  ...fields,
});

async function tiersOf(artistId: string) {
  const { data } = await serviceClient.from("membership_tiers").select("*").eq("artist_id", artistId).order("created_at");
  return data ?? [];
}

describe("the studio's memberships", () => {
  it("adds a tier, lists it with its price and what it gives, and edits it", async () => {
    const added = await artist.visitor.post(page, tier({}));
    expect(added.response.status).toBe(303);
    const [saved] = await tiersOf(artist.id);
    expect(saved).toMatchObject({
      name: "Inner circle",
      monthly_price_cents: 500,
      yearly_price_cents: 5000,
      currency: "EUR",
      grants_new_releases: true,
      grants_back_catalogue: true,
      allow_pay_more: false,
      discount_percent: 10,
      closed: false,
    });
    const listed = text((await artist.visitor.get(page)).html);
    expect(listed).toContain("€5.00 a month or €50.00 a year · Gives new releases, the back catalogue, 10% off · 0 members");
    const edited = await artist.visitor.post(page, tier({ tierId: saved!.id, name: "Front row", yearlyPrice: "", allowPayMore: "on" }));
    expect(edited.response.status).toBe(303);
    expect((await tiersOf(artist.id))[0]).toMatchObject({ name: "Front row", yearly_price_cents: null, allow_pay_more: true });
  });

  it("says what is wrong next to each field, keeping what was typed", async () => {
    const refused = await artist.visitor.post(
      page,
      tier({ name: " ", monthlyPrice: "0.5", yearlyPrice: "12.345", discountPercent: "150" }),
    );
    expect(refused.response.status).toBe(400);
    const said = text(refused.html);
    expect(said).toContain("Every tier needs a name");
    expect(said).toContain("A month's price must be from 1.00 to 500.00, in cents at most");
    expect(said).toContain("A year's price must be from 1.00 to 5,000.00, in cents at most, or empty");
    expect(said).toContain("A discount is a whole percent from 0 to 100");
    // The new tier's form, below the tiers', has what was typed.
    const newTier = refused.html.slice(refused.html.indexOf('id="new-tier-heading"'));
    expect(inputValue(newTier, "monthlyPrice")).toBe("0.5");
    expect(inputValue(newTier, "discountPercent")).toBe("150");
  });

  it("closes and reopens a tier, and deletes one without members", async () => {
    const [saved] = await tiersOf(artist.id);
    expect((await artist.visitor.post(page, { intent: "close", tierId: saved!.id })).response.status).toBe(303);
    expect(text((await artist.visitor.get(page)).html)).toContain(`Reopen ${saved!.name}`);
    expect((await artist.visitor.post(page, { intent: "reopen", tierId: saved!.id })).response.status).toBe(303);
    expect((await tiersOf(artist.id))[0]!.closed).toBe(false);
    await artist.visitor.post(page, tier({ name: "Passing" }));
    const passing = (await tiersOf(artist.id)).find((row) => row.name === "Passing")!;
    expect((await artist.visitor.post(page, { intent: "delete", tierId: passing.id })).response.status).toBe(303);
    expect((await tiersOf(artist.id)).map((row) => row.name)).toEqual([saved!.name]);
  });

  it("lists a tier's members by name, and keeps a tier that has had members from deletion", async () => {
    const [saved] = await tiersOf(artist.id);
    const username = `member${Date.now().toString(36)}`;
    const fan = await newFan(username);
    const { error } = await marketplaceBackend.rpc("membership_paid", {
      invoice_id: `in_${fan.id}`,
      subscription_id: `sub_${fan.id}`,
      fan_id: fan.id,
      tier_id: saved!.id,
      billing_interval: "month",
      amount_cents: 500,
      tax_cents: 0,
      currency: "EUR",
      period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    expect(error).toBeNull();
    const listed = await artist.visitor.get(page);
    expect(text(listed.html)).toContain("1 member");
    expect(listed.html).toContain(`aria-label="Members of ${saved!.name}"`);
    expect(text(listed.html)).toMatch(new RegExp(`${username} joined \\w+ \\d+, \\d{4} · by the month`));
    expect(text(listed.html)).not.toContain(`Delete ${saved!.name}`);
    const refused = await artist.visitor.post(page, { intent: "delete", tierId: saved!.id });
    expect(refused.response.status).toBe(409);
    expect(text(refused.html)).toContain("A tier that has had members can be closed to new ones, not deleted");
  });

  it("refuses a sixth tier", async () => {
    for (const n of [2, 3, 4, 5]) expect((await artist.visitor.post(page, tier({ name: `Tier ${n}` }))).response.status).toBe(303);
    const refused = await artist.visitor.post(page, tier({ name: "Sixth" }));
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("You offer 5 tiers, the most there can be: close or delete one first");
    expect(inputValue(refused.html.slice(refused.html.indexOf('id="new-tier-heading"')), "name")).toBe("Sixth");
  });

  it("is the artist's alone: another artist changes none of theirs, a fan is refused, a visitor signs in first", async () => {
    const [saved] = await tiersOf(artist.id);
    const other = await signedIn("lumendrift@example.com", "demo-pass");
    const renamed = await other.post(page, tier({ tierId: saved!.id, name: "Taken" }));
    expect(renamed.response.status).toBe(404);
    expect((await other.post(page, { intent: "close", tierId: saved!.id })).response.status).toBe(404);
    expect((await tiersOf(artist.id))[0]!.name).toBe(saved!.name);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get(page)).response.status).toBe(403);
    expect((await fan.post(page, tier({}))).response.status).toBe(403);
    const visitor = await new Visitor().get(page);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
  });
});
