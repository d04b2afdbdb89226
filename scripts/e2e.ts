// `npm run test:e2e`: the local backend on a fresh database with the demo data, the production build on a
// free port, and the browser suite against them in Debian's Chromium. Everything started here is stopped afterwards, also when a test fails.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { exitCodeOf, root } from "./lib/app-server.ts";
import { requireChromium } from "./lib/chromium.ts";
import { startMarketplace, type Marketplace } from "./lib/marketplace.ts";

const chromiumPath = requireChromium();

let marketplace: Marketplace | undefined;
let exitCode: number;
const stopAll = async () => {
  await marketplace?.stop();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await stopAll();
    process.exit(130);
  });
}

try {
  marketplace = await startMarketplace();
  const files = process.argv.slice(2);
  const runner = spawn(
    process.execPath,
    ["--test", "--test-concurrency=1", ...(files.length ? files : [join("tests", "e2e", "*.test.ts")])],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        E2E_BASE_URL: marketplace.appUrl,
        E2E_SUPABASE_URL: marketplace.supabaseUrl,
        E2E_MARKETPLACE_SECRET: marketplace.marketplaceSecret,
        E2E_STRIPE_URL: marketplace.stripe.url,
        E2E_MAIL_URL: marketplace.mail.url,
        E2E_MAIL_KEY: marketplace.mail.apiKey,
        E2E_PAYPAL_URL: marketplace.paypal.url,
        CHROMIUM_PATH: chromiumPath,
      },
    },
  );
  exitCode = await exitCodeOf(runner);
} finally {
  await stopAll();
}
process.exit(exitCode);
