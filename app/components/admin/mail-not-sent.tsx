import { Form } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DataTable } from "~/components/ui/data-table";
import { EmptyState } from "~/components/ui/empty-state";
import { formatCount, formatTimeAgo } from "~/lib/format";
import { mailKindLabels } from "~/lib/mail-kinds";
import type { MailsGivenUp } from "~/lib/schemas/admin";

/**
 * "Mail not sent": mail the queue gave up after its last retry (the provider failing it each time), kept
 * unsent until an administrator sends it again; the count in the heading. "Send again" is a plain form post.
 */
export function MailNotSent({
  given,
  action,
  notice,
  problem,
  now,
}: {
  given: MailsGivenUp;
  action: string;
  notice?: string | null;
  problem?: string | null;
  now: number;
}) {
  return (
    <section aria-labelledby="mail-not-sent-heading" className="mt-10">
      <h2 id="mail-not-sent-heading" className="text-xl font-bold">
        Mail not sent <Badge tone={given.count > 0 ? "danger" : "neutral"}>{formatCount(given.count)}</Badge>
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Mail the provider failed on every try. It waits here, never lost: send it again once the provider is back.
      </p>
      <div className="mt-3 grid gap-3">
        <FormAlert>{problem}</FormAlert>
        <FormAlert tone="success">{notice}</FormAlert>
        {given.mails.length === 0 ? (
          <EmptyState title="All mail was sent" />
        ) : (
          <DataTable
            caption="Mail not sent, newest first"
            rows={given.mails}
            rowKey={(mail) => mail.id}
            columns={[
              { heading: "Mail", cell: (mail) => mailKindLabels[mail.kind] },
              { heading: "To", className: "break-all", cell: (mail) => mail.recipient },
              { heading: "Last error", className: "text-ink-muted", cell: (mail) => mail.last_error ?? "None recorded" },
              {
                heading: "Given up",
                className: "text-ink-muted",
                cell: (mail) => <time dateTime={mail.given_up_at}>{formatTimeAgo(mail.given_up_at, now)}</time>,
              },
              {
                heading: "Actions",
                hideHeading: true,
                cell: (mail) => (
                  <Form method="post" action={action}>
                    <input type="hidden" name="intent" value="send-mail-again" />
                    <input type="hidden" name="mailId" value={mail.id} />
                    <Button
                      type="submit"
                      variant="secondary"
                      size="sm"
                      aria-label={`Send the ${mailKindLabels[mail.kind]} to ${mail.recipient} again`}
                    >
                      Send again
                    </Button>
                  </Form>
                ),
              },
            ]}
          />
        )}
      </div>
    </section>
  );
}
