// The marketplace's operator routes (queueing renditions, running payouts): for no person, only for a
// request carrying the Worker's own secret, as the operator's scripts send it.
import { marketplaceSecretHeader } from "./backend-env";

/** Whether the request carries the Worker's secret (X-Marketplace-Secret), compared in constant time (as digests of one length). */
export async function fromTheMarketplace(request: Request, secret: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const [given, expected] = await Promise.all([digest(request.headers.get(marketplaceSecretHeader) ?? ""), digest(secret)]);
  return given.reduce((difference, byte, index) => difference | (byte ^ expected[index]!), 0) === 0;
}
