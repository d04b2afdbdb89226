import { Form } from "react-router";
import { FormAlert } from "~/components/form-controls";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { formatCount, formatTimeAgo } from "~/lib/format";
import type { FailedPaymentEvents as Events } from "~/lib/schemas/admin";

/**
 * The payment provider's events its webhook could not apply, newest first, each with its reason, how often
 * it was tried, and "Apply again" (a plain form post): once the cause is fixed, the event is asked of the
 * provider again and applied as the webhook would.
 */
export function FailedPaymentEvents({
  failed,
  action,
  notice,
  problem,
  now,
}: {
  failed: Events;
  action: string;
  notice?: string | null;
  problem?: string | null;
  now: number;
}) {
  return (
    <section aria-labelledby="failed-events-heading" className="mt-10 max-w-3xl">
      <h2 id="failed-events-heading" className="text-xl font-bold">
        Payment events not applied <Badge tone={failed.count > 0 ? "danger" : "neutral"}>{formatCount(failed.count)}</Badge>
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Events from the payment provider that failed here. Stripe sends each again for up to three days (a few hours in test mode); once the
        cause is fixed, apply it again.
      </p>
      <div className="mt-3 grid gap-3">
        <FormAlert>{problem}</FormAlert>
        <FormAlert tone="success">{notice}</FormAlert>
        {failed.events.length === 0 ? (
          <EmptyState title="Every payment event was applied" />
        ) : (
          <Card className="p-0">
            <ul className="divide-y divide-stage-700">
              {failed.events.map((event) => (
                <li key={event.event_id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
                  <div className="min-w-0">
                    <p className="font-semibold text-ink">
                      {event.event_type} <code className="text-sm font-normal break-all text-ink-muted">{event.event_id}</code>
                    </p>
                    <p className="text-sm text-ink-muted">{event.failure}</p>
                    <p className="text-sm text-ink-faint">
                      Tried {event.attempts} {event.attempts === 1 ? "time" : "times"}, last{" "}
                      <time dateTime={event.last_failed_at}>{formatTimeAgo(event.last_failed_at, now)}</time>
                    </p>
                  </div>
                  <Form method="post" action={action}>
                    <input type="hidden" name="intent" value="apply-event" />
                    <input type="hidden" name="eventId" value={event.event_id} />
                    <Button type="submit" variant="secondary" size="sm" aria-label={`Apply again: ${event.event_type} ${event.event_id}`}>
                      Apply again
                    </Button>
                  </Form>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </section>
  );
}
