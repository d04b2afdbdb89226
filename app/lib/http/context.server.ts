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
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped) return mapped[1];
  const halves = bare.split("::");
  if (halves.length > 2) return address;
  const groups = (part: string) => (part ? part.split(":") : []);
  const [head, tail] = [groups(halves[0]), groups(halves[1] ?? "")];
  // A trailing dotted IPv4 part is the last two groups.
  const last = tail.length ? tail : head;
  const dotted = last.length ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(last[last.length - 1]) : null;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return address;
  const all = [...head, ...Array<string>(missing).fill("0"), ...tail];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return address;
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(":")}::`;
}
