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
 * whatever the client sent): what every per-address limit counts by. Believed only where the request did
 * pass an edge (`request.cf` names the data centre); locally the runtime keeps a header the client sent
 * (it fills it from the connection only when there is none), so there is none, and the machine's clients
 * share one address's limits, as they share its one address.
 */
export function clientAddress(request: Request): string | null {
  const colo = (request as { cf?: { colo?: unknown } }).cf?.colo;
  return typeof colo === "string" && colo ? request.headers.get("CF-Connecting-IP") : null;
}
