// `npm run test:e2e`: serve the production build on a free port and run the browser suite against it
// in Debian's Chromium. Everything started here is stopped afterwards, also when a test fails.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildIfStale, freePort, root, serveApp, type AppServer } from "./lib/app-server.ts";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) {
  console.error(`Chromium was not found at ${chromiumPath}. Install Debian's package: apt-get install -y chromium`);
  process.exit(1);
}

let app: AppServer | undefined;
let exitCode = 1;
const stopAll = async () => {
  await app?.stop();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await stopAll();
    process.exit(130);
  });
}

try {
  buildIfStale();
  app = await serveApp({ port: await freePort(), quiet: true });
  const files = process.argv.slice(2);
  const runner = spawn(process.execPath, ["--test", "--test-concurrency=1", ...(files.length ? files : [join("tests", "e2e", "*.test.ts")])], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, E2E_BASE_URL: app.url, CHROMIUM_PATH: chromiumPath },
  });
  exitCode = await new Promise<number>((resolve) => runner.on("exit", (code) => resolve(code ?? 1)));
} finally {
  await stopAll();
}
process.exit(exitCode);
