// The artist's Store Settings without JavaScript: the row created with the spec's defaults on the first
// visit, rows added and removed by buttons that post an intent (nothing saved until Save), every refusal
// next to its row's field with what was typed kept, and who may open the page.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, newArtist, serviceClient, signedIn, text } from "./support.ts";

const path = "/dashboard/artist/store";
let artist: { visitor: Visitor; id: string };

beforeAll(async () => {
  artist = await newArtist("Store Tester");
});

async function storedRow() {
  const { data } = await serviceClient
    .from("store_settings")
    .select("pricing_tiers, discounts, bundling")
    .eq("artist_id", artist.id)
    .maybeSingle();
  return data;
}

/** All the values of the inputs named `name`, in page order. */
const valuesOf = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<input[^>]*name="${name}"[^>]*>`, "g"))].map((input) => input[0].match(/value="([^"]*)"/)?.[1] ?? "");

/** The values of the ticked checkboxes named `name`. */
const tickedValues = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<input[^>]*name="${name}"[^>]*>`, "g"))]
    .filter((input) => / checked=""/.test(input[0]))
    .map((input) => input[0].match(/value="([^"]*)"/)?.[1] ?? "");

const filled = {
  tierId: ["std", "vip"],
  tierName: ["Standard", "Supporter"],
  tierPrice: ["0.99", "5"],
  tierDescription: ["MP3", ""],
  discountId: ["d1", "d2"],
  discountCode: ["SPRING", "LOYAL"],
  discountPercentage: ["15", "100"],
  discountValidUntil: ["2027-03-01", ""],
  discountMaxUses: ["", "25"],
  discountActive: ["d1"],
  bundlingEnabled: "on",
  bundlingPercentage: "12.5",
};

describe("Store Settings", () => {
  it("asks a visitor to log in and answers a fan 403", async () => {
    const visitor = await new Visitor().get(path);
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get(path)).response.status).toBe(403);
    expect((await fan.post(path, { intent: "save" })).response.status).toBe(403);
  });

  it("creates the row with the spec's defaults on the first visit", async () => {
    expect(await storedRow()).toBeNull();
    const { response, html } = await artist.visitor.get(path);
    expect(response.status).toBe(200);
    expect(text(html)).toContain("No pricing tiers yet.");
    expect(text(html)).toContain("No discount codes yet.");
    expect(valuesOf(html, "bundlingPercentage")).toEqual(["10"]);
    expect(await storedRow()).toEqual({ pricing_tiers: [], discounts: [], bundling: { enabled: false, discountPercentage: 10 } });
  });

  it("adds and removes rows without saving, keeping what was typed", async () => {
    const added = await artist.visitor.post(path, { ...filled, intent: "add-tier" });
    expect(added.response.status).toBe(200);
    expect(valuesOf(added.html, "tierName")).toEqual(["Standard", "Supporter", ""]);
    expect(valuesOf(added.html, "discountCode")).toEqual(["SPRING", "LOYAL"]);
    expect(text(added.html)).toContain("Not saved yet: press Save store settings to keep your changes.");
    const removed = await artist.visitor.post(path, { ...filled, intent: "remove-discount:d1" });
    expect(valuesOf(removed.html, "discountCode")).toEqual(["LOYAL"]);
    expect(valuesOf(removed.html, "discountActive")).toEqual(["d2"]);
    expect((await storedRow())?.pricing_tiers).toEqual([]);
  });

  it("saves tiers, discounts and bundling, and shows them again", async () => {
    const saved = await artist.visitor.post(path, filled);
    expect(saved.response.status).toBe(200);
    expect(text(saved.html)).toContain("Store settings saved");
    expect(await storedRow()).toEqual({
      pricing_tiers: [
        { id: "std", name: "Standard", price: 0.99, description: "MP3" },
        { id: "vip", name: "Supporter", price: 5, description: null },
      ],
      discounts: [
        { id: "d1", code: "SPRING", percentage: 15, validUntil: "2027-03-01", active: true, maxUses: null },
        { id: "d2", code: "LOYAL", percentage: 100, validUntil: null, active: false, maxUses: 25 },
      ],
      bundling: { enabled: true, discountPercentage: 12.5 },
    });
    const { html } = await artist.visitor.get(path);
    expect(valuesOf(html, "tierName")).toEqual(["Standard", "Supporter"]);
    expect(tickedValues(html, "discountActive")).toEqual(["d1"]);
  });

  it("refuses each bad value next to its row's field, keeping what was typed and the stored row", async () => {
    const before = await storedRow();
    const refusals: [Record<string, string | string[]>, string][] = [
      [{ tierName: ["Standard", ""] }, "Every tier needs a name"],
      [{ tierPrice: ["0.99", "-1"] }, "Price must be from 0.00 to 1,000.00, in cents"],
      [{ tierPrice: ["0.995", "5"] }, "Price must be from 0.00 to 1,000.00, in cents"],
      [{ discountPercentage: ["15", "101"] }, "Discount must be a whole percentage from 0 to 100"],
      [{ discountPercentage: ["12.5", "10"] }, "Discount must be a whole percentage from 0 to 100"],
      [{ discountCode: ["SPRING", "spring"] }, "You already have a discount with this code"],
      [{ discountCode: ["", "LOYAL"] }, "Every discount needs a code"],
      [{ bundlingPercentage: "150" }, "Bundle discount must be a percentage from 0 to 100"],
      [{ tierPrice: ["0.99", "1e15"] }, "Price must be from 0.00 to 1,000.00, in cents"],
      [{ discountValidUntil: ["2024-02-30", ""] }, "Valid until must be a date"],
      [{ discountMaxUses: ["0", "25"] }, "Uses must be a whole number from 1 to 1,000,000"],
      [{ discountMaxUses: ["", "2.5"] }, "Uses must be a whole number from 1 to 1,000,000"],
    ];
    for (const [change, message] of refusals) {
      const { response, html } = await artist.visitor.post(path, { ...filled, ...change });
      expect(response.status, message).toBe(400);
      expect(text(html)).toContain(message);
      for (const [name, value] of Object.entries(change)) expect(valuesOf(html, name)).toEqual([value].flat());
    }
    expect(await storedRow()).toEqual(before);
  });

  it("counts a list's rows before looking at any of them", async () => {
    const before = await storedRow();
    const tiers = Array.from({ length: 21 }, (_, row) => `t${row}`);
    const { response, html } = await artist.visitor.post(path, {
      ...filled,
      tierId: tiers,
      tierName: tiers.map(() => "Fan"),
      tierPrice: tiers.map(() => "1"),
      tierDescription: tiers.map(() => ""),
    });
    expect(response.status).toBe(400);
    expect(text(html)).toContain("At most 20 pricing tiers");
    expect(await storedRow()).toEqual(before);
  });

  it("refuses thousands of rows at once, as too large a form, and saves nothing", async () => {
    const before = await storedRow();
    const rows = Array.from({ length: 10_000 }, (_, row) => `d${row}`);
    const { response, html } = await artist.visitor.post(path, {
      discountId: rows,
      discountCode: rows,
      discountPercentage: rows.map(() => "10"),
      discountValidUntil: rows.map(() => ""),
      discountActive: rows,
    });
    expect(response.status).toBe(413);
    expect(text(html)).toContain("This form is too large to send. Please shorten it and try again.");
    expect(await storedRow()).toEqual(before);
  });

  it("refuses a form past its size that does not say its length (sent in chunks), and saves nothing", async () => {
    const before = await storedRow();
    const chunk = new TextEncoder().encode(`tierDescription=${"x".repeat(64 * 1024)}&`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let sent = 0; sent < 5; sent++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const init = { method: "POST", body, duplex: "half", headers: { "Content-Type": "application/x-www-form-urlencoded" } };
    const { response } = await artist.visitor.request(path, init as RequestInit);
    expect(response.status).toBe(413);
    expect(await storedRow()).toEqual(before);
  });
});
