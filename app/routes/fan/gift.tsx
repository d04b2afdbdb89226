import { data, Form, href, Link, redirect } from "react-router";
import * as v from "valibot";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-controls";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { albumPath, trackPath } from "~/lib/catalog/catalog";
import { formError, replyWith } from "~/lib/forms/forms";
import { envFrom } from "~/lib/http/env.server";
import { linkHolderPageHeaders, uncached } from "~/lib/http/http-cache";
import { readGiftPass } from "~/lib/http/signed-values.server";
import { cartKinds } from "~/lib/payments/cart";
import { requireUser } from "~/lib/session/guards.server";
import { userContext, vouchedClient } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import { prepareAhead } from "./downloads.server";
import type { Route } from "./+types/gift";

// A gift's claim link (in the mail to its recipient): what was given, by whom, with the giver's message,
// and Claim. A visitor signs up or logs in first and comes back here. The link is signed by the Worker; the
// database answers for that gift alone, and claims it for the signed-in holder once (claim_gift).

export const meta = () => [...pageMeta("Your gift", "A gift on Crate, to claim."), { name: "robots", content: "noindex" }];

// Every answer is the link holder's alone.
export const headers = linkHolderPageHeaders;

const GiftSchema = v.object({
  id: v.string(),
  state: v.picklist(["claimable", "claimed", "taken", "owned", "own gift", "withdrawn"]),
  kind: v.picklist(cartKinds),
  item_id: v.nullable(v.string()),
  title: v.string(),
  message: v.nullable(v.string()),
  artist_name: v.nullable(v.string()),
  giver_name: v.string(),
});
type GiftState = v.InferOutput<typeof GiftSchema>["state"];

/** The gift a link names, or the page that says the link is not one. */
async function giftOf(context: Route.LoaderArgs["context"], pass: string) {
  const named = await readGiftPass(envFrom(context).MARKETPLACE_SECRET, pass);
  if (!named)
    throw data("This gift link is not one we made. Check that it is the whole link from your mail.", { status: 404, headers: uncached });
  const gift = readOrThrow(await vouchedClient(context).rpc("gift_to_claim", { gift_id: named.giftId, link_version: named.version }), {
    what: "gift",
    schema: v.nullable(GiftSchema),
  });
  if (!gift) throw data("This gift no longer exists.", { status: 404, headers: uncached });
  return { named, gift };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { gift } = await giftOf(context, params.pass);
  return { gift, signedIn: context.get(userContext) !== null };
}

/** Claim: the release becomes the signed-in holder's, or the page says why not. */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireUser(request, context);
  const { named } = await giftOf(context, params.pass);
  const claimed = await vouchedClient(context).rpc("claim_gift", { gift_id: named.giftId, link_version: named.version });
  if (claimed.error?.code === sqlState.insufficientPrivilege) return replyWith(formError("This account cannot claim gifts."), 403);
  if (claimed.error) {
    console.error("claiming a gift failed", claimed.error);
    return replyWith(formError("The gift could not be claimed. Please try again."), 500);
  }
  const state = v.parse(GiftSchema.entries.state, claimed.data);
  if (state !== "claimed")
    return replyWith(formError(state === "claimable" ? "The gift could not be claimed. Please try again." : said[state]), 409);
  const { gift } = await giftOf(context, params.pass);
  // Its files are made now, so the first download does not wait.
  if (gift.item_id) prepareAhead(context, gift.kind === "album" ? { release: gift.item_id } : { track: gift.item_id });
  throw redirect(href("/gift/:pass", { pass: params.pass }), { status: 303, headers: uncached });
}

/** Why a gift is not claimed, as its holder is told. */
const said: Record<Exclude<GiftState, "claimable" | "claimed">, string> = {
  taken: "This gift was claimed already.",
  owned: "You own this already, so the gift stays unclaimed: the person who gave it can give it to someone else.",
  "own gift": "This is a gift you gave: it is for the person you gave it to to claim.",
  withdrawn: "This gift is no longer on offer: it was refunded, or given to another address.",
};

export default function ClaimGift({ loaderData, actionData, params }: Route.ComponentProps) {
  const { gift, signedIn } = loaderData;
  const here = href("/gift/:pass", { pass: params.pass });
  const page = gift.item_id ? (gift.kind === "album" ? albumPath(gift.item_id) : trackPath(gift.item_id)) : null;
  const back = new URLSearchParams({ redirectTo: here });
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-3xl font-bold">A gift for you</h1>
      <Card>
        <p className="text-ink-muted">
          {gift.giver_name} gave you{" "}
          <span className="font-semibold text-ink">{page ? <Link to={page}>{gift.title}</Link> : gift.title}</span>
          {gift.artist_name ? ` by ${gift.artist_name}` : ""}.
        </p>
        {gift.message ? (
          <blockquote className="mt-4 border-l-4 border-stage-600 pl-4 whitespace-pre-line text-ink">{gift.message}</blockquote>
        ) : null}
        <div className="mt-6 grid gap-3">
          <FormAlert>{actionData?.formError}</FormAlert>
          {gift.state === "claimed" ? (
            <div role="status" className="grid gap-3">
              <p className="font-semibold text-ink">It is yours: play it and download it from Purchased.</p>
              <LinkButton to={href("/dashboard/fan/purchased")}>Go to Purchased</LinkButton>
            </div>
          ) : gift.state !== "claimable" ? (
            <p role="status" className="text-ink-muted">
              {said[gift.state]}
            </p>
          ) : signedIn ? (
            <Form method="post" action={here}>
              <Button type="submit" size="lg">
                Claim your gift
              </Button>
            </Form>
          ) : (
            <div className="grid gap-3">
              <p className="text-ink-muted">Sign up or log in to claim it: it is then yours to play and download.</p>
              <div className="flex flex-wrap gap-3">
                <LinkButton to={`${href("/register/fan")}?${back}`}>Sign up to claim</LinkButton>
                <LinkButton to={`${href("/login")}?${back}`} variant="secondary">
                  Log in to claim
                </LinkButton>
              </div>
            </div>
          )}
        </div>
      </Card>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
