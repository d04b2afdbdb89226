import { Suspense } from "react";
import { Form, href, redirect, useNavigation } from "react-router";
import { BanDialog } from "~/components/admin/ban-dialog";
import { MoneyFigures } from "~/components/admin/money-figures";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { Badge } from "~/components/ui/badge";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { DataTable } from "~/components/ui/data-table";
import { EmptyState } from "~/components/ui/empty-state";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { SalesTable } from "~/components/payments/sales-table";
import { invokeFunction, readOrThrow } from "~/lib/backend/backend.server";
import { accountChanged, forgetCached } from "~/lib/cache/edge-cache.server";
import { administrationErrorMessage, databaseErrorMessage } from "~/lib/backend/errors";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { formatDate, formatMoney, formatOrderReference, formatTimeAgo, requestLocale } from "~/lib/format";
import { refundLine } from "~/lib/orders/refunds.server";
import { DisputesSchema, RefundSchema, SalesSchema } from "~/lib/schemas/checkout";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireAdmin } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { pageCount, pageFrom } from "~/lib/ui/paging";
import { applyEventAgain } from "~/lib/orders/payment-events.server";
import {
  AdminMoneySchema,
  ApplyEventSchema,
  AuditLogSchema,
  BannedSchema,
  BanSchema,
  FailedPaymentEventsSchema,
  MailsGivenUpSchema,
  SendMailAgainSchema,
  TaxCollectedSchema,
  SentSchema,
  UserIdSchema,
  UsersPageSchema,
} from "~/lib/schemas/admin";
import { analyticsPeriods, defaultAnalyticsPeriod } from "../../../supabase/functions/_shared/analytics";
import { figuresPeriodOf } from "./figures-period.server";
import { supabaseContext } from "~/lib/session/session.server";
import { onDemand } from "~/lib/ui/on-demand";
import type { Route } from "./+types/dashboard";

const loadTaxCollected = () => import("~/components/admin/tax-collected");
const loadFailedPaymentEvents = () => import("~/components/admin/failed-payment-events");
const loadMailNotSent = () => import("~/components/admin/mail-not-sent");

// The lists below the money figures: the server renders them at once (their forms are plain posts), and the
// browser fetches their code after the page's own, which has no room for them within its budget.
const TaxCollected = import.meta.env.SSR
  ? (await loadTaxCollected()).TaxCollected
  : onDemand(
      async () => (await loadTaxCollected()).TaxCollected,
      () => window.location.href,
    );
const FailedPaymentEvents = import.meta.env.SSR
  ? (await loadFailedPaymentEvents()).FailedPaymentEvents
  : onDemand(
      async () => (await loadFailedPaymentEvents()).FailedPaymentEvents,
      () => window.location.href,
    );
const MailNotSent = import.meta.env.SSR
  ? (await loadMailNotSent()).MailNotSent
  : onDemand(
      async () => (await loadMailNotSent()).MailNotSent,
      () => window.location.href,
    );

export const meta = () => pageMeta("Admin Dashboard", "Administration: users, news and the audit log.");

const adminPath = href("/admin");
/** As many as the admin-users function answers per page. */
const usersPerPage = 50;
/** The newest entries of the audit log; row-level security lets administrators alone read it. */
const auditLimit = 100;
/** The newest sales (every artist's, refundable here) and disputes shown. */
const salesShown = 50;
const disputesShown = 50;
/** The newest mails not sent shown (the heading counts them all). */
const mailsNotSentShown = 50;

/** The list's address: its search and page, the user whose ban dialog is open, and the figures' period. */
function listPath({ search, page, ban, figures }: { search: string; page: number; ban?: string; figures?: string }) {
  const params = new URLSearchParams({
    ...(search ? { q: search } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
    ...(ban ? { ban } : {}),
    ...(figures && figures !== defaultAnalyticsPeriod ? { figures } : {}),
  });
  return params.size > 0 ? `${adminPath}?${params}` : adminPath;
}

/**
 * One round trip: a page of users from the admin-users Edge Function (which asks is_admin() as this
 * administrator, then the Auth admin API) beside the audit log.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 254);
  const page = pageFrom(url);
  const figures = figuresPeriodOf(url);
  const supabase = context.get(supabaseContext);
  const [users, audit, sales, disputes, money, failedEvents, mailsNotSent, taxes] = await Promise.all([
    invokeFunction(supabase, "admin-users", { action: "list", page, search }, UsersPageSchema),
    supabase
      .from("audit_log")
      .select("id, actor_email, action, summary, reason, created_at")
      .order("created_at", { ascending: false })
      .limit(auditLimit),
    supabase.rpc("sales", { how_many: salesShown }),
    // Open disputes first, then the newest.
    supabase
      .from("order_disputes")
      .select("id, order_id, amount_cents, currency, reason, status, opened_at, closed_at")
      .order("closed_at", { ascending: false, nullsFirst: true })
      .order("opened_at", { ascending: false })
      .limit(disputesShown),
    supabase.rpc("admin_money", { days: figures.days }),
    supabase.rpc("failed_payment_events"),
    supabase.rpc("mails_given_up", { how_many: mailsNotSentShown }),
    supabase.rpc("tax_collected", { days: figures.days }),
  ]);
  const log = readOrThrow(audit, { what: "audit log", schema: AuditLogSchema });
  return {
    users: users.ok ? users.data.users : [],
    usersProblem: users.ok ? null : administrationErrorMessage(users.code),
    pages: users.ok ? pageCount(users.data.total, usersPerPage) : 1,
    total: users.ok ? users.data.total : 0,
    page,
    search,
    banning: url.searchParams.get("ban"),
    log,
    sales: readOrThrow(sales, { what: "sales", schema: SalesSchema }),
    disputes: readOrThrow(disputes, { what: "disputes", schema: DisputesSchema }),
    money: readOrThrow(money, { what: "the marketplace's figures", schema: AdminMoneySchema }),
    failedEvents: readOrThrow(failedEvents, { what: "payment events not applied", schema: FailedPaymentEventsSchema }),
    mailsNotSent: readOrThrow(mailsNotSent, { what: "mail not sent", schema: MailsGivenUpSchema }),
    taxes: readOrThrow(taxes, { what: "tax collected", schema: TaxCollectedSchema }),
    figures: { id: figures.id, label: figures.label },
    now: Date.now(),
    locale: requestLocale(request),
  };
}

/**
 * Send a password reset, ban (days and a reason) or lift a ban: each a plain form post, through the Edge
 * Functions, which check again that the caller is an administrator. Or refund a sale (the database checks
 * again that the caller is an administrator).
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(request, context);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const supabase = context.get(supabaseContext);
  const refused = (code: string | null, values: FormReply["values"]) =>
    replyWith(formError(administrationErrorMessage(code), { ...values, intent }), code === "user_not_found" ? 404 : 502);
  // Back to the list the administrator was on (its search and page), the dialog closed.
  const backToList = () => {
    const url = new URL(request.url);
    return redirect(listPath({ search: url.searchParams.get("q") ?? "", page: pageFrom(url) }), 303);
  };

  if (intent === "refund") {
    const refund = parseForm(RefundSchema, formData);
    if (!refund.success) return replyWith(formError("This sale no longer exists", { intent }), 400);
    const outcome = await refundLine(request, context, refund.value.lineId);
    return "refused" in outcome
      ? replyWith(formError(outcome.refused, { intent }), 409)
      : replyWith({ fieldErrors: {}, formError: null, values: { intent }, notice: outcome.notice }, 200);
  }

  if (intent === "apply-event") {
    const event = parseForm(ApplyEventSchema, formData);
    if (!event.success) return replyWith(formError("Choose an event to apply again", { intent }), 400);
    const reply = await applyEventAgain(request, context, event.value.eventId);
    return replyWith(reply, reply.formError ? 409 : 200);
  }

  if (intent === "send-mail-again") {
    const again = parseForm(SendMailAgainSchema, formData);
    if (!again.success) return replyWith(formError("This mail is no longer waiting", { intent }), 400);
    // Queued before its mark is cleared: should the queue refuse it, the mail stays listed to send again.
    // A mail sent meanwhile is skipped by the consumer, so the message is harmless when the database says no.
    await queueMails(context.get(cloudflareContext).env.MAIL, [again.value.mailId]);
    const { error } = await supabase.rpc("send_mail_again", { mail_id: again.value.mailId });
    if (error)
      return error.code === sqlState.noDataFound
        ? replyWith(formError("This mail was sent already or is no longer waiting", { intent }), 409)
        : replyWith(formError(databaseErrorMessage(error), { intent }), 502);
    return replyWith({ fieldErrors: {}, formError: null, values: { intent }, notice: "The mail is on its way again" }, 200);
  }

  if (intent === "ban") {
    const submission = parseForm(BanSchema, formData);
    if (!submission.success) return replyWith({ ...submission.reply, values: { ...submission.reply.values, intent } }, 400);
    const { userId, days, reason } = submission.value;
    const banned = await invokeFunction(supabase, "ban-user", { user_id: userId, days, reason }, BannedSchema);
    if (!banned.ok) return refused(banned.code, submission.values);
    // Their pages and embeds leave every cache with the ban.
    await forgetCached(request, context, accountChanged(userId));
    throw backToList();
  }

  const target = parseForm(UserIdSchema, formData);
  if (!target.success) return replyWith(formError("This user no longer exists", { intent }), 400);
  const { userId } = target.value;
  if (intent === "unban") {
    const lifted = await invokeFunction(supabase, "ban-user", { user_id: userId, unban: true }, BannedSchema);
    if (!lifted.ok) return refused(lifted.code, { userId });
    await forgetCached(request, context, accountChanged(userId));
    throw backToList();
  }
  if (intent === "reset") {
    const redirectTo = new URL(href("/reset-password"), request.url).href;
    const sent = await invokeFunction(
      supabase,
      "admin-users",
      { action: "send_password_reset", user_id: userId, redirect_to: redirectTo },
      SentSchema,
    );
    if (!sent.ok) return refused(sent.code, { userId });
    return replyWith({ fieldErrors: {}, formError: null, values: { intent, userId }, notice: "Password reset email sent" }, 200);
  }
  return replyWith(formError("Choose an action", { intent }), 400);
}

const actionLabels: Record<string, string> = {
  "news.add": "added the news item",
  "news.edit": "edited the news item",
  "news.activate": "activated the news item",
  "news.deactivate": "deactivated the news item",
  "news.delete": "deleted the news item",
  "user.ban": "banned",
  "user.unban": "lifted the ban on",
  "user.password_reset": "sent a password reset to",
  "mail.send_again": "sent again the",
  "payment_event.apply_again": "applied again the payment event",
};

export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const {
    users,
    usersProblem,
    pages,
    total,
    page,
    search,
    banning,
    log,
    sales,
    disputes,
    money,
    failedEvents,
    mailsNotSent,
    taxes,
    figures,
    now,
    locale,
  } = loaderData;
  const refunding = actionData?.values.intent === "refund";
  const applying = actionData?.values.intent === "apply-event";
  const mailing = actionData?.values.intent === "send-mail-again";
  const reply = refunding || applying || mailing ? undefined : actionData;
  const banForm = formFields(reply?.values.intent === "ban" ? reply : undefined);
  const banTarget = users.find((user) => user.id === banning);
  const navigation = useNavigation();
  const busyWith = (intent: string, userId: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && navigation.formData.get("userId") === userId;
  const date = (iso: string) => formatDate(iso.slice(0, 10), locale);

  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Administration</p>
      <h1 className="mt-2 text-4xl font-bold">Admin Dashboard</h1>
      <nav aria-label="Administration" className="mt-6 flex flex-wrap gap-3">
        <LinkButton to={href("/admin/news")} variant="secondary">
          News Manager
        </LinkButton>
      </nav>

      <section aria-labelledby="money-heading" className="mt-10">
        <h2 id="money-heading" className="text-xl font-bold">
          Money
        </h2>
        <MoneyFigures
          money={money}
          periods={analyticsPeriods}
          period={figures}
          pathOf={(period) => listPath({ search, page, figures: period })}
          now={now}
          locale={locale}
        />
      </section>

      <Suspense>
        <TaxCollected
          rows={taxes}
          periodLabel={figures.label}
          csvPath={`${href("/admin/tax.csv")}${figures.id === defaultAnalyticsPeriod ? "" : `?${new URLSearchParams({ figures: figures.id })}`}`}
        />

        <FailedPaymentEvents
          failed={failedEvents}
          action={adminPath}
          notice={applying ? actionData?.notice : null}
          problem={applying ? actionData?.formError : null}
          now={now}
        />

        <MailNotSent
          given={mailsNotSent}
          action={adminPath}
          notice={mailing ? actionData?.notice : null}
          problem={mailing ? actionData?.formError : null}
          now={now}
        />
      </Suspense>

      <section aria-labelledby="users-heading" className="mt-10">
        <h2 id="users-heading" className="text-xl font-bold">
          Users
        </h2>
        <Form
          method="get"
          action={adminPath}
          role="search"
          aria-label="Search users"
          className="mt-3 flex max-w-xl flex-wrap items-end gap-3"
        >
          <Field label="Search by email" name="q" type="search" defaultValue={search} className="min-w-56 flex-1" />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </Form>
        <div className="mt-4">
          <FormAlert tone="success">{reply?.notice}</FormAlert>
          <FormAlert>{reply?.values.intent !== "ban" ? reply?.formError : null}</FormAlert>
          <FormAlert>{usersProblem}</FormAlert>
        </div>
        {users.length === 0 && !usersProblem ? (
          <EmptyState title={search ? `No users match “${search}”` : "No users yet"} />
        ) : users.length > 0 ? (
          <>
            <p className="text-sm text-ink-muted">
              {total.toLocaleString(locale)} {total === 1 ? "user" : "users"}
              {search ? ` matching “${search}”` : ""}, newest first
            </p>
            <DataTable
              caption="Registered users"
              className="mt-2"
              rows={users}
              rowKey={(user) => user.id}
              columns={[
                { heading: "Email", className: "break-all", cell: (user) => user.email },
                { heading: "Role", cell: (user) => <Badge>{user.role}</Badge> },
                {
                  heading: "Created",
                  className: "text-ink-muted",
                  cell: (user) => <time dateTime={user.created_at}>{date(user.created_at)}</time>,
                },
                {
                  heading: "Last sign-in",
                  className: "text-ink-muted",
                  cell: (user) =>
                    user.last_sign_in_at ? (
                      <time dateTime={user.last_sign_in_at}>{formatTimeAgo(user.last_sign_in_at, now)}</time>
                    ) : (
                      "Never"
                    ),
                },
                {
                  heading: "Status",
                  cell: (user) =>
                    user.banned_until ? (
                      <span className="text-danger">
                        Banned until <time dateTime={user.banned_until}>{date(user.banned_until)}</time>
                      </span>
                    ) : (
                      <span className="text-ink-muted">Active</span>
                    ),
                },
                {
                  heading: "Actions",
                  hideHeading: true,
                  cell: (user) => (
                    <div className="flex flex-wrap justify-end gap-2">
                      <Form method="post" action={listPath({ search, page })}>
                        <input type="hidden" name="intent" value="reset" />
                        <input type="hidden" name="userId" value={user.id} />
                        <Button type="submit" variant="secondary" size="sm" aria-label={`Reset password for ${user.email}`}>
                          {busyWith("reset", user.id) ? "Sending..." : "Reset password"}
                        </Button>
                      </Form>
                      {user.banned_until ? (
                        <Form method="post" action={listPath({ search, page })}>
                          <input type="hidden" name="intent" value="unban" />
                          <input type="hidden" name="userId" value={user.id} />
                          <Button type="submit" variant="secondary" size="sm" aria-label={`Unban ${user.email}`}>
                            {busyWith("unban", user.id) ? "Lifting..." : "Unban"}
                          </Button>
                        </Form>
                      ) : (
                        <LinkButton
                          to={listPath({ search, page, ban: user.id })}
                          variant="danger"
                          size="sm"
                          preventScrollReset
                          aria-label={`Ban ${user.email}`}
                        >
                          Ban
                        </LinkButton>
                      )}
                    </div>
                  ),
                },
              ]}
            />
            <Pagination path={adminPath} page={page} pages={pages} params={search ? { q: search } : {}} />
          </>
        ) : null}
        {banTarget ? (
          <BanDialog
            user={banTarget}
            action={listPath({ search, page, ban: banTarget.id })}
            cancelTo={listPath({ search, page })}
            form={banForm}
          />
        ) : null}
      </section>

      <section aria-labelledby="sales-heading" className="mt-10">
        <h2 id="sales-heading" className="text-xl font-bold">
          Sales
        </h2>
        <p className="mt-1 text-sm text-ink-muted">Every artist’s newest sales. A refund gives the buyer their money back.</p>
        <div className="mt-3 grid gap-3">
          <FormAlert>{refunding ? actionData?.formError : null}</FormAlert>
          <FormAlert tone="success">{refunding ? actionData?.notice : null}</FormAlert>
          <SalesTable sales={sales} action={adminPath} locale={locale} everyone />
        </div>
      </section>

      <section aria-labelledby="disputes-heading" className="mt-10 max-w-3xl">
        <h2 id="disputes-heading" className="text-xl font-bold">
          Disputes
        </h2>
        <p className="mt-1 text-sm text-ink-muted">Payments a buyer’s bank disputes, as Stripe reports them; answer them in Stripe.</p>
        {disputes.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="No disputes" />
          </div>
        ) : (
          <Card className="mt-3 p-0">
            <ul className="divide-y divide-stage-700">
              {disputes.map((dispute) => (
                <li key={dispute.id} className="flex flex-wrap items-baseline justify-between gap-2 px-5 py-3">
                  <p>
                    <span className="font-semibold text-ink">{formatMoney(dispute.amount_cents, dispute.currency)}</span>{" "}
                    <span className="text-ink-muted">
                      on order {formatOrderReference(dispute.order_id)}: {dispute.reason.replaceAll("_", " ")}
                    </span>
                  </p>
                  <p className="text-sm">
                    <Badge tone={dispute.closed_at ? "neutral" : "danger"}>
                      {dispute.closed_at ? `Closed: ${dispute.status}` : "Open"}
                    </Badge>{" "}
                    <time dateTime={dispute.opened_at} className="text-ink-faint">
                      {formatTimeAgo(dispute.opened_at, now)}
                    </time>
                  </p>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </section>

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
                    <span className="text-ink">{entry.action.startsWith("news.") ? `“${entry.summary}”` : entry.summary}</span>
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
