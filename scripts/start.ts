// `npm start`: the local Supabase-compatible stack (with demo data on first start) and the marketplace's
// production build served through workerd. Ctrl-C stops both.
import { repoDataDir, startLocalStack } from "@crate/local-supabase";
import { requireFreePorts, buildIfStale, serveApp, workerVars } from "./lib/app-server.ts";
import { loadEnv } from "./lib/env.ts";
import { demoAccounts } from "./lib/demo-data.ts";
import { renditionsMade, requestRenditions } from "./lib/renditions.ts";
import { startProviders } from "./lib/providers.ts";
import { runAnnouncements, runPayouts } from "./lib/operator.ts";

const env = loadEnv();
const port = Number(env.PORT || 3000);
const supabasePort = Number(env.SUPABASE_PORT || 54321);
const stripePort = Number(env.STRIPE_PORT || 12111);
const mailPort = Number(env.MAIL_PORT || 12112);
const paypalPort = Number(env.PAYPAL_PORT || 12113);

await requireFreePorts([
  [port, "PORT"],
  [supabasePort, "SUPABASE_PORT"],
  [stripePort, "STRIPE_PORT"],
  [mailPort, "MAIL_PORT"],
  [paypalPort, "PAYPAL_PORT"],
]);
buildIfStale();
console.log("Starting the local backend (the first start creates the database and demo media)…");
const backend = await startLocalStack({
  port: supabasePort,
  dataDir: repoDataDir,
  databaseUrl: env.DATABASE_URL || undefined,
  verbose: true,
  // reset links and other Auth redirects go to the app where it runs
  siteUrl: `http://localhost:${port}`,
  captchaSecret: env.TURNSTILE_SECRET_KEY || undefined,
}).catch((error: unknown) => {
  // A database the stack cannot bring up to date says what to do (npm run db:reset): that, not a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
// Payments go to the Stripe stand-in, which sends its events to the marketplace's webhook; mail to the
// mail stand-in's outbox.
const providers = await startProviders({ stripePort, mailPort, paypalPort, appUrl: `http://localhost:${port}`, verbose: true });
const vars = {
  ...(await workerVars(backend, { captchaSiteKey: env.TURNSTILE_SITE_KEY || undefined, siteUrl: `http://localhost:${port}` })),
  ...providers.vars,
};
const app = await serveApp({ port, quiet: true, vars }).catch(async (error) => {
  await providers.close();
  await backend.close();
  throw error;
});

console.log(`
  Marketplace      http://localhost:${port}
  Local backend    ${backend.url}   (password-reset emails: ${backend.url}/auth/v1/outbox)
  Stripe stand-in  ${providers.stripe.url}   (test card 4242 4242 4242 4242 pays)
  Mail outbox      ${providers.mail.url}   (receipts and other mail the marketplace sends)
  PayPal stand-in  ${providers.paypal.url}   (the payouts artists were sent)

  Demo accounts
${demoAccounts.map((account) => `    ${account.role.padEnd(7)} ${account.email.padEnd(22)} ${account.password}`).join("\n")}

  Press Ctrl-C to stop.
`);

// Tracks without a stream of the current format (the demo data on a first start, anything published
// while the queue could not take it) are queued now; the site plays them once each is made.
const queued = await requestRenditions(`http://localhost:${port}`, vars.MARKETPLACE_SECRET, { all: true }).catch((error: unknown) => {
  console.error("Queueing the tracks' streams failed:", error instanceof Error ? error.message : error);
  return 0;
});
if (queued > 0) {
  console.log(`  Making the streams of ${queued} track${queued === 1 ? "" : "s"} (the rendition queue)…`);
  const started = Date.now();
  renditionsMade(backend)
    .then(() => console.log(`  Streams ready, in ${((Date.now() - started) / 1000).toFixed(1)} s.`))
    .catch((error: unknown) => console.error(error instanceof Error ? error.message : error));
}

// No Cron Trigger fires locally: the hourly jobs the media Worker runs on hosted (payouts, and the releases
// whose day has come) are asked for here on the same schedule (`npm run payouts`, `npm run announcements`
// run them at once).
function jobsAtTheTopOfTheHour() {
  const hour = 3_600_000;
  return setTimeout(
    () => {
      const appUrl = `http://localhost:${port}`;
      runPayouts(appUrl, vars.MARKETPLACE_SECRET)
        .then((run) => run.sent + run.paid + run.failed > 0 && console.log(`  Payouts: ${run.paid} paid, ${run.failed} failed.`))
        .catch((error: unknown) => console.error("The payout job failed:", error instanceof Error ? error.message : error));
      runAnnouncements(appUrl, vars.MARKETPLACE_SECRET)
        .then((run) => run.announced > 0 && console.log(`  Releases announced: ${run.announced}, ${run.mails} mails.`))
        .catch((error: unknown) => console.error("The announcement job failed:", error instanceof Error ? error.message : error));
      hourly = jobsAtTheTopOfTheHour();
    },
    hour - (Date.now() % hour),
  );
}
let hourly = jobsAtTheTopOfTheHour();

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  console.log("\nStopping…");
  clearTimeout(hourly);
  await app.stop();
  await providers.close();
  await backend.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
