// Drives Debian's Chromium through playwright-core (no browser download is possible or needed).
import { AxeBuilder } from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import assert from "node:assert/strict";
import { localDefaults } from "@crate/local-supabase";
import { createClient } from "@supabase/supabase-js";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { demoAccounts } from "../../../scripts/lib/demo-data.ts";
import { marketplaceSecretHeader } from "../../../app/lib/http/backend-env.ts";
import { tinyPng } from "../../support/media.ts";

export { demoAlbumPath, demoTrackPath } from "../../../scripts/lib/demo-data.ts";

export const baseUrl = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
const screenshotsDir = join(import.meta.dirname, "..", "..", "..", "test-results");

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

/**
 * The browser a test file runs in: every file of the suite opens it with this one fixture, at the top of
 * the file, and it closes when the file's tests end (each file runs in its own process).
 */
export async function browserForThisFile(options: Parameters<typeof launchBrowser>[0] = {}): Promise<Browser> {
  const browser = await launchBrowser(options);
  after(() => browser.close());
  return browser;
}

/**
 * Chromium for the browser suite (and the benches, which close it themselves). `hostRules`: names it
 * resolves to this machine, so a test can serve another site under a real public-looking host name (the
 * embeds' framing site).
 */
export async function launchBrowser({ hostRules = [] }: { hostRules?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      ...(hostRules.length ? [`--host-resolver-rules=${hostRules.map((host) => `MAP ${host} 127.0.0.1`).join(",")}`] : []),
    ],
  });
}

export async function newPage(
  browser: Browser,
  {
    viewport = viewports.desktop,
    javaScriptEnabled = true,
    allowedErrors = [],
  }: {
    viewport?: { width: number; height: number };
    javaScriptEnabled?: boolean;
    /** What the browser itself logs as an error where the test provokes it. */
    allowedErrors?: RegExp[];
  } = {},
): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, javaScriptEnabled });
  // A Content-Security-Policy violation fails the test like any error the page logs.
  await context.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`),
    ),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // Error statuses are what some tests expect (a 404 page, a refused form); they assert them themselves.
    const text = message.text();
    if (message.type() === "error" && !text.startsWith("Failed to load resource") && !allowedErrors.some((allowed) => allowed.test(text)))
      errors.push(text);
  });
  // Closing the page also checks that it never logged an error.
  async function close() {
    await context.close();
    assert.deepEqual(errors, [], "the page logged errors");
  }
  return { context, page, close };
}

/**
 * Waits until React has hydrated the page, so clicks and keys reach enhanced handlers: the page's main
 * element carries React's props once hydrated, and effects (document listeners, for one) run in the
 * task after the commit.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    return main !== null && Object.keys(main).some((key) => key.startsWith("__reactProps$"));
  });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, `${name}.png`), fullPage: true });
}

const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** What axe finds on the page, one line each: the WCAG 2.2 A/AA rules, and with `bestPractices` axe's own too. */
export async function axeFindings(page: Page, { bestPractices = false } = {}): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(bestPractices ? [...wcagTags, "best-practice"] : wcagTags).analyze();
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
}

/** Runs axe with the WCAG 2.2 A/AA rules and fails with the violations listed. */
export async function expectNoAxeViolations(page: Page) {
  assert.deepEqual(await axeFindings(page), [], `axe found violations on ${page.url()}`);
}

export const supabaseUrl = process.env.E2E_SUPABASE_URL ?? "http://127.0.0.1:54321";

/** A fresh address for each account a test creates. */
export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** The current path and query, as a user reads them in the address bar. */
export function currentPath(page: Page) {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Signs a new fan up through the form; they land on their dashboard. Returns their email. */
export async function signUpAsFan(page: Page, username: string, password = "a-long-password"): Promise<string> {
  const email = uniqueEmail("fan");
  await page.goto("/register/fan");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL("**/dashboard/fan");
  return email;
}

/**
 * On an Edit Profile page: chooses a picture. With JavaScript it uploads and is saved as soon as it is
 * chosen (the page must be hydrated); without, the form is sent. Waits until the page shows it.
 */
export async function setProfilePicture(page: Page, javaScriptEnabled: boolean) {
  await page.getByLabel("Choose a picture").setInputFiles({ name: "portrait.png", mimeType: "image/png", buffer: Buffer.from(tinyPng) });
  if (javaScriptEnabled) await page.getByRole("status").filter({ hasText: "Profile picture saved" }).waitFor();
  else await page.getByRole("button", { name: "Upload picture" }).click();
  await page.getByRole("img", { name: "Your profile picture" }).waitFor();
}

/**
 * A page signed in as the demo account of `role` (the seed's admin, artist or fan), on the page the login
 * lands on, or on `landing` when given (passed as the login's redirectTo): the fixture for tests about what
 * a signed-in user sees, which are not about signing in.
 */
export async function signedInPage(
  browser: Browser,
  role: (typeof demoAccounts)[number]["role"],
  { landing, ...options }: Parameters<typeof newPage>[1] & { landing?: string } = {},
) {
  const opened = await newPage(browser, options);
  const account = demoAccounts.find((candidate) => candidate.role === role)!;
  await opened.page.goto(landing ? `/login?redirectTo=${encodeURIComponent(landing)}` : "/login");
  await logIn(opened.page, account.email, account.password);
  await opened.page.waitForURL((url) => url.pathname !== "/login");
  return opened;
}

/** Pays on the Stripe stand-in's page with `card`. */
export async function payWithCard(page: Page, card = "4242 4242 4242 4242") {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
}

/** Fills and submits the login form the page is on (once it shows: its fields, by their exact names). */
export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

export const admin = createClient(supabaseUrl, localDefaults.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });

/** The header the marketplace's Workers send with their secret: to the backend, and to the operator's routes. */
export const marketplaceHeaders = { [marketplaceSecretHeader]: process.env.E2E_MARKETPLACE_SECRET ?? "" };

/** A track's stream given up on for `reason`, as the media queue's dead-letter consumer leaves it (with the Workers' secret). */
export async function streamFailed(trackId: string, reason: string): Promise<void> {
  const marketplace = createClient(supabaseUrl, localDefaults.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: marketplaceHeaders },
  });
  const { data, error } = await marketplace.rpc("fail_made_file", { track_id: trackId, format: "stream", reason, final: true });
  if (error || !data) throw new Error(`the stream of ${trackId} could not be marked failed: ${error?.message ?? "not preparing"}`);
}

/** A track's plays by visitors (signed-out listeners, embedded players among them), as the database holds them. */
export async function visitorPlays(trackId: string): Promise<number> {
  const { count, error } = await admin
    .from("analytics_events")
    .select("id", { count: "exact", head: true })
    .eq("track_id", trackId)
    .eq("type", "play")
    .is("user_id", null);
  assert.equal(error, null);
  return count!;
}

/**
 * A new account of `role` made for one test through Auth's admin API (the sign-up trigger makes its
 * profile, as for a sign-up through the form), signed in on a fresh page on their dashboard. `close()`
 * closes the page and removes the account with what it owns. For tests about what an account does, not
 * about signing up (those fill the form).
 */
export async function newAccountPage(browser: Browser, role: "artist" | "fan", name: string, options: Parameters<typeof newPage>[1] = {}) {
  const email = uniqueEmail(role);
  const password = "a-long-password";
  const metadata =
    role === "artist"
      ? { role, artist_name: name, paypal_email: "payouts@example.com", genres: [] }
      : { role, username: name, favorite_genres: [] };
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: metadata });
  if (error || !data.user) throw new Error(`making a ${role} account failed: ${error?.message}`);
  const userId = data.user.id;
  const opened = await newPage(browser, options);
  await opened.page.goto("/login");
  await logIn(opened.page, email, password);
  await opened.page.waitForURL(`**/dashboard/${role}`);
  return {
    ...opened,
    email,
    userId,
    async close() {
      try {
        await opened.close();
      } finally {
        const removed = await admin.auth.admin.deleteUser(userId);
        assert.equal(removed.error, null, `removing the test's ${role} account`);
      }
    },
  };
}
