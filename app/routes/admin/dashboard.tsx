import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow } from "~/lib/backend.server";
import { formatTimeAgo } from "~/lib/format";
import { requireAdmin } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { AuditLogSchema } from "~/lib/schemas/admin";
import { supabaseContext } from "~/lib/session.server";
import type { Route } from "./+types/dashboard";

export const meta = () => pageMeta("Admin Dashboard", "Administration: news and the audit log.");

/** The newest entries of the audit log; row-level security lets administrators alone read it. */
const auditLimit = 100;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const log = readOrThrow(
    await context
      .get(supabaseContext)
      .from("audit_log")
      .select("id, actor_email, action, summary, reason, created_at")
      .order("created_at", { ascending: false })
      .limit(auditLimit),
    { what: "audit log", schema: AuditLogSchema },
  );
  return { log, now: Date.now() };
}

const actionLabels: Record<string, string> = {
  "news.add": "added the news item",
  "news.edit": "edited the news item",
  "news.activate": "activated the news item",
  "news.deactivate": "deactivated the news item",
  "news.delete": "deleted the news item",
};

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { log, now } = loaderData;
  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Administration</p>
      <h1 className="mt-2 text-4xl font-bold">Admin Dashboard</h1>
      <nav aria-label="Administration" className="mt-6 flex flex-wrap gap-3">
        <LinkButton to="/admin/news" variant="secondary">
          News Manager
        </LinkButton>
      </nav>

      <section aria-labelledby="audit-heading" className="mt-10 max-w-3xl">
        <h2 id="audit-heading" className="text-xl font-bold">
          Audit log
        </h2>
        <p className="mt-1 text-sm text-ink-muted">Every change made here, newest first. Nobody can edit or remove an entry.</p>
        {log.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="Nothing changed yet" />
          </div>
        ) : (
          <Card className="mt-3 p-0">
            <ol className="divide-y divide-stage-700">
              {log.map((entry) => (
                <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-2 px-5 py-3">
                  <p>
                    <span className="font-semibold text-ink">{entry.actor_email ?? "An operator"}</span>{" "}
                    <span className="text-ink-muted">{actionLabels[entry.action] ?? entry.action}</span>{" "}
                    <span className="text-ink">“{entry.summary}”</span>
                    {entry.reason ? <span className="block text-sm text-ink-muted">Reason: {entry.reason}</span> : null}
                  </p>
                  <time dateTime={entry.created_at} className="text-sm text-ink-faint">
                    {formatTimeAgo(entry.created_at, now)}
                  </time>
                </li>
              ))}
            </ol>
          </Card>
        )}
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
