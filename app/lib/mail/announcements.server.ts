// Release days: the announcement job tells each release's followers and buyers once its date comes, in the
// site and by mail (19_notifications.sql, `announce_releases`), then queues the mail it grouped. It runs
// at the top of every hour (the media Worker's Cron Trigger, with the payouts), and at once after a
// release is published for today. The database does the once-only part: each call announces each due
// release in one transaction (a run stopped half way did nothing; two at once take different releases), and
// each mail is a row sent once by the queue (its id the provider's idempotency key). A mail queued by a
// run that then failed is found again: every run also queues the release mail still unsent. Release mail is
// spread over time at half the provider's rate (`space_release_mails`), so a release to thousands never
// goes out in a burst and the receipts queued meanwhile go first.
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { marketplaceClient, type MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import { cloudflareContext } from "~/lib/http/context.server";
import { backendVariables } from "~/lib/http/backend-env";
import { envFrom } from "~/lib/http/env.server";
import { mailQueueBinding, queueMails } from "./mail-queue.server";
import { mailRate } from "./mail.server";

/** The provider's rate, which release mail takes half of. */
const MailRateEnv = v.object({ MAIL_REQUESTS_PER_SECOND: mailRate });

const Announced = v.object({ announced: v.array(v.string()), mails: v.array(v.string()), more: v.boolean() });
const Turns = v.array(v.object({ mail: v.string(), delay_seconds: v.number() }));

/** Releases a call announces at most (fewer when their audiences are big); a run calls again while more are due, up to `maxCalls`. */
const releasesPerCall = 50;
const maxCalls = 20;

export type AnnouncementRun = { announced: number; mails: number; gifts: number };

/**
 * Queues release mail, each at its turn: `perSecond` a second after the release mail already waiting. A
 * mail whose turn is beyond what the queue can delay waits for a later run (`unsent_release_mails`).
 */
async function queueSpread(backend: MarketplaceClient, queue: Queue, mails: string[], perSecond: number): Promise<void> {
  if (mails.length === 0) return;
  const { data, error } = await backend.rpc("space_release_mails", { mails, per_second: perSecond });
  if (error) throw new Error(`spreading release mail failed: ${error.message}`);
  await queueMails(
    queue,
    v.parse(Turns, data).map((turn) => ({ mail: turn.mail, delaySeconds: turn.delay_seconds })),
  );
}

/**
 * Announces every release due (at most 1,000 a run) and queues its mail (which links to SITE_URL), spread
 * at half the provider's rate (`mailPerSecond`).
 */
export async function runAnnouncementJob(backend: MarketplaceClient, queue: Queue, mailPerSecond: number): Promise<AnnouncementRun> {
  const run: AnnouncementRun = { announced: 0, mails: 0, gifts: 0 };
  const perSecond = mailPerSecond / 2;
  for (let call = 0; call < maxCalls; call += 1) {
    const { data, error } = await backend.rpc("announce_releases", { max_releases: releasesPerCall });
    if (error) throw new Error(`announcing releases failed: ${error.message}`);
    const done = v.parse(Announced, data);
    await queueSpread(backend, queue, done.mails, perSecond);
    run.announced += done.announced.length;
    run.mails += done.mails.length;
    if (!done.more) break;
  }
  // Gifts whose send date came: each mailed once, however many runs overlap (send_due_gifts).
  const gifts = await backend.rpc("send_due_gifts");
  if (gifts.error) throw new Error(`mailing gifts due failed: ${gifts.error.message}`);
  const giftMails = v.parse(v.array(v.string()), gifts.data);
  await queueMails(queue, giftMails);
  run.gifts = giftMails.length;
  const unsent = await backend.rpc("unsent_release_mails");
  if (unsent.error) throw new Error(`reading release mail not sent failed: ${unsent.error.message}`);
  await queueSpread(backend, queue, v.parse(v.array(v.string()), unsent.data), perSecond);
  console.log(`announcements: ${run.announced} releases announced, ${run.mails} mails queued, ${run.gifts} gifts mailed`);
  return run;
}

/** The job as the page Worker runs it (its operator route, and after publishing). */
export function runPageAnnouncementJob(context: Readonly<RouterContextProvider>): Promise<AnnouncementRun> {
  const { env } = context.get(cloudflareContext);
  return runAnnouncementJob(marketplaceClient(envFrom(context)), env.MAIL, v.parse(MailRateEnv, env).MAIL_REQUESTS_PER_SECOND);
}

/**
 * A release published for today is announced at once, after the page has answered (the Worker's
 * waitUntil): the job announces whatever is due, so a release dated ahead waits for its day.
 */
export function announceAfterAnswering(context: Readonly<RouterContextProvider>): void {
  context
    .get(cloudflareContext)
    .ctx.waitUntil(
      runPageAnnouncementJob(context).catch((error: unknown) =>
        console.error("announcing a release failed; the hourly job announces it", error instanceof Error ? error.message : error),
      ),
    );
}

/** The media Worker's variables for the scheduled run: the backend's and its mail queue (whose mail links to SITE_URL). */
const ScheduledEnvSchema = v.object({
  ...backendVariables,
  ...MailRateEnv.entries,
  MAIL: mailQueueBinding,
});

/** The Cron Trigger's run (workers/media.ts). Throws when the Worker is not set up for it. */
export async function runScheduledAnnouncements(rawEnv: unknown): Promise<AnnouncementRun> {
  const env = v.parse(ScheduledEnvSchema, rawEnv);
  return runAnnouncementJob(marketplaceClient(env), env.MAIL, env.MAIL_REQUESTS_PER_SECOND);
}
