// When the payout job runs: the media Worker's Cron Trigger (wrangler.media.toml, `[triggers] crons`;
// `npm run deploy:check` holds the two together), at the top of every hour, UTC.
export const payoutCron = "0 * * * *";

/** The job's next run after `now`, as the Payments page names it: "07:00 UTC". */
export function nextPayoutRun(now: Date = new Date()): string {
  const hour = (now.getUTCHours() + 1) % 24;
  return `${String(hour).padStart(2, "0")}:00 UTC`;
}
