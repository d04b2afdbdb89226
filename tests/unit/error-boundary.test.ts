import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { describe, expect, it } from "vitest";
import { errorMessage } from "~/components/error-boundary";

/** What a loader's thrown `data(body, { status })` becomes once React Router has caught it. */
const routeError = (body: unknown, status: number) => new ErrorResponseImpl(status, "", body);

describe("errorMessage", () => {
  it("uses an Error's message", () => {
    expect(errorMessage(new Error("Database error: timeout"))).toBe("Database error: timeout");
  });

  it("uses the text a route threw with its status", () => {
    expect(errorMessage(routeError("Artist not found", 404))).toBe("Artist not found");
  });

  it("falls back to the status when a route threw no text", () => {
    expect(errorMessage(routeError(null, 503))).toBe("503");
  });

  it("keeps thrown strings and names anything else unknown", () => {
    expect(errorMessage("offline")).toBe("offline");
    expect(errorMessage({ weird: true })).toBe("Unknown error");
  });
});
