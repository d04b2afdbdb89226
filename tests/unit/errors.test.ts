import { describe, expect, it } from "vitest";
import { databaseErrorMessage, signInErrorMessage, signUpErrorMessage } from "~/lib/backend/errors";

describe("sign-in messages", () => {
  it("hides which of email or password was wrong", () => {
    expect(signInErrorMessage({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" })).toBe(
      "Invalid email or password",
    );
  });
  it("explains a rate limit and a suspended account", () => {
    expect(signInErrorMessage({ status: 429, code: "over_request_rate_limit", message: "Request rate limit reached" })).toMatch(
      /Too many attempts/,
    );
    expect(signInErrorMessage({ status: 400, code: "user_banned", message: "User is banned" })).toMatch(/suspended/);
  });
  it("shows other messages, or 'Failed to sign in'", () => {
    expect(signInErrorMessage({ status: 400, code: "validation_failed", message: "Email is invalid" })).toBe("Email is invalid");
    expect(signInErrorMessage({ status: 503, name: "AuthRetryableFetchError", message: "fetch failed" })).toBe("Failed to sign in");
    expect(signInErrorMessage({})).toBe("Failed to sign in");
  });
});

describe("sign-up messages", () => {
  it("turns a 422 into the spec's already-exists message", () => {
    expect(signUpErrorMessage({ status: 422, code: "user_already_exists", message: "User already registered" })).toBe(
      "An account with this email already exists. Please log in instead.",
    );
  });
  it("says registration failed when the profile could not be created", () => {
    expect(signUpErrorMessage({ status: 500, code: "unexpected_failure", message: "Database error saving new user" })).toBe(
      "Registration failed. Please try again.",
    );
  });
});

describe("database messages", () => {
  it.each([
    ["23505", "A record with this information already exists"],
    ["23503", "Referenced record does not exist"],
    ["23514", "Data validation failed"],
    ["PGRST204", "Database schema has changed. Please refresh the page"],
    ["42P01", "Database table not found"],
    ["42703", "Database column not found"],
  ])("%s → %s", (code, message) => {
    expect(databaseErrorMessage({ code, message: "raw" })).toBe(message);
  });
  it("reads a refused value as a validation failure, and never shows anything else raw", () => {
    // never the raw text: it names tables, columns and constraints
    expect(databaseErrorMessage({ code: "XX000", message: "boom" })).toBe("Database error: please try again later");
    expect(databaseErrorMessage({ code: "22003", message: 'numeric field overflow in "price"' })).toBe("Data validation failed");
    expect(databaseErrorMessage({ code: "22008", message: "date/time field value out of range: 2024-02-30" })).toBe(
      "Data validation failed",
    );
  });
});
