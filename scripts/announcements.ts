// `npm run announcements`: runs the announcement job now through the marketplace's own command route, as
// the media Worker's Cron Trigger does every hour: each release whose day has come is announced to its
// followers and buyers (in the site and by mail) once, and the mail is queued. Locally it asks the
// marketplace `npm start` runs (which also runs it at the top of every hour). On hosted, name the site and
// the Worker's secret:
//   MARKETPLACE_URL=https://<your-domain> MARKETPLACE_SECRET=<the Worker's secret> npm run announcements
import { loadEnv } from "./lib/env.ts";
import { operatorTarget, runAnnouncements } from "./lib/operator.ts";

const { appUrl, secret } = operatorTarget(loadEnv());
try {
  const run = await runAnnouncements(appUrl, secret);
  console.log(`Announcements at ${appUrl}: ${run.announced} releases announced, ${run.mails} mails queued.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
