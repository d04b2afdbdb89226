// Newsletters by confirmation, without JavaScript: the artist page's form answers "check your inbox"
// whatever the address was (it tells nobody who signed up) and mails a confirmation link; the link's page
// confirms nothing until its button is pressed (mail scanners open links), then says the address is
// subscribed, and once used says so; a link not signed by the Worker is not valid; neither page is cached.
// Past its limit, the form says why beside the address and keeps what was typed. The artist's CSV says
// "pending" until the address confirms. (What a signup and a confirmation do to release mail and
// unsubscribes, and the limits themselves, are proved in newsletters.test.sql.)
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, confirmationLinkTo, inputValue, newArtist, text } from "./support.ts";

let artist: Awaited<ReturnType<typeof newArtist>>;
const address = `harbour-news-${Date.now().toString(36)}@example.com`;
const checkInbox = "Check your inbox to confirm your subscription.";

beforeAll(async () => {
  artist = await newArtist("Quiet Harbour");
});

const signUp = (email: string) => new Visitor().post(`/artist/${artist.id}`, { intent: "newsletter", email });

/** The artist's CSV row of `address`: its last column. */
async function listedAs(email: string) {
  const csv = new TextDecoder().decode((await artist.visitor.download("/dashboard/artist/newsletter.csv")).bytes);
  return new RegExp(`^${email},[^,]+,(\\w+)$`, "m").exec(csv)?.[1];
}

let link: string;

describe("the artist page's newsletter form", () => {
  it("asks the address to confirm, mails it a link, and lists it pending", async () => {
    const signup = await signUp(address);
    expect(signup.response.status).toBe(200);
    expect(text(signup.html)).toContain(checkInbox);
    link = await confirmationLinkTo(address, "Quiet Harbour");
    expect(await listedAs(address)).toBe("pending");
  });
});

describe("the confirmation link", () => {
  it("shows what it confirms and a button, confirms nothing on opening, and is never cached", async () => {
    const page = await new Visitor().get(link);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(text(page.html)).toContain(`Send Quiet Harbour’s news to ${address}?`);
    expect(page.html).toMatch(/<form [^>]*method="post"><button type="submit"[^>]*>Confirm<\/button><\/form>/);
    expect(await listedAs(address)).toBe("pending");
  });

  it("confirms with its button, without signing in", async () => {
    const confirmed = await new Visitor().post(link, {});
    expect(confirmed.response.status).toBe(200);
    expect(confirmed.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(text(confirmed.html)).toContain("You’re subscribed to Quiet Harbour’s news.");
    expect(await listedAs(address)).toBe("yes");
  });

  it("once used, says so", async () => {
    const page = await new Visitor().get(link);
    expect(text(page.html)).toContain(`This link was used already: ${address} confirmed Quiet Harbour’s news.`);
    expect(page.html).not.toContain("Confirm</button>");
    const again = await new Visitor().post(link, {});
    expect(text(again.html)).toContain("This link was used already");
  });

  it("not signed by the Worker, is not valid", async () => {
    const [mailId, signature] = link.split("/").at(-1)!.split(".");
    for (const path of [`/newsletter/${mailId}.${signature!.slice(0, -2)}AA`, "/newsletter/not-a-link"]) {
      const page = await new Visitor().get(path);
      expect(page.response.status).toBe(404);
      expect(page.response.headers.get("Cache-Control")).toBe("private, no-store");
      expect((await new Visitor().post(path, {})).response.status).toBe(404);
    }
  });
});

describe("signing up again", () => {
  it("answers an address subscribed already as any other", async () => {
    const again = await signUp(address);
    expect(again.response.status).toBe(200);
    expect(text(again.html)).toContain(checkInbox);
  });

  it("past the address's limit, says so beside the address and keeps what was typed", async () => {
    // Two signups of the address today so far; the database takes 5 a day.
    for (let signup = 0; signup < 3; signup++) expect((await signUp(address)).response.status).toBe(200);
    const refused = await signUp(address);
    expect(refused.response.status).toBe(429);
    expect(text(refused.html)).toContain("This address was signed up several times today.");
    expect(inputValue(refused.html, "email")).toBe(address);
    expect(refused.html).toContain('aria-describedby="artist-newsletter-email-error"');
  });
});
