// The whole marketplace for tests: a local backend on a fresh database (with the demo data) and the
// production build served by workerd, pointed at it.
import { startLocalStack } from "@crate/local-supabase";
import { buildIfStale, freePort, serveApp, workerVars } from "./app-server.ts";
import { renditionsMade, requestRenditions } from "./renditions.ts";
import { startProviders } from "./providers.ts";

/**
 * `marketplaceSecret`: the Worker's secret, for tests that sign what the Worker signs (a play ticket from
 * before); `stripe`: the Stripe stand-in's address and keys, for tests that pay and send events; `mail`:
 * the mail stand-in's address and key, for tests that read the outbox; `paypal`: the PayPal stand-in's
 * address and app credentials, for tests that look at what artists were paid.
 */
export type Marketplace = {
  appUrl: string;
  supabaseUrl: string;
  marketplaceSecret: string;
  stripe: { url: string; secretKey: string; webhookSecret: string };
  mail: { url: string; apiKey: string };
  paypal: { url: string; clientId: string; clientSecret: string };
  stop(): Promise<void>;
};

/** `captcha`: Turnstile's site key for the Worker and the secret for Auth (the security check on). */
export async function startMarketplace({
  seedMedia = true,
  captcha,
}: { seedMedia?: boolean; captcha?: { siteKey: string; secret: string } } = {}): Promise<Marketplace> {
  buildIfStale();
  const appPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  // Locally the Worker forwards no client address (only Cloudflare's edge gives a trustworthy one), so
  // every visitor of the tests is this one machine to Auth: its per-address limits are lifted here. The
  // per-account limit on failed sign-ins stays.
  const unlimited = 1_000_000;
  const backend = await startLocalStack({
    port: 0,
    memory: true,
    seed: true,
    seedMedia,
    siteUrl: appUrl,
    tokenRateLimit: { perFiveMinutes: unlimited },
    signUpRateLimit: { perFiveMinutes: unlimited },
    recoveryRateLimit: { perHour: unlimited },
    captchaSecret: captcha?.secret,
  });
  // Mail at 10 a second, not Resend's 2: the route files run side by side, each waiting for its own mail.
  const providers = await startProviders({ stripePort: 0, mailPort: 0, paypalPort: 0, appUrl, mailRequestsPerSecond: 10 });
  try {
    const vars: Record<string, string> = {
      ...(await workerVars(backend, { captchaSiteKey: captcha?.siteKey, siteUrl: appUrl })),
      ...providers.vars,
      // A mail the provider failed is tried again within a second, not a minute.
      MAIL_RETRY_SECONDS: "1",
    };
    const app = await serveApp({ port: appPort, quiet: true, vars });
    // The demo data's streams, made by the rendition queue as on a first `npm start`, before any test plays.
    if (seedMedia) {
      await requestRenditions(appUrl, vars.MARKETPLACE_SECRET, { all: true });
      await renditionsMade(backend).catch(async (error: unknown) => {
        await app.stop();
        throw error;
      });
    }
    return {
      appUrl,
      supabaseUrl: backend.url,
      marketplaceSecret: vars.MARKETPLACE_SECRET,
      stripe: { url: providers.stripe.url, secretKey: providers.stripe.secretKey, webhookSecret: providers.stripe.webhookSecret },
      mail: { url: providers.mail.url, apiKey: providers.mail.apiKey },
      paypal: { url: providers.paypal.url, clientId: providers.paypal.clientId, clientSecret: providers.paypal.clientSecret },
      async stop() {
        await app.stop();
        await providers.close();
        await backend.close();
      },
    };
  } catch (error) {
    await providers.close();
    await backend.close();
    throw error;
  }
}
