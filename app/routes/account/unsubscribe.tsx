import { data, Form, href } from "react-router";
import * as v from "valibot";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, replyWith } from "~/lib/forms/forms";
import { envFrom } from "~/lib/http/env.server";
import { linkHolderPageHeaders, uncached } from "~/lib/http/http-cache";
import { readUnsubscribePass, type Unsubscribe } from "~/lib/http/signed-values.server";
import { vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/unsubscribe";

// The unsubscribe link of every release mail (release-mails.server.tsx): it works without signing in (the
// link is signed for its address and artist) and is honoured at once. Opening it shows what it stops with
// one button, since mail scanners open links and must not unsubscribe anyone; the mail's one-click
// `List-Unsubscribe-Post` (RFC 8058) posts `List-Unsubscribe=One-Click` here from the mailbox provider,
// with no cookie, and stops the mail at once. A link used already says so. Never cached: the page is the
// link's holder's alone.

export const meta = () => [...pageMeta("Release emails", "Stop or restart release emails."), { name: "robots", content: "noindex" }];

/** What a link stops, or the page that says it is not one of ours. */
async function linkOf(context: Route.LoaderArgs["context"], pass: string): Promise<Unsubscribe> {
  const what = await readUnsubscribePass(envFrom(context).MARKETPLACE_SECRET, pass);
  if (!what)
    throw data("This unsubscribe link is not valid. Use the link in the email itself, or change your email settings.", {
      status: 404,
      headers: uncached,
    });
  return what;
}

export const headers = linkHolderPageHeaders;

const ChoiceNowSchema = v.object({ artist_name: v.nullable(v.string()), unsubscribed: v.boolean() });

export async function loader({ params, context }: Route.LoaderArgs) {
  const { email, artistId } = await linkOf(context, params.pass);
  // Whether the link was used (or its one-click POST), through the marketplace: the database keeps the choice.
  const answer = await vouchedClient(context).rpc("release_mail_choice", { email, artist_id: artistId ?? undefined });
  if (answer.error?.code === sqlState.noDataFound)
    throw data("This artist is no longer on Crate: no more emails come from them.", { status: 404, headers: uncached });
  const now = readOrThrow(answer, { what: "unsubscribe link's choice", schema: ChoiceNowSchema });
  return data({ email, artistName: now.artist_name, every: artistId === null, used: now.unsubscribed }, { headers: uncached });
}

const ChoiceSchema = v.object({
  // The mail's one-click POST carries `List-Unsubscribe=One-Click`; the page's buttons carry `intent`.
  "List-Unsubscribe": v.optional(v.literal("One-Click")),
  intent: v.optional(v.picklist(["unsubscribe", "subscribe"])),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  const what = await linkOf(context, params.pass);
  const choice = v.safeParse(ChoiceSchema, Object.fromEntries(await readForm(request)));
  const subscribed = choice.success && choice.output.intent === "subscribe";
  const { error } = await vouchedClient(context).rpc("set_release_mail", {
    email: what.email,
    artist_id: what.artistId ?? undefined,
    subscribed,
  });
  if (error) {
    console.error("an unsubscribe link's choice failed", error);
    return replyWith(formError("That did not go through. Please try again in a moment."), 503);
  }
  return replyWith({ fieldErrors: {}, formError: null, values: {}, notice: subscribed ? "subscribed" : "unsubscribed" }, 200);
}

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, artistName, every, used } = loaderData;
  const from = every ? "release emails from every artist on Crate" : `${artistName ?? "this artist"}’s release emails`;
  const state = actionData?.notice ?? (used ? "used" : null);
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-3xl font-bold">Release emails</h1>
      <Card>
        {state === "unsubscribed" ? (
          <p role="status" className="font-semibold">
            Unsubscribed. {email} will no longer get {from}.
          </p>
        ) : state === "used" ? (
          <p role="status" className="font-semibold">
            This link was used already: {email} is unsubscribed from {from}.
          </p>
        ) : state === "subscribed" ? (
          <p role="status" className="font-semibold">
            Subscribed again. {email} will get {from}.
          </p>
        ) : (
          <p>
            Stop {from} to {email}?
          </p>
        )}
        <FormAlert>{actionData?.formError}</FormAlert>
        <Form method="post" className="mt-4">
          {state === "unsubscribed" || state === "used" ? (
            <Button type="submit" name="intent" value="subscribe" variant="secondary">
              Subscribe again
            </Button>
          ) : (
            <Button type="submit" name="intent" value="unsubscribe">
              Unsubscribe
            </Button>
          )}
        </Form>
      </Card>
      <p className="mt-6 text-ink-muted">
        Signed in, you choose every kind of email in your settings.{" "}
        <LinkButton to={href("/discover")} variant="secondary" className="ml-2">
          Keep exploring
        </LinkButton>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
