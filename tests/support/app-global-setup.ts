// Route tests run against the production build served by workerd, backed by a local stack on a fresh
// in-memory database with the demo data: exactly what users get, minus the network.
import type { TestProject } from "vitest/node";
import { startMarketplace } from "../../scripts/lib/marketplace.ts";

export default async function setup(project: TestProject) {
  const marketplace = await startMarketplace({ seedMedia: false });
  project.provide("appUrl", marketplace.appUrl);
  project.provide("supabaseUrl", marketplace.supabaseUrl);
  project.provide("marketplaceSecret", marketplace.marketplaceSecret);
  project.provide("stripe", marketplace.stripe);
  project.provide("mail", marketplace.mail);
  project.provide("paypal", marketplace.paypal);
  return () => marketplace.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    supabaseUrl: string;
    marketplaceSecret: string;
    stripe: { url: string; secretKey: string; webhookSecret: string };
    mail: { url: string; apiKey: string };
    paypal: { url: string; clientId: string; clientSecret: string };
  }
}
