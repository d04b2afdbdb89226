import { data, Form, href } from "react-router";
import * as v from "valibot";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { formError, replyWith } from "~/lib/forms/forms";
import { envFrom } from "~/lib/http/env.server";
import { linkHolderPageHeaders, uncached } from "~/lib/http/http-cache";
import { readNewsletterPass } from "~/lib/http/signed-values.server";
import { vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/newsletter-confirmation";

// The confirmation link of a newsletter signup's mail (newsletter-mails.server.tsx): it works without
// signing in (the link is signed for that mail) and without JavaScript. Opening it shows what it confirms
// with one button, since mail scanners open links and must not subscribe anyone; the button's POST
// confirms. A link used already says so. Never cached: the page is the link's holder's alone.

export const meta = () => [
  ...pageMeta("Confirm your subscription", "Confirm an artist's news by email."),
  { name: "robots", content: "noindex" },
];

export const headers = linkHolderPageHeaders;

const ConfirmationSchema = v.object({
  email: v.string(),
  artist_name: v.string(),
  state: v.picklist(["pending", "confirmed", "used"]),
});

const notALink = () =>
  data("This confirmation link is not valid. Use the link in the email itself, or sign up again on the artist’s page.", {
    status: 404,
    headers: uncached,
  });

/** The confirmation a link names, read (`confirm` false) or confirmed, or the page that says it is not one of ours. */
async function confirmation(context: Route.LoaderArgs["context"], pass: string, confirm: boolean) {
  const mailId = await readNewsletterPass(envFrom(context).MARKETPLACE_SECRET, pass);
  if (!mailId) throw notALink();
  const answer = await vouchedClient(context).rpc("newsletter_confirmation", { mail_id: mailId, confirm });
  if (answer.error) {
    console.error("a newsletter confirmation link failed", answer.error);
    return null;
  }
  return readOrThrow(answer, {
    what: "newsletter confirmation",
    schema: ConfirmationSchema,
    notFound: "This confirmation link is not valid.",
  });
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await confirmation(context, params.pass, false);
  if (!found) throw data("This page could not be loaded. Please try again in a moment.", { status: 503, headers: uncached });
  return data(found, { headers: uncached });
}

export async function action({ params, context }: Route.ActionArgs) {
  const done = await confirmation(context, params.pass, true);
  if (!done) return replyWith(formError("That did not go through. Please try again in a moment."), 503);
  return replyWith({ fieldErrors: {}, formError: null, values: {}, notice: done.state }, 200);
}

export default function NewsletterConfirmationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, artist_name: artistName } = loaderData;
  // After the button, the action's word; on opening, the link's own state (loaderData, read again after the POST).
  const state = actionData?.notice ?? loaderData.state;
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-3xl font-bold">News by email</h1>
      <Card>
        {state === "confirmed" ? (
          <p role="status" className="font-semibold">
            You’re subscribed to {artistName}’s news. {email} will get an email when they release new music.
          </p>
        ) : state === "used" ? (
          <p role="status" className="font-semibold">
            This link was used already: {email} confirmed {artistName}’s news. Every email carries a link to unsubscribe.
          </p>
        ) : (
          <>
            <p>
              Send {artistName}’s news to {email}? An email comes when they release new music, each with a link to unsubscribe.
            </p>
            <FormAlert>{actionData?.formError}</FormAlert>
            <Form method="post" className="mt-4">
              <Button type="submit">Confirm</Button>
            </Form>
          </>
        )}
      </Card>
      <p className="mt-6 text-ink-muted">
        <LinkButton to={href("/discover")} variant="secondary">
          Keep exploring
        </LinkButton>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
