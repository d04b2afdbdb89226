// Artist Profile Settings as a browser without JavaScript uses it: change the password (the current one
// required; other devices signed out), change the email (a link to each address, read from the local
// outbox; the change made once both are followed), and sign out on every device.
import { describe, expect, it } from "vitest";
import { Visitor, inputValue, mailLink, newArtist, signedIn, text } from "./support.ts";

const settingsPath = "/dashboard/artist/settings";

describe("Artist Profile Settings", () => {
  it("shows the account's email and its three forms, with no read beyond the session check and the sidebar's playlists", async () => {
    const artist = await newArtist("Settings Viewer");
    const { response, html } = await artist.visitor.get(settingsPath);
    expect(response.status).toBe(200);
    // The session check, then the user's playlists (the sidebar and the track menus list them).
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    expect(html).toMatch(/<h1[^>]*>Artist Profile Settings<\/h1>/);
    const page = text(html);
    expect(page).toContain(`You sign in with ${artist.email}`);
    for (const label of ["New email address", "Current password", "New password", "Confirm new password", "Sign out everywhere"]) {
      expect(page).toContain(label);
    }
    // The account menu leads here.
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist\/settings"[^>]*>Account settings<\/a>/);
  });

  it("changes the password only with the current one, and signs out every other device", async () => {
    const artist = await newArtist("Password Changer");
    const elsewhere = await signedIn(artist.email, artist.password);
    const change = (fields: Record<string, string>) => artist.visitor.post(settingsPath, { intent: "password", ...fields });

    const missing = await change({ currentPassword: "", password: "a-newer-password", confirmPassword: "a-newer-password" });
    expect(missing.response.status).toBe(400);
    expect(text(missing.html)).toContain("Please enter your current password");

    const mismatch = await change({ currentPassword: artist.password, password: "a-newer-password", confirmPassword: "something else" });
    expect(text(mismatch.html)).toContain("Passwords do not match");

    const short = await change({ currentPassword: artist.password, password: "short", confirmPassword: "short" });
    expect(text(short.html)).toContain("Password must be at least 8 characters");

    const wrong = await change({ currentPassword: "not-my-password", password: "a-newer-password", confirmPassword: "a-newer-password" });
    expect(wrong.response.status).toBe(400);
    expect(text(wrong.html)).toContain("Your current password is not right");
    // Passwords are never sent back.
    expect(wrong.html).not.toContain("not-my-password");
    expect((await elsewhere.get("/dashboard/artist")).response.status).toBe(200);

    const same = await change({ currentPassword: artist.password, password: artist.password, confirmPassword: artist.password });
    expect(text(same.html)).toContain("Your new password must be different from your current one.");

    const done = await change({ currentPassword: artist.password, password: "a-newer-password", confirmPassword: "a-newer-password" });
    expect(done.response.status).toBe(200);
    expect(text(done.html)).toContain("Password changed. Every other device has been signed out.");
    expect((await artist.visitor.get("/dashboard/artist")).response.status).toBe(200);
    expect((await elsewhere.get("/dashboard/artist")).response.status).toBe(302);
    expect((await new Visitor().post("/login", { email: artist.email, password: artist.password })).response.status).toBe(400);
    await signedIn(artist.email, "a-newer-password");
  });

  it("changes the email once the links to both addresses are followed", async () => {
    const artist = await newArtist("Email Changer");
    const change = (email: string) => artist.visitor.post(settingsPath, { intent: "email", email });

    const invalid = await change("not an email");
    expect(invalid.response.status).toBe(400);
    expect(text(invalid.html)).toContain("Please enter a valid email address");
    expect(inputValue(invalid.html, "email")).toBe("not an email");
    expect(text((await change(artist.email)).html)).toContain("That is already your email address");
    expect(text((await change("fan@example.com")).html)).toContain("An account with this email already exists.");

    const next = `moved-${Date.now().toString(36)}@example.com`;
    const asked = await change(next);
    expect(asked.response.status).toBe(200);
    expect(text(asked.html)).toContain(`We sent a confirmation link to ${artist.email} and one to ${next}.`);
    expect(text((await artist.visitor.get(settingsPath)).html)).toContain(`Waiting for confirmation: your email changes to ${next}`);

    // The link to the current address first, then the one to the new address, which comes back with a code.
    const first = await fetch(await mailLink(artist.email), { redirect: "manual" });
    expect(new URL(first.headers.get("location")!).pathname).toBe(settingsPath);
    const second = await fetch(await mailLink(next), { redirect: "manual" });
    const landing = new URL(second.headers.get("location")!);
    expect(landing.searchParams.get("code")).toBeTruthy();

    const back = await artist.visitor.get(`${landing.pathname}${landing.search}`);
    expect(back.response.status).toBe(302);
    expect(back.response.headers.get("location")).toBe(`${settingsPath}?email=confirmed`);
    const confirmed = text((await artist.visitor.get(`${settingsPath}?email=confirmed`)).html);
    expect(confirmed).toContain(`You sign in with ${next}`);
    expect(confirmed).toContain(`Your email address is confirmed: you now sign in with ${next}.`);
    await signedIn(next, artist.password);
  });

  it("signs out on every device, this one included", async () => {
    const artist = await newArtist("Everywhere Leaver");
    const elsewhere = await signedIn(artist.email, artist.password);
    const { response } = await artist.visitor.post(settingsPath, { intent: "sign-out-everywhere" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect((await artist.visitor.get("/dashboard/artist")).response.status).toBe(302);
    expect((await elsewhere.get("/dashboard/artist")).response.status).toBe(302);
  });

  it("asks a visitor to log in and answers a fan 403", async () => {
    const visitor = await new Visitor().get(settingsPath);
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(settingsPath)}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get(settingsPath)).response.status).toBe(403);
    expect((await fan.post(settingsPath, { intent: "sign-out-everywhere" })).response.status).toBe(403);
    expect((await fan.get("/dashboard/fan")).response.status).toBe(200);
  });
});
