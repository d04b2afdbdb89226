// Play tickets: given with a track's URL to one listener, a play counts with one only after the wait.
import { describe, expect, it } from "vitest";
import { playTicket, secondsBeforeAPlay, ticketHolds } from "~/lib/http/signed-values.server";

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
