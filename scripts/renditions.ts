// `npm run renditions -- --all` (or `-- <track id> …`): queues streaming renditions through the
// marketplace's own command route, so tracks published before renditions existed get theirs and the
// catalogue is re-rendered when the format changes (--all: every track whose stream is missing or of
// another format). The queue makes them off the request path; Your Tracks shows each one's state.
// Locally it asks the marketplace `npm start` runs, with the secret the local data folder keeps. On
// hosted, name the site and the Worker's secret:
//   MARKETPLACE_URL=https://<your-domain> MARKETPLACE_SECRET=<the Worker's secret> npm run renditions -- --all
import { loadEnv } from "./lib/env.ts";
import { operatorTarget } from "./lib/operator.ts";
import { requestRenditions, type RenditionRequest } from "./lib/renditions.ts";

const env = loadEnv();
const args = process.argv.slice(2);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const request: RenditionRequest | null = args.includes("--all")
  ? { all: true }
  : args.length > 0 && args.every((arg) => uuid.test(arg))
    ? { trackIds: args }
    : null;
if (!request) {
  console.error("Usage: npm run renditions -- --all   or   npm run renditions -- <track id> [<track id> …]");
  process.exit(1);
}

const { appUrl, secret } = operatorTarget(env);
try {
  const queued = await requestRenditions(appUrl, secret, request);
  console.log(`Queued the streams of ${queued} track${queued === 1 ? "" : "s"} at ${appUrl}. Your Tracks shows each one's state.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
