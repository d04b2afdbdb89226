import { createContext } from "react-router";

/**
 * The Worker's bindings and execution context, the version of the client build its pages link to, the
 * reader's country as Cloudflare sees it, and the response's CSP nonce, set once per request in
 * `workers/app.ts`.
 */
export const cloudflareContext = createContext<{
  env: Env;
  ctx: ExecutionContext;
  buildVersion: string;
  country: string | null;
  nonce: string;
}>();

/**
 * The country Cloudflare located the request in (ISO 3166-1 alpha-2), for analytics; null when it cannot
 * tell ("XX"), for Tor ("T1"), and locally, where no location is known.
 */
export function requestCountry(request: Request): string | null {
  const country = (request as { cf?: { country?: unknown } }).cf?.country;
  return typeof country === "string" && /^[A-Z]{2}$/.test(country) && country !== "XX" ? country : null;
}

/**
 * The visitor's address as Cloudflare's edge gives it (CF-Connecting-IP, which the edge sets, overwriting
 * whatever the client sent): what every per-address limit counts by. An IPv6 address counts by its /64
 * (written as the network's own address, `2001:db8:1:2::`, so it stays an address wherever one is
 * expected): one home or phone is given a whole /64, and would otherwise have endless addresses to spread
 * over the limits. Believed only where the request did pass an edge (`request.cf` names the data centre);
 * locally the runtime keeps a header the client sent (it fills it from the connection only when there is
 * none), so there is none, and the machine's clients share one address's limits, as they share its one
 * address.
 */
export function clientAddress(request: Request): string | null {
  const colo = (request as { cf?: { colo?: unknown } }).cf?.colo;
  const address = typeof colo === "string" && colo ? request.headers.get("CF-Connecting-IP") : null;
  return address ? ipv6Network(address) : address;
}

/**
 * An IPv6 address's /64 as its network address (its first four groups, then `::`); an IPv4 address (also
 * one mapped into IPv6, `::ffff:192.0.2.1`) and anything unreadable as it came.
 */
function ipv6Network(address: string): string {
  const bare = address.trim().replace(/%.*$/, "").toLowerCase();
  if (!bare.includes(":")) return address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare)?.[1];
  if (mapped) return mapped;
  // A trailing dotted IPv4 part is the last two groups.
  const hex = bare.replace(
    /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/,
    (_, a: string, b: string, c: string, d: string) =>
      `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [head, tail, ...more] = hex.split("::");
  if (more.length) return address;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const [before, after] = [groups(head), groups(tail)];
  const missing = 8 - before.length - after.length;
  // "::" stands for one zero group or more; without it, the eight are all written.
  if (tail === undefined ? missing !== 0 : missing < 1) return address;
  const all = [...before, ...Array<string>(missing).fill("0"), ...after];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return address;
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(":")}::`;
}
