// The mail queues' names, as wrangler.toml and wrangler.media.toml declare them: read by the consumer
// (workers/media.ts) and by `npm run deploy:check`, which imports nothing else of the app.

/** Where the pages and the announcement job queue mail (wrangler.toml produces to it, wrangler.media.toml consumes it). */
export const mailQueue = "marketplace-mail";
/** Where Cloudflare puts a mail's message after its last retry: its consumer marks the mail given up. */
export const failedMailQueue = "marketplace-mail-failed";
