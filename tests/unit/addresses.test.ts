// A shipping address as mails and the studio print it: the way its country's post reads it.
import { describe, expect, it } from "vitest";
import { addressLines } from "~/lib/payments/cart";

describe("addressLines", () => {
  it("puts the postcode before the town, on one line, as most of Europe writes it", () => {
    expect(addressLines({ name: "Ada Fan", line1: "Hauptstraße 1", city: "Berlin", postal_code: "10115", country: "DE" })).toEqual([
      "Ada Fan",
      "Hauptstraße 1",
      "10115 Berlin",
      "Germany",
    ]);
  });

  it("puts a UK town on its own line and the postcode on the next, as Royal Mail asks", () => {
    expect(addressLines({ name: "Ada Fan", line1: "1 High Street", city: "London", postal_code: "SW1A 1AA", country: "GB" })).toEqual([
      "Ada Fan",
      "1 High Street",
      "London",
      "SW1A 1AA",
      "United Kingdom",
    ]);
  });

  it("prints nothing for no address", () => {
    expect(addressLines(null)).toEqual([]);
  });
});
