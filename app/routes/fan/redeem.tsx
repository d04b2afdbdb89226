import { data, Form, href } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { refusedWrite } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { albumPath } from "~/lib/catalog/catalog";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { playAddress } from "~/lib/http/context.server";
import { marketplaceHeader } from "~/lib/http/env.server";
import { RedeemCodeSchema } from "~/lib/schemas/fan";
import { requireFan } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/redeem";

export const meta = () => pageMeta("Redeem a Code", "Redeem a download code to add its release to your collection.");

const path = href("/redeem");

/** A visitor is asked to sign in (or sign up) and comes back here, with the code they followed a link with. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireFan(request, context);
  return { code: new URL(request.url).searchParams.get("code") ?? "" };
}

type Redeemed = FormReply & { redeemed?: { id: string; title: string } };

const outcomes = {
  unknown: { status: 400, message: "This code does not exist, or it was disabled. Check it and try again." },
  used: { status: 409, message: "This code has already been redeemed." },
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
  const { data: answer, error } = await context
    .get(supabaseContext)
    .rpc("redeem_download_code", { code: submission.value.code, address: playAddress(request) ?? undefined })
    .setHeader(...marketplaceHeader(context))
    .maybeSingle();
  if (error?.code === sqlState.insufficientPrivilege)
    return replyWith(formError("Codes are redeemed with a fan account", submission.values), 403);
  if (error || !answer) return refusedWrite(error ?? { message: "no answer" }, { what: "redeeming a code", values: submission.values });
  if (answer.outcome === "redeemed" && answer.release_id && answer.title) {
    return data<Redeemed>({ fieldErrors: {}, formError: null, values: {}, redeemed: { id: answer.release_id, title: answer.title } });
  }
  const refused = outcomes[answer.outcome as keyof typeof outcomes] ?? outcomes.unknown;
  const reply: FormReply =
    answer.outcome === "too_many"
      ? formError(refused.message, submission.values)
      : { fieldErrors: { code: refused.message }, formError: null, values: submission.values };
  return replyWith(reply, refused.status);
}

export default function RedeemCode({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData as Redeemed | undefined;
  const form = formFields(reply);
  return (
    <>
      <DashboardHeader title="Redeem a Code" kicker="Your music" dashboard={href("/dashboard/fan")}>
        A download code from an artist (with a record, at a show) adds their release to your collection, to play and download.
      </DashboardHeader>
      {reply?.redeemed ? (
        <Card role="status" className="mb-8 max-w-xl">
          <h2 className="text-xl font-semibold text-ink">{reply.redeemed.title} is now yours</h2>
          <p className="mt-2 text-ink-muted">It is in Purchased, ready to download.</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <LinkButton to={href("/dashboard/fan/purchased")}>Go to Purchased</LinkButton>
            <LinkButton to={albumPath(reply.redeemed.id)} variant="secondary">
              Open {reply.redeemed.title}
            </LinkButton>
          </div>
        </Card>
      ) : null}
      <Card className="max-w-xl">
        <Form method="post" action={path} noValidate className="grid gap-4">
          <FormAlert>{form.formError}</FormAlert>
          <Field
            label="Download code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            hint="12 letters and numbers, like ABCD-EFGH-JKMN. Dashes and spaces do not matter."
            {...form.field("code", reply?.redeemed ? "" : loaderData.code)}
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
