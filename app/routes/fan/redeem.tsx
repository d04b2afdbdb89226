import { Form, href, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import * as v from "valibot";
import { read, refusedWrite } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { albumPath, isUuid } from "~/lib/catalog/catalog";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { clientAddress } from "~/lib/http/context.server";
import { RedeemCodeSchema } from "~/lib/schemas/fan";
import { requireFan } from "~/lib/session/guards.server";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import { prepareAhead } from "./downloads.server";
import type { Route } from "./+types/redeem";

export const meta = () => pageMeta("Redeem a Code", "Redeem a download code to add its release to your collection.");

const path = href("/redeem");

/** The release named after a redemption, as album_page() gives it: shown only if the fan owns it whole. */
const RedeemedReleaseSchema = v.nullable(v.object({ id: v.string(), title: v.string(), owned: v.boolean() }));

/**
 * A visitor is asked to sign in (or sign up) and comes back here, with the code they followed a link with.
 * After a code is redeemed the page comes back with the release (`?redeemed=`), so a reload redeems nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireFan(request, context);
  const url = new URL(request.url);
  const releaseId = url.searchParams.get("redeemed");
  const redeemed = isUuid(releaseId)
    ? read(await context.get(supabaseContext).rpc("album_page", { release_id: releaseId }), {
        what: "redeemed release",
        schema: RedeemedReleaseSchema,
      })
    : null;
  const owned = redeemed?.status === "found" && redeemed.data?.owned ? redeemed.data : null;
  return { code: url.searchParams.get("code") ?? "", redeemed: owned && { id: owned.id, title: owned.title } };
}

/** redeem_download_code()'s answer: the outcome, and the release when it was redeemed. */
const RedeemedSchema = v.object({
  outcome: v.picklist(["redeemed", "unknown", "used", "owned", "too_many"]),
  release_id: v.nullable(v.string()),
});
const tryAgain = "The code could not be redeemed. Please try again.";

const outcomes = {
  unknown: { status: 400, message: "This code does not exist, or it was disabled. Check it and try again." },
  used: { status: 409, message: "This code has already been redeemed." },
  owned: { status: 409, message: "You own this release already. The code is still unused: pass it on to someone else." },
  too_many: { status: 429, message: "Too many attempts. Please wait an hour and try again." },
} as const;

/**
 * Redeems the code through the database (redeem_download_code: once each, attempts limited per account and
 * per address, which the marketplace vouches for), then says what joined the fan's collection.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireFan(request, context);
  const submission = parseForm(RedeemCodeSchema, await readForm(request));
  if (!submission.success) return replyWith(submission.reply, 400);
  const result = await vouchedClient(context)
    .rpc("redeem_download_code", { code: submission.value.code, address: clientAddress(request) ?? undefined })
    .maybeSingle();
  if (result.error?.code === sqlState.insufficientPrivilege)
    return replyWith(formError("Codes are redeemed with a fan account", submission.values), 403);
  if (result.error) return refusedWrite(result.error, { what: "redeeming a code", values: submission.values });
  const answer = read(result, { what: "code's redemption", schema: RedeemedSchema });
  if (answer.status !== "found") return replyWith(formError(tryAgain, submission.values), 500);
  const { outcome, release_id: releaseId } = answer.data;
  if (outcome === "redeemed" && releaseId) {
    prepareAhead(context, { release: releaseId });
    throw redirect(`${path}?${new URLSearchParams({ redeemed: releaseId })}`, 303);
  }
  const refused = outcomes[outcome === "redeemed" ? "unknown" : outcome];
  const reply: FormReply =
    outcome === "too_many"
      ? formError(refused.message, submission.values)
      : { fieldErrors: { code: refused.message }, formError: null, values: submission.values };
  return replyWith(reply, refused.status);
}

export default function RedeemCode({ loaderData, actionData }: Route.ComponentProps) {
  const { redeemed } = loaderData;
  const form = formFields(actionData);
  return (
    <>
      <DashboardHeader title="Redeem a Code" kicker="Your music" dashboard={href("/dashboard/fan")}>
        A download code from an artist (with a record, at a show) adds their release to your collection, to play and download.
      </DashboardHeader>
      {redeemed ? (
        <Card role="status" className="mb-8 max-w-xl">
          <h2 className="text-xl font-semibold text-ink">{redeemed.title} is now yours</h2>
          <p className="mt-2 text-ink-muted">It is in Purchased, ready to download.</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <LinkButton to={href("/dashboard/fan/purchased")}>Go to Purchased</LinkButton>
            <LinkButton to={albumPath(redeemed.id)} variant="secondary">
              Open {redeemed.title}
            </LinkButton>
          </div>
        </Card>
      ) : null}
      <Card className="max-w-xl">
        {/* A new form once a code is redeemed: the field starts empty for the next one. */}
        <Form key={redeemed?.id ?? "redeem"} method="post" action={path} noValidate className="grid gap-4">
          <FormAlert>{form.formError}</FormAlert>
          <Field
            label="Download code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            hint="12 letters and numbers, like ABCD-EFGH-JKMN. Dashes and spaces do not matter."
            {...form.field("code", redeemed ? "" : loaderData.code)}
          />
          <Button type="submit" size="lg">
            Redeem
          </Button>
        </Form>
      </Card>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
