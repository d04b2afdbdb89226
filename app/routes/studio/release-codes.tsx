import { data, Form, href, redirect } from "react-router";
import { notFoundBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Badge } from "~/components/ui/badge";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Field } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { notFound, readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { countOf, isUuid } from "~/lib/catalog/catalog";
import { formatDate, formatDownloadCode } from "~/lib/format";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { CreateCodesSchema, SwitchCodeSchema, tooManyCodes, tooManyCodesThisHour } from "~/lib/schemas/studio";
import { ReleaseCodesSchema, type ReleaseCode } from "~/lib/schemas/studio-data";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import { firstPageIfPastTheEnd, pageCount, pageFrom } from "~/lib/ui/paging";
import * as v from "valibot";
import { sqlState } from "~/lib/backend/sqlstate";
import type { Route } from "./+types/release-codes";

export const meta = ({ loaderData }: Route.MetaArgs) =>
  pageMeta(loaderData ? `Codes for ${loaderData.release.title}` : "Release not found", "Make, export, disable and enable download codes.");

const pageSize = 100;
const dateLocale = "en-US";
const codesPath = (id: string) => href("/dashboard/artist/codes/:id", { id });

const ReleaseSchema = v.object({ id: v.string(), kind: v.picklist(["album", "single"]), title: v.string() });

/** The release (the artist's own, or 404) and a page of its codes, newest first, side by side: one round trip. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  if (!isUuid(params.id)) throw notFound("Release not found");
  const supabase = context.get(supabaseContext);
  const url = new URL(request.url);
  const page = pageFrom(url);
  const [release, codes] = await Promise.all([
    supabase.from("releases").select("id, kind, title").eq("id", params.id).eq("artist_id", artist.id).maybeSingle(),
    supabase.rpc("release_codes", { release_id: params.id, page, page_size: pageSize }),
  ]);
  const found = readOrThrow(release, { what: "release", schema: ReleaseSchema, notFound: "Release not found" });
  const list = readOrThrow(codes, { what: "download codes", schema: ReleaseCodesSchema });
  const pages = pageCount(list.total, pageSize);
  firstPageIfPastTheEnd(page > pages, url);
  return { release: found, ...list, page, pages };
}

/** Make codes (1 to 1,000 at a time), or disable an unused one; the list shows the change either way. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  if (!isUuid(params.id)) throw notFound("Release not found");
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request);

  const intent = formData.get("intent");
  if (intent === "disable" || intent === "enable") {
    const submission = parseForm(SwitchCodeSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { data: switched, error } = await supabase
      .from("download_codes")
      .update({ disabled_at: submission.value.intent === "disable" ? new Date().toISOString() : null })
      .eq("id", submission.value.codeId)
      .eq("release_id", params.id)
      .eq("artist_id", artist.id)
      .select("id");
    if (error)
      return refusedWrite(error, {
        what: `${submission.value.intent === "disable" ? "disabling" : "enabling"} a download code`,
        values: submission.values,
      });
    if (switched.length === 0)
      return replyWith(
        formError(`This code was redeemed already, or it is not yours to ${submission.value.intent}`, submission.values),
        409,
      );
    throw redirect(`${codesPath(params.id)}${new URL(request.url).search}`, 303);
  }

  const submission = parseForm(CreateCodesSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { data: made, error } = await supabase.rpc("create_download_codes", { release_id: params.id, how_many: submission.value.count });
  if (error?.code === sqlState.limitReached) {
    const message = error.hint === "hourly" ? tooManyCodesThisHour : tooManyCodes;
    return replyWith({ fieldErrors: { count: message }, formError: null, values: submission.values }, 400);
  }
  if (error) return refusedWrite(error, { what: "making download codes", values: submission.values, fields: { how_many: "count" } });
  return data<FormReply>({ fieldErrors: {}, formError: null, values: {}, notice: `Made ${countOf(made, "new code")}.` });
}

export default function ReleaseCodes({ loaderData, actionData }: Route.ComponentProps) {
  const { release, codes, total, redeemed, disabled, page, pages } = loaderData;
  const switching = actionData?.values.intent === "disable" || actionData?.values.intent === "enable";
  const creating = switching ? undefined : actionData;
  const form = formFields(creating);
  const path = codesPath(release.id);
  return (
    <>
      <DashboardHeader
        title={`Codes for ${release.title}`}
        kicker={release.kind === "album" ? "Album" : "Single"}
        actions={
          total > 0 ? (
            <LinkButton to={href("/dashboard/artist/codes/:id/export", { id: release.id })} reloadDocument variant="secondary">
              Export CSV
            </LinkButton>
          ) : null
        }
      >
        {total === 0 ? "No codes yet." : `${countOf(total, "code")}: ${redeemed} redeemed, ${disabled} disabled.`}
      </DashboardHeader>

      <Card className="mb-8 max-w-xl">
        <Form method="post" action={path} noValidate className="grid gap-4">
          <input type="hidden" name="intent" value="create" />
          <FormAlert tone="success">{form.notice}</FormAlert>
          <FormAlert>{switching ? actionData?.formError : form.formError}</FormAlert>
          <Field
            label="How many codes"
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            hint="Up to 1,000 at a time. Each code works once."
            {...form.field("count", "25")}
          />
          <Button type="submit" size="lg">
            Make codes
          </Button>
        </Form>
      </Card>

      <section aria-labelledby="codes-heading">
        <h2 id="codes-heading" className="mb-3 text-xl font-semibold">
          Codes
        </h2>
        {codes.length === 0 ? (
          <EmptyState title="No codes yet">Make some above, then export them to print.</EmptyState>
        ) : (
          <ul
            aria-label={`Codes for ${release.title}`}
            className="divide-y divide-stage-700 rounded-2xl border border-stage-700 bg-stage-850"
          >
            {codes.map((code) => (
              <CodeRow key={code.id} code={code} action={path} />
            ))}
          </ul>
        )}
      </section>
      <Pagination path={path} page={page} pages={pages} />
    </>
  );
}

function CodeRow({ code, action }: { code: ReleaseCode; action: string }) {
  const shown = formatDownloadCode(code.code);
  return (
    // On a phone the code and Disable share a row, its state under them; wider, one row.
    <li className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-4 py-3 sm:flex">
      <code className="font-mono text-base font-semibold tracking-wider text-ink">{shown}</code>
      <span className="col-span-2 row-start-2 text-sm text-ink-muted sm:min-w-0 sm:flex-1">
        {code.redeemed_at ? (
          <>
            Redeemed{code.redeemed_by ? ` by ${code.redeemed_by}` : ""} on{" "}
            <time dateTime={code.redeemed_at}>{formatDate(code.redeemed_at.slice(0, 10), dateLocale)}</time>
          </>
        ) : code.disabled_at ? (
          <Badge>Disabled</Badge>
        ) : (
          <>
            Unused · made <time dateTime={code.created_at}>{formatDate(code.created_at.slice(0, 10), dateLocale)}</time>
          </>
        )}
      </span>
      {code.redeemed_at ? null : (
        // Disabling can be undone while the code is unused.
        <Form method="post" action={action} className="col-start-2 row-start-1">
          <input type="hidden" name="intent" value={code.disabled_at ? "enable" : "disable"} />
          <input type="hidden" name="codeId" value={code.id} />
          <Button type="submit" variant="ghost" size="sm" aria-label={`${code.disabled_at ? "Enable" : "Disable"} ${shown}`}>
            {code.disabled_at ? "Enable" : "Disable"}
          </Button>
        </Form>
      )}
    </li>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Release not found",
  reason: "It may have been deleted, or it is not one of yours.",
  links: [{ to: href("/dashboard/artist/codes"), label: "Download Codes" }],
});
