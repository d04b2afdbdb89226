// `npm run dev`: the local backend, then the development server with hot reload (Vite + workerd).
import { join } from "node:path";
import { repoDataDir, startLocalStack } from "@crate/local-supabase";
import { requireFreePorts, localWorkerEnv, root, spawnTethered, stopProcess, workerVars } from "./lib/app-server.ts";
import { loadEnv } from "./lib/env.ts";
import { startProviders } from "./lib/providers.ts";

const env = loadEnv();
const supabasePort = Number(env.SUPABASE_PORT || 54321);
const stripePort = Number(env.STRIPE_PORT || 12111);
const mailPort = Number(env.MAIL_PORT || 12112);
const paypalPort = Number(env.PAYPAL_PORT || 12113);
await requireFreePorts([
  [supabasePort, "SUPABASE_PORT"],
  [stripePort, "STRIPE_PORT"],
  [mailPort, "MAIL_PORT"],
  [paypalPort, "PAYPAL_PORT"],
]);
const backend = await startLocalStack({
  port: supabasePort,
  dataDir: repoDataDir,
  databaseUrl: env.DATABASE_URL || undefined,
  siteUrl: "http://localhost:5173",
  captchaSecret: env.TURNSTILE_SECRET_KEY || undefined,
  verbose: true,
});
console.log(`Local backend on ${backend.url} (password-reset emails: ${backend.url}/auth/v1/outbox)`);
const providers = await startProviders({ stripePort, mailPort, paypalPort, appUrl: "http://localhost:5173", verbose: true });
console.log(
  `Stripe stand-in on ${providers.stripe.url} (test card 4242 4242 4242 4242 pays); mail outbox on ${providers.mail.url}; PayPal payouts on ${providers.paypal.url}`,
);

const dev = spawnTethered(
  process.execPath,
  [join(root, "node_modules", "@react-router", "dev", "bin.cjs"), "dev", ...process.argv.slice(2)],
  {
    cwd: root,
    output: "inherit",
    // vite.config.ts hands these to the dev server's Worker
    env: {
      ...localWorkerEnv(),
      ...(await workerVars(backend, { captchaSiteKey: env.TURNSTILE_SITE_KEY || undefined, siteUrl: "http://localhost:5173" })),
      ...providers.vars,
    },
  },
);

let stopping = false;
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  await stopProcess(dev);
  await providers.close();
  await backend.close();
  process.exit(code);
}
dev.on("exit", (code) => shutdown(code ?? 0));
process.on("SIGINT", () => shutdown());
process.on("SIGTERM", () => shutdown());
