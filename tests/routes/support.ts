import { createHash } from "node:crypto";
import { recordSalesAs, type RecordedSale } from "../support/sales.ts";
import { createClient } from "@supabase/supabase-js";
import { expect, inject } from "vitest";
import { localDefaults } from "@crate/local-supabase";
import { playTicket } from "../../app/lib/http/signed-values.server.ts";
import { crc32 } from "../../app/lib/media/zip.ts";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

export const appUrl = inject("appUrl");
export const supabaseUrl = inject("supabaseUrl");
const marketplaceSecret = inject("marketplaceSecret");

/**
 * The ticket a track's audio URL came with for `identity` (`visitor:{listener id}` or `user:{id}`), given
 * 6 s ago: signed here with the Worker's secret, so a test reports a heard play without waiting.
 */
export function heardTicket(trackId: string, identity: string, givenMsAgo = 6000): Promise<string> {
  return playTicket(marketplaceSecret, { trackId, listener: identity, afterSeconds: 5, issuedAt: Date.now() - givenMsAgo });
}

/** A visitor with a listener id of their own (as the source route gives one), and the ticket for a heard play of `trackId`. */
export async function listeningVisitor(trackId: string) {
  const visitor = new Visitor();
  const listener = crypto.randomUUID();
  visitor.cookies.set("listener", listener);
  return { visitor, listener, ticket: await heardTicket(trackId, `visitor:${listener}`) };
}

/** The backend as its operator: to look at what tests stored, never to do what a user does. */
export const serviceClient = createClient(supabaseUrl, localDefaults.serviceRoleKey, {
  auth: { persistSession: false, autoRefreshToken: false },
});

/** Sales on given days, as the checkout would have made them, written through the service role (tests/support/sales.ts). */
export const recordSales = (sales: readonly RecordedSale[], currency?: string) => recordSalesAs(serviceClient, sales, currency);

/** The header the marketplace's Workers send with their secret (or, to see it refused, with `secret`). */
export const marketplaceHeaders = (secret = marketplaceSecret) => ({ [marketplaceSecretHeader]: secret });

/** The backend as the marketplace's Workers call it (with their secret), as the media queue and the payout job do. */
export const marketplaceBackend = createClient(supabaseUrl, localDefaults.anonKey, {
  auth: { persistSession: false, autoRefreshToken: false },
  global: { headers: marketplaceHeaders() },
});

/**
 * A track's stream as the media queue leaves it (the route tests' Workers make none themselves): made and
 * stored at `path` (its master's as the track names it), or given up on for `reason`.
 */
export async function streamFinished(trackId: string, outcome: { masterPath: string; path: string } | { failure: string }) {
  const [stream, master] = "failure" in outcome ? [] : await Promise.all([measure(outcome.path), measure(outcome.masterPath)]);
  const { data, error } =
    "failure" in outcome
      ? await marketplaceBackend.rpc("fail_made_file", { track_id: trackId, format: "stream", reason: outcome.failure, final: true })
      : await marketplaceBackend.rpc("finish_made_file", {
          track_id: trackId,
          format: "stream",
          master_path: outcome.masterPath,
          path: outcome.path,
          size: stream!.size,
          crc32: stream!.crc,
          master_size: master!.size,
          master_crc32: master!.crc,
          master_sample_rate: 44100,
        });
  expect(error).toBeNull();
  expect(data).toBe(true);
}

/** A stored file's size and CRC-32, as the media queue keeps them (those of no bytes for one not stored). */
async function measure(path: string) {
  const { data } = await serviceClient.storage.from("tracks").download(path);
  const bytes = data ? new Uint8Array(await data.arrayBuffer()) : new Uint8Array(0);
  return { size: bytes.length, crc: crc32(bytes) };
}

/** A track's stream's state, as the media queue reads it. */
export async function streamState(trackId: string): Promise<string | undefined> {
  return madeFileState(trackId, "stream");
}

/** The state of a track's file in `format`, as the media queue reads it (none: nobody asked for it). */
export async function madeFileState(trackId: string, format: "stream" | "mp3" | "flac"): Promise<string | undefined> {
  const { data, error } = await marketplaceBackend.rpc("made_file_job", { track_id: trackId, format });
  expect(error).toBeNull();
  return data?.[0]?.state;
}

/** A browser without JavaScript: plain form posts, cookies kept between requests, redirects not followed. */
export class Visitor {
  cookies = new Map<string, string>();

  private cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=", 2).map((part) => part.trim());
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf("=") + 1).trim());
    }
  }

  /** One request as this browser: its cookies and address sent, the cookies it gets back kept. */
  private async send(path: string, init: RequestInit = {}, headers: Record<string, string> = {}) {
    const response = await fetch(new URL(path, appUrl), {
      ...init,
      redirect: "manual",
      headers: { Cookie: this.cookieHeader(), ...headers },
    });
    this.remember(response);
    return { response, html: await response.text() };
  }

  get(path: string) {
    return this.send(path);
  }

  /** A file as this browser downloads it: the answer and its bytes (a page's text would mangle them). */
  async download(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(new URL(path, appUrl), { redirect: "manual", headers: { ...headers, Cookie: this.cookieHeader() } });
    this.remember(response);
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  /** Any request as this browser (`init.headers` add to what it sends). */
  request(path: string, { headers, ...init }: RequestInit = {}) {
    return this.send(path, init, Object.fromEntries(new Headers(headers)));
  }

  /** A form with files (`enctype="multipart/form-data"`), as the browser posts it. */
  postMultipart(path: string, body: FormData) {
    return this.send(path, { method: "POST", body });
  }

  /** `headers` adds to what the browser sends, e.g. the `Origin` of the page the form was on. */
  post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const item of ([] as string[]).concat(value)) body.append(name, item);
    return this.send(path, { method: "POST", body }, { "Content-Type": "application/x-www-form-urlencoded", ...headers });
  }
}

/** The name of the visitor's session cookie, if they have one. */
export const sessionCookie = (visitor: Visitor) => [...visitor.cookies.keys()].find((name) => /^sb-.*-auth-token/.test(name));

/** A visitor signed in with the login form. */
export async function signedIn(email: string, password: string) {
  const visitor = new Visitor();
  const { response } = await visitor.post("/login", { email, password });
  expect(response.status).toBe(302);
  return visitor;
}

/** A new artist, signed up through the form (so tests that publish never change the demo catalogue), and their id. */
export async function newArtist(artistName: string) {
  const visitor = new Visitor();
  const email = `${artistName.toLowerCase().replace(/\W+/g, "-")}-${Date.now().toString(36)}@example.com`;
  const signUp = await visitor.post("/register/artist", {
    email,
    password: "a-long-password",
    confirmPassword: "a-long-password",
    artistName,
    paypalEmail: "pay@example.com",
    terms: "on",
  });
  expect(signUp.response.status).toBe(302);
  const { data } = await serviceClient
    .from("artist_profiles")
    .select("id")
    .eq("artist_name", artistName)
    .order("created_at", { ascending: false })
    .limit(1)
    .single();
  if (!data) throw new Error(`no profile for the new artist ${artistName}`);
  return { visitor, id: data.id, email, password: "a-long-password" };
}

/** A new fan, signed up through the form, with `genres` as favourites, and their id. */
export async function newFan(username: string, genres: string[] = []) {
  const visitor = new Visitor();
  const email = `${username.toLowerCase()}-${Date.now().toString(36)}@example.com`;
  const { response } = await visitor.post("/register/fan", {
    email,
    username,
    password: "a-long-password",
    confirmPassword: "a-long-password",
    favoriteGenres: genres,
    terms: "on",
  });
  expect(response.status).toBe(302);
  const { data } = await serviceClient.from("fan_profiles").select("id").eq("username", username).single();
  if (!data) throw new Error(`no profile for the new fan ${username}`);
  return { visitor, id: data.id, email, password: "a-long-password" };
}

/** The seed derives each demo track's id from its title. */
export function trackId(title: string) {
  return demoId(`demo track: ${title}`);
}

/** A demo album's release id, as the seed derives it from the album's title. */
export function albumId(title: string) {
  return demoId(`demo album: ${title}`);
}

function demoId(seed: string) {
  const hex = createHash("md5").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Visible text, roughly: tags dropped, common entities decoded, whitespace collapsed. */
export function text(html: string) {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

export function title(html: string) {
  return html.match(/<title>([^<]*)<\/title>/)?.[1];
}

/** The value an input was rendered with, by name. */
export function inputValue(html: string, name: string) {
  const input = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0];
  return input?.match(/value="([^"]*)"/)?.[1];
}

/** The link of the newest outbox mail to `email` (the local stack's mail catcher). */
export async function mailLink(email: string): Promise<string> {
  const outbox = await (await fetch(`${supabaseUrl}/auth/v1/outbox`)).text();
  // Newest first: the first article addressed to `email`.
  const article = outbox.split("<article>").find((part) => part.includes(`<b>${email}</b>`));
  const href = article?.match(/href="([^"]+)"/)?.[1];
  if (!href) throw new Error(`no mail to ${email}`);
  return href.replace(/&#38;|&amp;/g, "&");
}

const mail = inject("mail");

/** What the mail stand-in's outbox holds for `email`, newest first (Resend's list of emails). */
export async function mailsTo(email: string) {
  const response = await fetch(`${mail.url}/emails`, { headers: { Authorization: `Bearer ${mail.apiKey}` } });
  const { data } = (await response.json()) as { data: { to: string[]; subject: string; html: string; text: string | null }[] };
  return data.filter((message) => message.to.includes(email));
}

/**
 * The path of the newest newsletter confirmation link mailed to `email` for `artistName`, once the queue
 * delivered its mail; `after`: how many such mails there were before (the one wanted is the next).
 */
export async function confirmationLinkTo(email: string, artistName: string, after = 0): Promise<string> {
  const confirmations = async () =>
    (await mailsTo(email)).filter((message) => message.subject === `Confirm your subscription to ${artistName}’s news`);
  await expect.poll(async () => (await confirmations()).length, { timeout: 15_000 }).toBeGreaterThan(after);
  const link = (await confirmations())[0]!.text?.match(/Confirm my subscription: (\S+)/)?.[1];
  if (!link) throw new Error(`no confirmation link in the mail to ${email}`);
  return new URL(link).pathname;
}

/** The next `count` mails the stand-in is asked to send fail, as a provider that is down answers (500). */
export async function mailProviderFails(count: number) {
  const response = await fetch(`${mail.url}/_failures`, { method: "POST", body: String(count) });
  expect(response.status).toBe(204);
}

/** Asks for `path` until the Workers cache answers it: a response is stored in the background (waitUntil). */
export async function cachedCopyOf(path: string): Promise<Response | undefined> {
  let response: Response | undefined;
  for (let attempt = 0; attempt < 20 && response?.headers.get("cf-cache-status") !== "HIT"; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    response = await fetch(new URL(path, appUrl));
    await response.text();
  }
  return response;
}

/**
 * Waits until a page asked for now is in the Workers cache: a store scheduled earlier (one a test says
 * must not happen) would have landed before it, so the test can look without sleeping.
 */
export async function storesMadeSoFarLanded(): Promise<void> {
  const later = `/genres?stored-after=${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await (await fetch(new URL(later, appUrl))).text();
  const cached = await cachedCopyOf(later);
  if (cached?.headers.get("cf-cache-status") !== "HIT") throw new Error("the Workers cache stored nothing within a second");
}
