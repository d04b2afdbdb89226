// Download codes as a browser without JavaScript uses them: the artist makes codes for a release, exports
// them as CSV and disables one; a fan redeems one at /redeem (once; a wrong or used code says so next to
// the field; guessing is stopped); everyone else is refused.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, albumId, inputValue, newFan, serviceClient, signedIn, text } from "./support.ts";

const satellites = albumId("Small Town Satellites");
const codesPage = `/dashboard/artist/codes/${satellites}`;
let artist: Visitor;

beforeAll(async () => {
  artist = await signedIn("artist@example.com", "artist-demo-pass");
});

/** The codes of the demo album not yet redeemed or disabled, as the studio lists them. */
async function unusedCodes(): Promise<string[]> {
  const { data } = await serviceClient
    .from("download_codes")
    .select("code")
    .eq("release_id", satellites)
    .is("redeemed_at", null)
    .is("disabled_at", null)
    .order("created_at");
  return (data ?? []).map((row) => row.code as string);
}

describe("the studio's download codes", () => {
  it("lists the artist's releases with their codes counted, and makes codes for one", async () => {
    const index = await artist.get("/dashboard/artist/codes");
    expect(index.response.status).toBe(200);
    expect(index.html).toContain(`href="${codesPage}"`);
    const before = (await unusedCodes()).length;
    const made = await artist.post(codesPage, { intent: "create", count: "5" });
    expect(made.response.status).toBe(200);
    expect(text(made.html)).toContain("Made 5 new codes.");
    expect((await unusedCodes()).length).toBe(before + 5);
    // Each is shown as people type it.
    const [code] = await unusedCodes();
    expect(text(made.html)).toContain(`${code!.slice(0, 4)}-${code!.slice(4, 8)}-${code!.slice(8)}`);
  });

  it("refuses a count outside 1 to 1,000 next to its field, keeping what was typed", async () => {
    for (const count of ["0", "1001", "2.5", "many", "0x10", "1e2"]) {
      const refused = await artist.post(codesPage, { intent: "create", count });
      expect(refused.response.status, count).toBe(400);
      expect(text(refused.html)).toContain("Make from 1 to 1,000 codes at a time");
      expect(inputValue(refused.html, "count")).toBe(count);
    }
  });

  it("exports every code as CSV with where to redeem it and readable dates, and disables an unused one, which can be undone", async () => {
    await artist.post(codesPage, { intent: "create", count: "2" });
    const csv = await artist.get(`/dashboard/artist/codes/${satellites}/export`);
    expect(csv.response.status).toBe(200);
    expect(csv.response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.response.headers.get("content-disposition")).toContain("Small Town Satellites codes.csv");
    const [header, ...rows] = csv.html.trim().split("\r\n");
    expect(header).toBe("code,redeem at,status,made (UTC),redeemed by,redeemed on (UTC)");
    const [code] = await unusedCodes();
    const shown = `${code!.slice(0, 4)}-${code!.slice(4, 8)}-${code!.slice(8)}`;
    const row = rows.find((line) => line.startsWith(`${shown},`))!;
    expect(row).toMatch(new RegExp(`^${shown},http://[^,]+/redeem\\?code=${shown},unused,\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},,$`));

    const { data } = await serviceClient.from("download_codes").select("id").eq("code", code!).single();
    const disabled = await artist.post(codesPage, { intent: "disable", codeId: data!.id });
    expect(disabled.response.status).toBe(303);
    expect((await unusedCodes()).includes(code!)).toBe(false);
    expect((await artist.get(codesPage)).html).toContain(`aria-label="Enable ${shown}"`);
    expect((await artist.post(codesPage, { intent: "enable", codeId: data!.id })).response.status).toBe(303);
    expect((await unusedCodes()).includes(code!)).toBe(true);
  });

  it("is the release's artist's alone: another artist gets 404, a fan 403, a visitor signs in first", async () => {
    const other = await signedIn("lumendrift@example.com", "demo-pass");
    expect((await other.get(codesPage)).response.status).toBe(404);
    expect((await other.get(`/dashboard/artist/codes/${satellites}/export`)).response.status).toBe(404);
    expect((await other.post(codesPage, { intent: "create", count: "5" })).response.status).toBe(403);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get(codesPage)).response.status).toBe(403);
    expect((await fan.get(`/dashboard/artist/codes/${satellites}/export`)).response.status).toBe(403);
    const visitor = await new Visitor().get(codesPage);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(codesPage)}`);
  });
});

describe("redeeming a code", () => {
  it("adds the release to a fan's collection once; the second time it is used", async () => {
    await artist.post(codesPage, { intent: "create", count: "1" });
    const code = (await unusedCodes()).at(-1)!;
    const fan = await newFan(`redeemer${Date.now().toString(36)}`);
    const typed = `${code.slice(0, 4).toLowerCase()} ${code.slice(4, 8)}-${code.slice(8)}`;
    const redeemed = await fan.visitor.post("/redeem", { code: typed });
    expect(redeemed.response.status).toBe(303);
    // Back to the page with the release, so a reload redeems nothing.
    expect(redeemed.response.headers.get("location")).toBe(`/redeem?redeemed=${satellites}`);
    expect(text((await fan.visitor.get(`/redeem?redeemed=${satellites}`)).html)).toContain("Small Town Satellites is now yours");
    // The address alone claims nothing: a release the fan does not own is not announced as theirs.
    expect(text((await fan.visitor.get(`/redeem?redeemed=${albumId("Headlights & Static")}`)).html)).not.toContain("is now yours");
    const purchased = text((await fan.visitor.get("/dashboard/fan/purchased")).html);
    expect(purchased).toContain("Small Town Satellites");
    // A gift, not a sale of $0.00.
    expect(purchased).toContain("From a download code");
    expect(purchased).not.toContain("$0.00");
    expect(text((await artist.get("/dashboard/artist")).html)).toContain("redeemed a download code for");
    const again = await fan.visitor.post("/redeem", { code });
    expect(again.response.status).toBe(409);
    expect(text(again.html)).toContain("This code has already been redeemed.");
    expect(inputValue(again.html, "code")).toBe(code);
    // The studio says who redeemed it.
    expect(text((await artist.get(codesPage)).html)).toContain(`Redeemed by redeemer`);
    // A second code for the release the fan owns now is refused before it is used, and stays unused.
    await artist.post(codesPage, { intent: "create", count: "1" });
    const second = (await unusedCodes()).at(-1)!;
    const owned = await fan.visitor.post("/redeem", { code: second });
    expect(owned.response.status).toBe(409);
    expect(text(owned.html)).toContain("You own this release already.");
    expect((await unusedCodes()).includes(second)).toBe(true);
  });

  it("names the look-alike characters codes never hold, and empties the field once a code is redeemed", async () => {
    const fan = await newFan(`lookalike${Date.now().toString(36)}`);
    const misread = await fan.visitor.post("/redeem", { code: "ABCD-EFGH-JKM0" });
    expect(misread.response.status).toBe(400);
    expect(text(misread.html)).toContain("Codes have no 0, O, 1, I or L: check those characters.");
    expect(inputValue(misread.html, "code")).toBe("ABCD-EFGH-JKM0");
    expect(inputValue((await fan.visitor.get(`/redeem?redeemed=${satellites}`)).html, "code")).toBe("");
  });

  it("answers a mistyped or unknown code next to the field, and stops guessing after 10 attempts an hour", async () => {
    const fan = await newFan(`guesser${Date.now().toString(36)}`);
    const short = await fan.visitor.post("/redeem", { code: "ABC" });
    expect(short.response.status).toBe(400);
    expect(text(short.html)).toContain("A download code has 12 letters and numbers, like ABCD-EFGH-JKMN");
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const wrong = await fan.visitor.post("/redeem", { code: "ZZZZ-ZZZZ-ZZZZ" });
      expect(wrong.response.status).toBe(400);
      expect(text(wrong.html)).toContain("This code does not exist, or it was disabled. Check it and try again.");
    }
    const stopped = await fan.visitor.post("/redeem", { code: "ZZZZ-ZZZZ-ZZZZ" });
    expect(stopped.response.status).toBe(429);
    expect(text(stopped.html)).toContain("Too many attempts. Please wait an hour and try again.");
  });

  it("asks a visitor to sign in and brings them back with the code; an artist is told it is for fans", async () => {
    const visitor = await new Visitor().get("/redeem?code=ABCD-EFGH-JKMN");
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/redeem?code=ABCD-EFGH-JKMN")}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect(inputValue((await fan.get("/redeem?code=ABCD-EFGH-JKMN")).html, "code")).toBe("ABCD-EFGH-JKMN");
    expect((await artist.get("/redeem")).response.status).toBe(403);
    expect((await artist.post("/redeem", { code: "ABCD-EFGH-JKMN" })).response.status).toBe(403);
  });
});
