import type { Outbox, Stack } from "./context.ts";

// The local stack sends no email. Auth messages (password reset links) are kept in memory, like the mail
// catcher of `supabase start`, where a developer reads them at /auth/v1/outbox and tests read
// stack.outbox.messages.

export type Mail = Omit<Outbox["messages"][number], "at">;

export function deliver(stack: Stack, mail: Mail): void {
  stack.outbox.messages.push({ ...mail, at: new Date().toISOString() });
  if (stack.config.verbose) console.log(`[outbox] ${mail.subject} for ${mail.to}: ${mail.link ?? "(no link)"}`);
}

/** The outbox as a page, newest message first. */
export function outboxPage(outbox: Outbox): Response {
  const items = outbox.messages
    .toReversed()
    .map(
      (m) => `<article>
  <h2>${escape(m.subject)}</h2>
  <p>To <b>${escape(m.to)}</b> at <time>${escape(m.at)}</time></p>
  ${m.html}
</article>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Local outbox</title>
<style>body{font:16px system-ui;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border-top:1px solid #ccc;padding:1rem 0}</style>
<h1>Local outbox</h1>
${items || "<p>No messages yet.</p>"}
</html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
