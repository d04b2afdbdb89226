// `npm run bench -- --mail`: a release to many mail recipients, through the real path: the announcement
// job (the page Worker's `/announcements`, as `npm start` asks it) announces one single out today to
// `mails` followers, spreads their release mail at half the provider's rate (`space_release_mails`) and
// queues it; the media Worker's consumer, in workerd, paces its sends to the rate and sends each to the
// mail stand-in, which holds Resend's rate limit (429 with `retry-after` past it). Measured: how long
// from the job to the last mail, whether every follower got exactly one, and how many sends the limit
// refused. Resend's rate is 2 a second; a run at 2 would take hours, so the stand-in's limit and the
// Workers' pacing are raised together (`scale` times), and the time at Resend's 2 a second is computed
// from the spread, which sets the pace.
import { startLocalStack } from "@crate/local-supabase";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";
import { buildIfStale, freePort, serveApp, workerVars } from "./app-server.ts";
import { startProviders } from "./providers.ts";

/** Resend's default rate limit, a team's requests a second. */
const resendRate = 2;

export type MailFigures = {
  mails: number;
  rate: number;
  queueSeconds: number;
  deliveredSeconds: number;
  delivered: number;
  twice: number;
  refused: number;
};

export async function measureMail({ mails, scale }: { mails: number; scale: number }): Promise<MailFigures> {
  buildIfStale();
  const rate = resendRate * scale;
  const appPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  const backend = await startLocalStack({ port: 0, memory: true, seed: true, seedMedia: false, siteUrl: appUrl });
  const providers = await startProviders({ stripePort: 0, mailPort: 0, paypalPort: 0, appUrl, mailRequestsPerSecond: rate });
  try {
    console.log(`Mail: ${mails.toLocaleString("en-US")} followers of one artist, a single out today…`);
    const { db } = backend.stack;
    // What the seed left waiting for its day is not this bench's.
    await db.query("update private.release_announcements set announced_at = now() where announced_at is null");
    await db.query(`insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
      values ('mail-bench-artist@bench.test', '{"role": "artist", "artist_name": "Mail Bench", "paypal_email": "pay@bench.test"}',
        '{"provider": "email"}', now())`);
    await db.query(
      `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
       select 'mail-bench-fan-' || n || '@bench.test', jsonb_build_object('role', 'fan', 'username', 'mailbenchfan' || n),
         '{"provider": "email"}', now()
       from generate_series(1, $1::integer) n`,
      [mails],
    );
    await db.query(`insert into public.followers (artist_id, fan_id)
      select a.id, f.id from public.artist_profiles a, public.fan_profiles f
      where a.artist_name = 'Mail Bench' and f.username like 'mailbenchfan%'`);
    await db.query(`insert into public.tracks (artist_id, title, genre, price, description, release_date)
      select a.id, 'Mail Bench Single', 'Folk', 1, 'A bench release', current_date from public.artist_profiles a
      where a.artist_name = 'Mail Bench'`);

    const vars = { ...(await workerVars(backend, { siteUrl: appUrl })), ...providers.vars };
    const app = await serveApp({ port: appPort, quiet: true, vars });
    try {
      const started = performance.now();
      const job = await fetch(new URL("/announcements", appUrl), {
        method: "POST",
        headers: { [marketplaceSecretHeader]: vars.MARKETPLACE_SECRET },
      });
      if (!job.ok) throw new Error(`the announcement job answered ${job.status}: ${await job.text()}`);
      await job.text();
      const queueSeconds = (performance.now() - started) / 1000;
      const followers = () => providers.mail.messages.filter((mail) => mail.to[0]?.startsWith("mail-bench-fan-"));
      // The spread sets the pace (half the rate); give it twice that, and a minute, before calling it lost.
      const deadline = started + ((mails / (rate / 2)) * 2 + 60) * 1000;
      const tenth = Math.max(1, Math.floor(mails / 10));
      let told = 0;
      while (followers().length < mails && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const count = followers().length;
        if (Math.floor(count / tenth) > told) {
          told = Math.floor(count / tenth);
          console.log(`  ${count} delivered after ${((performance.now() - started) / 1000).toFixed(0)} s`);
        }
      }
      const delivered = followers();
      const deliveredSeconds = (performance.now() - started) / 1000;
      const recipients = new Set(delivered.map((mail) => mail.to[0]));
      const refused = ((await (await fetch(`${providers.mail.url}/_limited`)).json()) as string[]).length;
      return {
        mails,
        rate,
        queueSeconds,
        deliveredSeconds,
        delivered: recipients.size,
        twice: delivered.length - recipients.size,
        refused,
      };
    } finally {
      await app.stop();
    }
  } finally {
    await providers.close();
    await backend.close();
  }
}

const duration = (seconds: number) =>
  seconds >= 3600
    ? `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
    : seconds >= 60
      ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
      : `${seconds.toFixed(1)} s`;

export function printMail(figures: MailFigures): void {
  const { mails, rate } = figures;
  console.log(`\n| release mail | value |\n|---|---|`);
  console.log(`| recipients | ${mails.toLocaleString("en-US")} |`);
  console.log(
    `| provider's rate (stand-in's limit = Workers' pacing) | ${rate} a second (Resend's ${resendRate}, × ${rate / resendRate}) |`,
  );
  console.log(`| release mail spread at | ${rate / 2} a second (half the rate: receipts go first) |`);
  console.log(`| the job: announced, spread and queued | ${duration(figures.queueSeconds)} |`);
  console.log(`| job to the last mail delivered | ${duration(figures.deliveredSeconds)} |`);
  console.log(`| recipients who got it | ${figures.delivered.toLocaleString("en-US")} of ${mails.toLocaleString("en-US")} |`);
  console.log(`| recipients who got it twice | ${figures.twice} |`);
  console.log(`| sends refused by the rate limit (429) | ${figures.refused} |`);
  console.log(
    `| at Resend's ${resendRate} a second (computed: ${mails.toLocaleString("en-US")} at ${resendRate / 2} a second) | ${duration(mails / (resendRate / 2))} |`,
  );
}
