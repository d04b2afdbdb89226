// `npm run stripe:setup`: for whoever deploys, once and after each upgrade of the `stripe` package. Makes
// (or brings up to date) the marketplace's two webhook endpoints at Stripe, on the API version the app
// reads, with the events it acts on, and prints the signing secrets of those it made, to set as the page
// Worker's secrets. With the live key for the live site, the test key for a test one:
//   STRIPE_SECRET_KEY=sk_live_… SITE_URL=https://<your-domain> npm run stripe:setup
import Stripe from "stripe";
import { setUpStripeWebhooks } from "./lib/stripe-setup.ts";

const key = process.env.STRIPE_SECRET_KEY;
const site = process.env.SITE_URL;
if (!key || !site) {
  console.error(
    "Set STRIPE_SECRET_KEY and SITE_URL (the marketplace's address): STRIPE_SECRET_KEY=sk_… SITE_URL=https://… npm run stripe:setup",
  );
  process.exit(1);
}
const secrets = { platform: "STRIPE_WEBHOOK_SECRET", connect: "STRIPE_CONNECT_WEBHOOK_SECRET" } as const;
try {
  for (const endpoint of await setUpStripeWebhooks(new Stripe(key), site, Stripe.API_VERSION)) {
    console.log(`${endpoint.kind} endpoint ${endpoint.id}: ${endpoint.done} (API version ${Stripe.API_VERSION})`);
    if (endpoint.secret)
      console.log(`  set its signing secret on the page Worker: wrangler secret put ${secrets[endpoint.kind]}   (${endpoint.secret})`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
