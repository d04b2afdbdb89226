// What `npm run stripe:setup` does, apart from its command line so a test can drive it against the
// Stripe stand-in: the marketplace's two webhook endpoints at Stripe, each on the API version the app
// reads and subscribed to the events it acts on. Stripe sets an endpoint's version when it is created and
// never changes it ("you can't change the API version of an existing webhook endpoint", Stripe's webhook
// versioning guide), so an endpoint on another version is replaced: the new one first, then the old
// one deleted. A signing secret is shown once, when its endpoint is created.
import type Stripe from "stripe";
import { connectEvents, platformEvents } from "../../app/lib/providers/stripe/webhook-events.ts";

export type EndpointSetUp = {
  /** Which endpoint: the platform's own events, or Connect's (the artists' accounts). */
  kind: "platform" | "connect";
  id: string;
  /** What was done: made new, made anew for the right version (the old one deleted), its events updated, or nothing. */
  done: "created" | "replaced" | "updated" | "unchanged";
  /** The signing secret to set (STRIPE_WEBHOOK_SECRET or STRIPE_CONNECT_WEBHOOK_SECRET), for an endpoint made now. */
  secret?: string;
};

const sameEvents = (endpoint: Stripe.WebhookEndpoint, events: readonly string[]) =>
  endpoint.enabled_events.length === events.length && events.every((event) => endpoint.enabled_events.includes(event));

/** The marketplace's endpoints at `siteUrl` (its `/webhooks/stripe`), set up on `apiVersion` with `stripe`. */
export async function setUpStripeWebhooks(stripe: Stripe, siteUrl: string, apiVersion: string): Promise<EndpointSetUp[]> {
  const url = new URL("/webhooks/stripe", siteUrl).href;
  const existing: Stripe.WebhookEndpoint[] = [];
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) if (endpoint.url === url) existing.push(endpoint);
  const results: EndpointSetUp[] = [];
  for (const [kind, events] of [
    ["platform", platformEvents],
    ["connect", connectEvents],
  ] as const) {
    const connect = kind === "connect";
    // Stripe marks a Connect endpoint by its `application` (the platform's); the platform's own has none.
    const mine = existing.filter((endpoint) => Boolean(endpoint.application) === connect);
    const current = mine.find((endpoint) => endpoint.api_version === apiVersion);
    if (current) {
      if (sameEvents(current, events)) results.push({ kind, id: current.id, done: "unchanged" });
      else {
        await stripe.webhookEndpoints.update(current.id, { enabled_events: [...events] });
        results.push({ kind, id: current.id, done: "updated" });
      }
      continue;
    }
    const made = await stripe.webhookEndpoints.create(
      {
        url,
        connect,
        enabled_events: [...events],
        // The SDK's types name only its own version; the endpoint takes the one the app reads.
        api_version: apiVersion as Stripe.WebhookEndpointCreateParams.ApiVersion,
        description: connect ? "Crate: artists' Stripe accounts" : "Crate: checkouts, refunds and disputes",
      },
      // A retried request makes one endpoint: the key names what it is for and what it replaces.
      { idempotencyKey: `webhook-${kind}-${url}-${apiVersion}-after-${mine.map((old) => old.id).join("+") || "none"}` },
    );
    for (const old of mine) await stripe.webhookEndpoints.del(old.id);
    results.push({ kind, id: made.id, done: mine.length > 0 ? "replaced" : "created", secret: made.secret });
  }
  return results;
}
