import { Form, href, redirect } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Badge } from "~/components/ui/badge";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, SelectField, TextareaField } from "~/components/ui/field";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { forgetCached } from "~/lib/cache/edge-cache.server";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { formatDate } from "~/lib/format";
import { requireAdmin } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { DeleteNewsSchema, NewsItemFormSchema, NewsItemIdSchema, NewsItemsSchema, newsTypes } from "~/lib/schemas/admin";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/news";

export const meta = () => pageMeta("News Manager", "The news items of the home page's banner.");

const newsPath = href("/admin/news");
/** The list shows the newest items; the banner only ever shows active ones. */
const listLimit = 200;
const dateLocale = "en-US";

/** Every item, active or not, newest first (row-level security lets administrators read them all). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(request, context);
  const url = new URL(request.url);
  const news = readOrThrow(
    await context
      .get(supabaseContext)
      .from("news_items")
      .select("id, title, content, type, active, created_at")
      .order("created_at", { ascending: false })
      .limit(listLimit),
    { what: "news items", schema: NewsItemsSchema },
  );
  return { news, editing: url.searchParams.get("edit"), deleting: url.searchParams.get("delete") };
}

/**
 * Add, edit, activate or deactivate, delete (after a confirmation): each a plain form post, as the
 * administrator (row-level security checks is_admin() again; a trigger writes the audit log). The home
 * page's cached copy at this location is dropped, so the banner follows at once here and within the
 * cache's 60 s everywhere else.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(request, context);
  const formData = await readForm(request);
  const news = context.get(supabaseContext).from("news_items");
  const intent = formData.get("intent");
  const done = async (error: { code?: string; message: string } | null, values: FormReply["values"], notFound = false) => {
    if (error) {
      return refusedWrite(error, {
        what: "changing news",
        values: { ...values, intent: String(intent) },
        fields: { title: "title", content: "content" },
      });
    }
    if (notFound) return replyWith(formError("This news item no longer exists"), 404);
    await forgetCached(request, context, ["news"]);
    throw redirect(newsPath, 303);
  };

  if (intent === "toggle") {
    const submission = parseForm(NewsItemIdSchema, formData);
    if (!submission.success) return replyWith(formError("This news item no longer exists"), 400);
    const active = formData.get("active") === "true";
    const { data, error } = await news.update({ active }).eq("id", submission.value.id).select("id");
    return done(error, {}, !error && data.length === 0);
  }
  if (intent === "delete") {
    const submission = parseForm(DeleteNewsSchema, formData);
    if (!submission.success) return replyWith({ ...submission.reply, values: { ...submission.reply.values, intent } }, 400);
    const { data, error } = await news.delete().eq("id", submission.value.id).select("id");
    return done(error, {}, !error && data.length === 0);
  }

  const submission = parseForm(NewsItemFormSchema, formData);
  const id = intent === "edit" ? parseForm(NewsItemIdSchema, formData) : null;
  if (!submission.success) return replyWith({ ...submission.reply, values: { ...submission.reply.values, intent: String(intent) } }, 400);
  if (id && !id.success) return replyWith(formError("This news item no longer exists"), 400);
  const { title, content, type, active } = submission.value;
  if (id?.success) {
    const { data, error } = await news.update({ title, content, type, active }).eq("id", id.value.id).select("id");
    return done(error, submission.values, !error && data.length === 0);
  }
  const { error } = await news.insert({ title, content, type, active });
  return done(error, submission.values);
}

export default function NewsManager({ loaderData, actionData }: Route.ComponentProps) {
  const { news, editing, deleting } = loaderData;
  const reply = actionData;
  const about = (intent: string) => formFields(reply?.values.intent === intent ? reply : undefined);
  const adding = about("add");
  const toDelete = news.find((item) => item.id === deleting);
  return (
    <>
      <DashboardHeader title="News Manager" kicker="Administration" dashboard={href("/admin")}>
        The news banner on the home page shows the active items, newest first.
      </DashboardHeader>
      {reply?.formError && !["add", "edit", "delete"].includes(String(reply.values.intent)) ? (
        <FormAlert>{reply.formError}</FormAlert>
      ) : null}

      <Card className="mb-8 max-w-2xl">
        <h2 className="text-lg font-semibold">Add a news item</h2>
        {/* A new item is listed first: the form starts again empty once it is (with JavaScript the page stays mounted). */}
        <NewsForm key={news[0]?.id ?? "none"} intent="add" form={adding} submitLabel="Add news item" />
      </Card>

      {toDelete ? (
        <Card role="region" aria-labelledby="delete-heading" className="mb-6 max-w-2xl border-danger/40">
          <h2 id="delete-heading" className="text-lg font-semibold">
            Delete “{toDelete.title}”?
          </h2>
          <p className="mt-1 text-sm text-ink-muted">It disappears from the home page and cannot be brought back.</p>
          {/* Posted to the page it is on, so a refusal comes back with the confirmation still open. */}
          <Form method="post" action={`${newsPath}?delete=${toDelete.id}`} noValidate className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={toDelete.id} />
            <FormAlert>{about("delete").formError}</FormAlert>
            <CheckboxField name="confirm" label="Yes, delete this news item for good." error={about("delete").error("confirm")} />
            <div className="flex gap-3">
              <Button type="submit" variant="danger">
                Delete news item
              </Button>
              <LinkButton to={newsPath} variant="secondary">
                Cancel
              </LinkButton>
            </div>
          </Form>
        </Card>
      ) : null}

      <h2 className="mb-3 text-xl font-bold">All news items</h2>
      {news.length === 0 ? (
        <EmptyState title="No news items yet">Add one above; active items show on the home page.</EmptyState>
      ) : (
        <ul aria-label="News items" className="grid max-w-3xl gap-4">
          {news.map((item) => (
            <li key={item.id}>
              <Card>
                {editing === item.id ? (
                  <>
                    <h3 className="text-lg font-semibold">Edit “{item.title}”</h3>
                    <NewsForm intent="edit" form={about("edit")} item={item} submitLabel="Save news item" />
                  </>
                ) : (
                  <>
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="text-lg font-semibold">{item.title}</h3>
                      <Badge>{item.type}</Badge>
                      <Badge>{item.active ? "Active" : "Inactive"}</Badge>
                    </div>
                    <p className="mt-1 text-sm text-ink-faint">
                      <time dateTime={item.created_at}>{formatDate(item.created_at.slice(0, 10), dateLocale)}</time>
                    </p>
                    <p className="mt-2 whitespace-pre-line text-ink-muted">{item.content}</p>
                    <div className="mt-4 flex flex-wrap gap-3">
                      <Form method="post" action={newsPath}>
                        <input type="hidden" name="intent" value="toggle" />
                        <input type="hidden" name="id" value={item.id} />
                        <input type="hidden" name="active" value={String(!item.active)} />
                        <Button type="submit" variant="secondary" aria-label={`${item.active ? "Deactivate" : "Activate"} ${item.title}`}>
                          {item.active ? "Deactivate" : "Activate"}
                        </Button>
                      </Form>
                      <LinkButton to={`${newsPath}?edit=${item.id}`} variant="secondary" aria-label={`Edit ${item.title}`}>
                        Edit
                      </LinkButton>
                      <LinkButton to={`${newsPath}?delete=${item.id}`} variant="secondary" aria-label={`Delete ${item.title}`}>
                        Delete
                      </LinkButton>
                    </div>
                  </>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Title, content, type and active: the add form, or one item's edit form. */
function NewsForm({
  intent,
  form,
  item,
  submitLabel,
}: {
  intent: "add" | "edit";
  form: ReturnType<typeof formFields>;
  item?: { id: string; title: string; content: string; type: string; active: boolean };
  submitLabel: string;
}) {
  // After a refused save, what was typed; otherwise the item (or a new item's defaults: active, info).
  const typed = form.text("intent") !== "" || form.formError !== null;
  const value = (name: string, stored: string) => (typed ? form.text(name) : stored);
  return (
    <Form method="post" action={item ? `${newsPath}?edit=${item.id}` : newsPath} noValidate className="mt-4 grid gap-4">
      <input type="hidden" name="intent" value={intent} />
      {item ? <input type="hidden" name="id" value={item.id} /> : null}
      <FormAlert>{form.formError}</FormAlert>
      <Field
        label="Title"
        name="title"
        required
        maxLength={200}
        defaultValue={value("title", item?.title ?? "")}
        error={form.error("title")}
      />
      <TextareaField
        label="Content"
        name="content"
        required
        rows={3}
        maxLength={2000}
        defaultValue={value("content", item?.content ?? "")}
        error={form.error("content")}
      />
      <SelectField
        label="Type"
        name="type"
        options={newsTypes}
        defaultValue={value("type", item?.type ?? "info")}
        error={form.error("type")}
      />
      <CheckboxField
        name="active"
        label="Active (shown on the home page)"
        defaultChecked={typed ? form.checked("active") : (item?.active ?? true)}
      />
      <div className="max-w-xs">
        <SubmitButton action={newsPath} pendingLabel="Saving...">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
