import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms/forms";
import { ArtistSignUpSchema, FanSignUpSchema, ForgotPasswordSchema, LoginSchema, ResetPasswordSchema } from "~/lib/schemas/auth";

function form(fields: Record<string, string | string[]>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of ([] as string[]).concat(value)) formData.append(name, item);
  }
  return formData;
}

const artist = {
  email: "Nova@Example.com ",
  password: "longenough",
  confirmPassword: "longenough",
  artistName: " Nova Lights ",
  paypalEmail: "pay@example.com",
  bio: "Synths at dusk",
  genres: ["Electronic", "Pop"],
  terms: "on",
};

const fan = { email: "riley@example.com", username: "rileyspins", password: "longenough", confirmPassword: "longenough", terms: "on" };

const errorsOf = (result: ReturnType<typeof parseForm>) => (result.success ? {} : result.reply.fieldErrors);

describe("artist sign-up", () => {
  it("accepts a complete form, trimming text and keeping the chosen genres", () => {
    const result = parseForm(ArtistSignUpSchema, form(artist), { arrays: ["genres"] });
    expect(result).toMatchObject({
      success: true,
      value: { ...artist, email: "Nova@Example.com", artistName: "Nova Lights", genres: ["Electronic", "Pop"] },
    });
  });

  it("sends back what was typed after a failure, never the passwords", () => {
    const result = parseForm(ArtistSignUpSchema, form({ ...artist, artistName: "  " }), { arrays: ["genres"] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.reply.fieldErrors).toEqual({ artistName: "Artist name is required" });
    expect(result.reply.values).toEqual({
      email: artist.email,
      artistName: "  ",
      paypalEmail: artist.paypalEmail,
      bio: artist.bio,
      genres: ["Electronic", "Pop"],
      terms: "on",
    });
  });

  it("makes bio and genres optional", () => {
    const { bio: _bio, genres: _genres, ...required } = artist;
    const result = parseForm(ArtistSignUpSchema, form(required), { arrays: ["genres"] });
    expect(result.success && result.value).toMatchObject({ bio: "", genres: [] });
  });

  it.each([
    ["email", { email: "" }, "Email is required"],
    ["email", { email: "not-an-email" }, "Please enter a valid email address"],
    ["password", { password: "", confirmPassword: "" }, "Password is required"],
    ["password", { password: "short", confirmPassword: "short" }, "Password must be at least 8 characters"],
    ["confirmPassword", { confirmPassword: "different1" }, "Passwords do not match"],
    ["confirmPassword", { confirmPassword: "" }, "Please confirm your password"],
    ["artistName", { artistName: "   " }, "Artist name is required"],
    ["paypalEmail", { paypalEmail: "" }, "PayPal email is required"],
    ["paypalEmail", { paypalEmail: "paypal" }, "PayPal email must be a valid email address"],
    ["terms", { terms: [] }, "You must agree to the Terms of Use and Privacy Policy"],
    ["genres", { genres: ["Polka"] }, "Please choose genres from the list"],
  ])("%s: %j gives '%s'", (field, change, message) => {
    const result = parseForm(ArtistSignUpSchema, form({ ...artist, ...change }), { arrays: ["genres"] });
    expect(errorsOf(result)[field]).toBe(message);
  });

  it("reports every broken field at once", () => {
    const result = parseForm(ArtistSignUpSchema, form({}), { arrays: ["genres"] });
    expect(Object.keys(errorsOf(result)).sort()).toEqual(["artistName", "confirmPassword", "email", "password", "paypalEmail", "terms"]);
  });
});

describe("fan sign-up", () => {
  it("accepts a complete form with optional favorite genres", () => {
    const result = parseForm(FanSignUpSchema, form({ ...fan, favoriteGenres: ["Jazz"] }), { arrays: ["favoriteGenres"] });
    expect(result.success && result.value.favoriteGenres).toEqual(["Jazz"]);
  });

  it.each([
    ["username", { username: "" }, "Username is required"],
    ["password", { password: "1234567", confirmPassword: "1234567" }, "Password must be at least 8 characters"],
    ["confirmPassword", { confirmPassword: "longenougH" }, "Passwords do not match"],
    ["terms", { terms: [] }, "You must agree to the Terms of Use and Privacy Policy"],
  ])("%s: %j gives '%s'", (field, change, message) => {
    const result = parseForm(FanSignUpSchema, form({ ...fan, ...change }), { arrays: ["favoriteGenres"] });
    expect(errorsOf(result)[field]).toBe(message);
  });
});

describe("login", () => {
  it("needs an email and a password, nothing more", () => {
    expect(errorsOf(parseForm(LoginSchema, form({ email: "", password: "" })))).toEqual({
      email: "Email is required",
      password: "Password is required",
    });
    expect(parseForm(LoginSchema, form({ email: "a@b.co", password: "x" })).success).toBe(true);
  });

  it("reads remember me as a checkbox", () => {
    const result = parseForm(LoginSchema, form({ email: "a@b.co", password: "x", remember: "on" }));
    expect(result.success && result.value.remember).toBe("on");
  });
});

describe("password reset", () => {
  it("asks for a valid email", () => {
    expect(errorsOf(parseForm(ForgotPasswordSchema, form({ email: "nope" })))).toEqual({ email: "Please enter a valid email address" });
  });

  it("needs a new password of at least 8 characters, typed twice", () => {
    expect(errorsOf(parseForm(ResetPasswordSchema, form({ password: "short", confirmPassword: "short" })))).toEqual({
      password: "Password must be at least 8 characters",
    });
    expect(errorsOf(parseForm(ResetPasswordSchema, form({ password: "longenough", confirmPassword: "longenougj" })))).toEqual({
      confirmPassword: "Passwords do not match",
    });
    expect(parseForm(ResetPasswordSchema, form({ password: "longenough", confirmPassword: "longenough" })).success).toBe(true);
  });
});
