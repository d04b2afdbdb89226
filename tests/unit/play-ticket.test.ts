// Play tickets: given with a track's URL to one listener, a play counts with one only after the wait.
// An embed's pass: what a play report from an embedded player brings back, naming its framing site.
// A newsletter confirmation link: it names its mail, and no other link's signature makes one.
import { describe, expect, it } from "vitest";
import { isEmbeddedPlayReport } from "~/lib/http/cross-site.server";
import {
  embedPass,
  newsletterPass,
  playTicket,
  readEmbedPass,
  readNewsletterPass,
  secondsBeforeAPlay,
  signature,
  ticketHolds,
} from "~/lib/http/signed-values.server";

const secret = "s".repeat(40);
const trackId = "4144478b-9b0b-63f3-def5-000000000000";

describe("play tickets", () => {
  it("hold for their track and listener once the wait has passed, and not before", async () => {
    const issuedAt = Date.UTC(2026, 10, 26, 12);
    const ticket = await playTicket(secret, { trackId, listener: "visitor:a", afterSeconds: 5, issuedAt });
    const at = (ms: number) => ticketHolds(secret, ticket, { trackId, listener: "visitor:a", now: issuedAt + ms });
    expect(await at(4999)).toBe("too soon");
    expect(await at(5000)).toBe("heard");
    expect(await at(6 * 60 * 60 * 1000 + 1)).toBe("no ticket");
    expect(await ticketHolds(secret, ticket, { trackId, listener: "visitor:b", now: issuedAt + 6000 })).toBe("no ticket");
    expect(await ticketHolds(secret, ticket, { trackId: trackId.replace(/0$/, "1"), listener: "visitor:a", now: issuedAt + 6000 })).toBe(
      "no ticket",
    );
    expect(await ticketHolds("t".repeat(40), ticket, { trackId, listener: "visitor:a", now: issuedAt + 6000 })).toBe("no ticket");
    // The wait is signed: a ticket that claims a shorter one is no ticket.
    expect(await ticketHolds(secret, ticket.replace(".5.", ".0."), { trackId, listener: "visitor:a", now: issuedAt + 1000 })).toBe(
      "no ticket",
    );
    // A signature has one spelling: its last character's unused low bits changed, it is no ticket, though
    // it decodes to the same bytes.
    const lastCharacter = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = ticket.replace(/.$/, (last) => lastCharacter[lastCharacter.indexOf(last) ^ 1]!);
    expect(await ticketHolds(secret, respelled, { trackId, listener: "visitor:a", now: issuedAt + 6000 })).toBe("no ticket");
    for (const junk of [null, "", "1.2.3", `${issuedAt}.5.${"x".repeat(43)}`]) {
      expect(await ticketHolds(secret, junk, { trackId, listener: "visitor:a", now: issuedAt + 6000 })).toBe("no ticket");
    }
  });

  it("wait 5 s, or a shorter track's length less the second the player allows at its end", () => {
    expect(secondsBeforeAPlay(null)).toBe(5);
    expect(secondsBeforeAPlay(240)).toBe(5);
    expect(secondsBeforeAPlay(5)).toBe(5);
    expect(secondsBeforeAPlay(3.6)).toBe(2);
    expect(secondsBeforeAPlay(0.5)).toBe(0);
  });
});

describe("an embed's pass", () => {
  it("comes back as it was given, naming the framing site or none, and is refused changed in any way", async () => {
    const pass = await embedPass(secret, "https://blog.example.com");
    expect(await readEmbedPass(secret, pass)).toEqual({ site: "https://blog.example.com" });
    expect(await readEmbedPass(secret, await embedPass(secret, null))).toEqual({ site: null });
    const [site, signature] = pass.split(".") as [string, string];
    const evil = btoa("https://evil.example").replace(/=+$/, "");
    for (const forged of [
      `${evil}.${signature}`,
      `${site}.${"A".repeat(43)}`,
      `.${signature}`,
      `${site}.${signature}x`,
      // the same bytes spelt another way (base64url's unused low bits)
      `${site}.${signature.slice(0, -1)}${signature.at(-1) === "A" ? "B" : "A"}`,
      pass.replace(".", ""),
      "",
      null,
    ]) {
      expect(await readEmbedPass(secret, forged), String(forged)).toBeNull();
    }
    expect(await readEmbedPass("t".repeat(40), pass)).toBeNull();
    // Another purpose's signature of the same text is not a pass.
    const ticket = await playTicket(secret, { trackId, listener: "visitor:a", afterSeconds: 5 });
    expect(await readEmbedPass(secret, `${site}.${ticket.split(".")[2]}`)).toBeNull();
  });

  it("lets through from another site only a play report that brings one", async () => {
    const env = { SUPABASE_URL: "http://127.0.0.1:54321", SUPABASE_ANON_KEY: "anon", MARKETPLACE_SECRET: secret };
    const embed = await embedPass(secret, null);
    const report = (path: string, method = "POST") => new Request(`https://crate.example${path}`, { method, headers: { Origin: "null" } });
    // A Worker without its secret takes none (asked first: the Worker reads its variables once).
    expect(await isEmbeddedPlayReport(report(`/track/${trackId}/play?${new URLSearchParams({ embed })}`), {})).toBe(false);
    expect(await isEmbeddedPlayReport(report(`/track/${trackId}/play?${new URLSearchParams({ embed })}`), env)).toBe(true);
    expect(await isEmbeddedPlayReport(report(`/track/${trackId}/play?embed=x`), env)).toBe(false);
    expect(await isEmbeddedPlayReport(report(`/track/${trackId}/play`), env)).toBe(false);
    expect(await isEmbeddedPlayReport(report(`/logout?${new URLSearchParams({ embed })}`), env)).toBe(false);
    expect(await isEmbeddedPlayReport(report(`/track/${trackId}/play/more?${new URLSearchParams({ embed })}`), env)).toBe(false);
    expect(await isEmbeddedPlayReport(report(`/track/${trackId}/play?${new URLSearchParams({ embed })}`, "PUT"), env)).toBe(false);
  });
});

describe("a newsletter confirmation link", () => {
  const mailId = "0b7c2a4e-1d2f-4c3b-9a8e-5f6d7c8b9a01";
  const otherMail = "0b7c2a4e-1d2f-4c3b-9a8e-5f6d7c8b9a02";

  it("names the mail it was signed for, and is refused changed in any way", async () => {
    const pass = await newsletterPass(secret, mailId);
    expect(await readNewsletterPass(secret, pass)).toBe(mailId);
    const signature = pass.split(".")[1]!;
    expect(await readNewsletterPass(secret, `${otherMail}.${signature}`)).toBeNull();
    expect(await readNewsletterPass(secret, `${mailId}.${signature.slice(0, -1)}A`)).toBeNull();
    expect(await readNewsletterPass("t".repeat(40), pass)).toBeNull();
    expect(await readNewsletterPass(secret, null)).toBeNull();
  });

  it("is made by no other purpose's signature of the same id", async () => {
    for (const purpose of ["unsubscribe", "receipt-pass", "embed-pass"]) {
      expect(await readNewsletterPass(secret, `${mailId}.${await signature(secret, purpose, mailId)}`)).toBeNull();
    }
  });
});
