import { Form, href, Link } from "react-router";
import * as v from "valibot";
import { Artwork } from "~/components/catalog/artist-image";
import { DownloadLinks, type DownloadChoice } from "~/components/catalog/download-links";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PlayAllButton } from "~/components/player/play-button";
import { FormAlert } from "~/components/form-controls";
import { Badge } from "~/components/ui/badge";
import { Button, LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, parseForm, replyWith } from "~/lib/forms/forms";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { GiftRecipientSchema, RefundSchema, ResendReceiptSchema, SendGiftAgainSchema } from "~/lib/schemas/checkout";
import { HidePurchaseSchema } from "~/lib/schemas/fan";
import { forgetCached } from "~/lib/cache/edge-cache.server";
import { refundLine } from "~/lib/orders/refunds.server";
import { Field } from "~/components/ui/field";
import { cartKinds } from "~/lib/payments/cart";
import type { FormReply } from "~/lib/forms/forms";
import { albumPath, artistPath, countOf, trackPath } from "~/lib/catalog/catalog";
import { formatDate, formatDuration, formatMoney, formatOrderReference, formatPrice } from "~/lib/format";
import { downloadChoices } from "~/lib/media/downloads";
import { queueTrack } from "~/lib/player";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { firstPageIfPastTheEnd, pageCount, pageFrom } from "~/lib/ui/paging";
import { OwnedReleasesSchema, type OwnedRelease } from "~/lib/schemas/fan-data";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import type { Route } from "./+types/purchased";

export const meta = () => pageMeta("Purchased Tracks", "Everything you have bought, by release, to play and download.");

const pageSize = 20;
const dateLocale = "en-US";
/** The newest paid orders listed, each with its receipt to send again. */
const ordersShown = 10;

const OrdersSchema = v.array(
  v.object({
    id: v.string(),
    paid_at: v.string(),
    currency: v.string(),
    total_cents: v.number(),
    // A refunded line's purchases are gone (its downloads with them); the order says so here.
    order_lines: v.array(v.object({ title: v.string(), refunded_at: v.nullable(v.string()) })),
  }),
);

/** The fan's gifts (given_gifts), newest first: to whom, when, and whether claimed. */
const GivenGiftsSchema = v.array(
  v.object({
    id: v.string(),
    line_id: v.string(),
    kind: v.picklist(cartKinds),
    item_id: v.nullable(v.string()),
    title: v.string(),
    currency: v.string(),
    total: v.number(),
    recipient_email: v.string(),
    message: v.nullable(v.string()),
    send_on: v.string(),
    mailed: v.boolean(),
    claimed: v.boolean(),
    refunded: v.boolean(),
  }),
);
type GivenGift = v.InferOutput<typeof GivenGiftsSchema>[number];

/** A page of what the fan bought, by release, newest purchase first (owned_releases()), beside their newest orders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireFan(request, context);
  const url = new URL(request.url);
  const page = pageFrom(url);
  const supabase = context.get(supabaseContext);
  const [ownedRead, giftsRead, ordersRead] = await Promise.all([
    supabase.rpc("owned_releases", { page, page_size: pageSize }),
    supabase.rpc("given_gifts"),
    supabase
      .from("orders")
      .select("id, paid_at, currency, total_cents, order_lines(title, refunded_at)")
      .eq("state", "paid")
      .order("paid_at", { ascending: false })
      .limit(ordersShown),
  ]);
  const owned = readOrThrow(ownedRead, { what: "purchases", schema: OwnedReleasesSchema });
  const orders = readOrThrow(ordersRead, { what: "orders", schema: OrdersSchema });
  const gifts = readOrThrow(giftsRead, { what: "gifts", schema: GivenGiftsSchema });
  const pages = pageCount(owned.release_count, pageSize);
  firstPageIfPastTheEnd(page > pages, url);
  // Each release's formats on offer, named here (the page carries no registry of formats).
  const releases = owned.releases.map((release) => ({
    ...release,
    downloads: downloadChoices(release.tracks.map((track) => ({ format: track.master_format, mp3_kbps: track.mp3_kbps }))),
  }));
  return { releases, orders, gifts, page, pages, today: new Date().toISOString().slice(0, 10) };
}

/**
 * "Hide from my page" / "Show on my page" on a release (its purchase kept off the fan's page, the release's
 * "supported by" and "also bought"), "Send the receipt again": a new receipt of one of the fan's paid
 * orders, queued for the mail; and a gift's forms: its mail sent again, given to another address (mailed
 * there), or refunded while unclaimed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const fan = requireFan(request, context);
  const formData = await readForm(request);
  if (formData.has("hide")) return hidePurchaseAction(request, context, fan.id, formData);
  const intent = formData.get("intent");
  if (intent === "send-gift-again" || intent === "gift-recipient") return giftMailAgain(context, intent, formData);
  if (intent === "refund-gift") {
    const submission = parseForm(RefundSchema, formData);
    if (!submission.success) return replyWith(formError("This gift no longer exists", submission.reply.values), 400);
    const outcome = await refundLine(request, context, submission.value.lineId);
    if ("refused" in outcome)
      return replyWith(
        formError(
          outcome.refused === refusedAsNotTheArtist ? "A claimed gift is its recipient’s: it cannot be refunded." : outcome.refused,
          submission.values,
        ),
        409,
      );
    return replyWith(
      {
        fieldErrors: {},
        formError: null,
        values: submission.values,
        notice: "The gift is refunded: the money is on its way back to you, and the claim link claims nothing now.",
      },
      200,
    );
  }
  const submission = parseForm(ResendReceiptSchema, formData);
  if (!submission.success) return replyWith(formError("This order no longer exists"), 400);
  const { data, error } = await vouchedClient(context).rpc("send_receipt_again", { order_id: submission.value.orderId });
  if (error?.code === sqlState.limitReached)
    return replyWith(formError("This receipt was just sent twice. Please wait a minute before sending it again."), 429);
  if (error?.code === sqlState.insufficientPrivilege) return replyWith(formError("This order no longer exists"), 404);
  if (error || !data) {
    console.error("sending a receipt again failed", error);
    return replyWith(formError("The receipt could not be sent. Please try again."), 500);
  }
  try {
    await queueMails(context.get(cloudflareContext).env.MAIL, [data]);
  } catch (queueing) {
    console.error("queueing a receipt failed", queueing);
    return replyWith(formError("The receipt could not be sent. Please try again."), 503);
  }
  return replyWith({ fieldErrors: {}, formError: null, values: {}, notice: "The receipt is on its way to your email." }, 200);
}

/** What refundLine says to anyone but the sale's artist or an administrator: for a giver, a gift claimed since. */
const refusedAsNotTheArtist = "Only the artist of this sale or an administrator can refund it.";

/** A gift's mail again, to its recipient ("Send again") or to a new one ("Give to another address"). */
async function giftMailAgain(context: Route.ActionArgs["context"], intent: "send-gift-again" | "gift-recipient", formData: FormData) {
  const recipient = intent === "gift-recipient" ? parseForm(GiftRecipientSchema, formData) : null;
  const again = recipient ? null : parseForm(SendGiftAgainSchema, formData);
  if (recipient && !recipient.success) return replyWith(recipient.reply, 400);
  if (again && !again.success) return replyWith(formError("This gift no longer exists"), 400);
  const values = recipient?.success ? recipient.values : again?.success ? again.values : {};
  const backend = vouchedClient(context);
  const { data, error } = recipient?.success
    ? await backend.rpc("change_gift_recipient", { gift_id: recipient.value.giftId, email: recipient.value.recipientEmail })
    : await backend.rpc("send_gift_again", { gift_id: again!.success ? again!.value.giftId : "" });
  if (error) {
    const refused =
      error.code === sqlState.limitReached
        ? "This gift was mailed 5 times this hour. Please wait before sending it again."
        : error.code === sqlState.insufficientPrivilege
          ? "This gift no longer exists"
          : error.hint === "claimed"
            ? "This gift is claimed already."
            : error.hint === "refunded"
              ? "This gift is refunded."
              : error.hint === "not yet"
                ? "This gift is mailed on its send date: it cannot be sent before."
                : error.hint === "gift self"
                  ? "A gift is for someone else: enter their email address, not yours."
                  : error.hint === "gift email"
                    ? "Please enter the recipient’s email address"
                    : null;
    if (!refused) console.error("mailing a gift again failed", error);
    const field = error.hint === "gift self" || error.hint === "gift email";
    return replyWith(
      field
        ? { fieldErrors: { recipientEmail: refused! }, formError: null, values }
        : formError(refused ?? "The gift could not be sent. Please try again.", values),
      error.code === sqlState.limitReached ? 429 : 409,
    );
  }
  if (data) {
    try {
      await queueMails(context.get(cloudflareContext).env.MAIL, [data]);
    } catch (queueing) {
      console.error("queueing a gift's mail failed", queueing);
      return replyWith(formError("The gift could not be sent. Please try again.", values), 503);
    }
  }
  const notice =
    intent === "send-gift-again"
      ? "The gift’s mail is on its way again."
      : data
        ? "The gift is given to the new address, and mailed there: the earlier link claims nothing now."
        : "The gift is given to the new address, which is mailed on its send date.";
  // Said beside the gifts; the field starts empty again.
  return replyWith({ fieldErrors: {}, formError: null, values: { giftId: String(values.giftId ?? "") }, notice }, 200);
}

/** A release the fan bought, hidden from their page or shown again (row-level security: only what they own). */
async function hidePurchaseAction(request: Request, context: Route.ActionArgs["context"], fanId: string, formData: FormData) {
  const submission = parseForm(HidePurchaseSchema, formData);
  if (!submission.success) {
    const { fieldErrors } = submission.reply;
    return replyWith(formError(fieldErrors.releaseId ?? fieldErrors.hide ?? "This purchase no longer exists", { about: "purchase" }), 400);
  }
  const { releaseId, hide } = submission.value;
  const hidden = context.get(supabaseContext).from("hidden_purchases");
  const { error } =
    hide === "hide"
      ? await hidden.insert({ release_id: releaseId })
      : await hidden.delete().eq("release_id", releaseId).eq("fan_id", fanId);
  // Hidden twice (a double submit, two tabs) is hidden.
  if (error && error.code !== sqlState.uniqueViolation) {
    // Row-level security: a release the fan owns nothing of; or no such release.
    if (error.code === sqlState.insufficientPrivilege || error.code === sqlState.foreignKeyViolation) {
      return replyWith(formError("This purchase no longer exists", { about: "purchase" }), 404);
    }
    return refusedWrite(error, { what: "hiding a purchase", values: { about: "purchase" } });
  }
  await forgetCached(request, context, [`user:${fanId}`]);
  return replyWith(
    {
      fieldErrors: {},
      formError: null,
      values: { about: "purchase" },
      notice: hide === "hide" ? "Hidden from your page and from its supporters." : "Shown on your page again.",
    },
    200,
  );
}

export default function PurchasedTracks({ loaderData, actionData }: Route.ComponentProps) {
  const { releases, orders, gifts, page, pages, today } = loaderData;
  // A purchase hidden or shown answers above the releases; a gift's forms beside the gifts; a receipt sent
  // again, beside the orders.
  const purchaseReply = actionData?.values.about === "purchase" ? actionData : undefined;
  const giftReply = typeof actionData?.values.giftId === "string" || actionData?.values.lineId !== undefined ? actionData : undefined;
  const orderReply = purchaseReply || giftReply ? undefined : actionData;
  return (
    <>
      <DashboardHeader
        title="Purchased Tracks"
        kicker="Your music"
        dashboard={href("/dashboard/fan")}
        actions={
          <LinkButton to={href("/redeem")} variant="secondary">
            Redeem a Code
          </LinkButton>
        }
      >
        What you have bought, by release: play it here, or download it to keep.
      </DashboardHeader>
      <FormAlert>{purchaseReply?.formError}</FormAlert>
      <FormAlert tone="success">{purchaseReply?.notice}</FormAlert>
      {releases.length === 0 ? (
        <EmptyState title="No purchased tracks yet" action={<LinkButton to={href("/discover")}>Find Music</LinkButton>} />
      ) : (
        <ul aria-label="Purchased releases" className="grid gap-4">
          {releases.map((release) => (
            <OwnedReleaseCard key={release.id} release={release} />
          ))}
        </ul>
      )}
      <Pagination path={href("/dashboard/fan/purchased")} page={page} pages={pages} />
      {gifts.length > 0 ? <GiftsGiven gifts={gifts} today={today} reply={giftReply} /> : null}
      {orders.length > 0 ? (
        <section aria-labelledby="orders-heading" className="mt-10 max-w-3xl">
          <h2 id="orders-heading" className="text-xl font-bold">
            Your orders
          </h2>
          <div className="mt-3 grid gap-3">
            <FormAlert>{orderReply?.formError}</FormAlert>
            <FormAlert tone="success">{orderReply?.notice}</FormAlert>
            <ul className="divide-y divide-stage-700 rounded-2xl border border-stage-700">
              {orders.map((order) => {
                // Wholly refunded, an order has nothing left to download and no receipt to send again; partly,
                // its refunded lines are marked.
                const refunded = order.order_lines.length > 0 && order.order_lines.every((line) => line.refunded_at !== null);
                return (
                  <li key={order.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                    <p className="min-w-0">
                      <span className="font-semibold text-ink">Order {formatOrderReference(order.id)}</span>{" "}
                      <span className="text-ink-muted">
                        · {formatMoney(order.total_cents, order.currency)} ·{" "}
                        <time dateTime={order.paid_at}>{formatDate(order.paid_at.slice(0, 10), dateLocale)}</time>
                      </span>
                      <span className="block truncate text-sm text-ink-muted">
                        {order.order_lines.map((line, index) => (
                          <span key={index}>
                            {index > 0 ? ", " : null}
                            {line.title}
                            {line.refunded_at && !refunded ? " (refunded)" : null}
                          </span>
                        ))}
                      </span>
                    </p>
                    {refunded ? (
                      <Badge tone="danger">Refunded</Badge>
                    ) : (
                      <Form method="post" action={href("/dashboard/fan/purchased")}>
                        <input type="hidden" name="orderId" value={order.id} />
                        <Button type="submit" variant="secondary" size="sm">
                          Send the receipt again<span className="sr-only"> for order {formatOrderReference(order.id)}</span>
                        </Button>
                      </Form>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        </section>
      ) : null}
    </>
  );
}

/**
 * The gifts the fan gave: to whom, when it is (or was) mailed, and whether it was claimed; while unclaimed,
 * its mail sent again, the gift given to another address, or refunded. Plain forms, without JavaScript too.
 */
function GiftsGiven({ gifts, today, reply }: { gifts: GivenGift[]; today: string; reply: FormReply | undefined }) {
  const path = href("/dashboard/fan/purchased");
  return (
    <section aria-labelledby="gifts-heading" className="mt-10 max-w-3xl">
      <h2 id="gifts-heading" className="text-xl font-bold">
        Gifts you gave
      </h2>
      <div className="mt-3 grid gap-3">
        <FormAlert>{reply?.formError}</FormAlert>
        <FormAlert tone="success">{reply?.notice}</FormAlert>
        <ul className="divide-y divide-stage-700 rounded-2xl border border-stage-700">
          {gifts.map((gift) => {
            const open = !gift.claimed && !gift.refunded;
            const mine = reply?.values.giftId === gift.id ? reply : undefined;
            return (
              <li key={gift.id} className="grid gap-3 px-4 py-3">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="min-w-0">
                    <span className="font-semibold text-ink">{gift.title}</span>{" "}
                    <span className="text-ink-muted">
                      · for {gift.recipient_email} · {formatMoney(gift.total, gift.currency)} ·{" "}
                      {gift.send_on > today ? "sent on " : "sent "}
                      <time dateTime={gift.send_on}>{formatDate(gift.send_on, dateLocale)}</time>
                    </span>
                  </p>
                  {gift.refunded ? (
                    <Badge tone="danger">Refunded</Badge>
                  ) : gift.claimed ? (
                    <Badge>Claimed</Badge>
                  ) : (
                    <Badge>Not claimed yet</Badge>
                  )}
                </div>
                {open ? (
                  <div className="flex flex-wrap items-end gap-3">
                    {gift.send_on <= today ? (
                      <Form method="post" action={path}>
                        <input type="hidden" name="intent" value="send-gift-again" />
                        <input type="hidden" name="giftId" value={gift.id} />
                        <Button type="submit" variant="secondary" size="sm">
                          Send again<span className="sr-only"> the gift of {gift.title}</span>
                        </Button>
                      </Form>
                    ) : null}
                    <Form method="post" action={path} noValidate className="flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="gift-recipient" />
                      <input type="hidden" name="giftId" value={gift.id} />
                      <Field
                        label={`Give ${gift.title} to another address`}
                        name="recipientEmail"
                        type="email"
                        className="min-w-0 flex-1 basis-56"
                        defaultValue={mine && typeof mine.values.recipientEmail === "string" ? mine.values.recipientEmail : ""}
                        error={mine?.fieldErrors.recipientEmail}
                      />
                      <Button type="submit" variant="secondary" size="sm">
                        Give it
                      </Button>
                    </Form>
                    <Form method="post" action={path}>
                      <input type="hidden" name="intent" value="refund-gift" />
                      <input type="hidden" name="lineId" value={gift.line_id} />
                      <Button type="submit" variant="ghost" size="sm">
                        Refund<span className="sr-only"> the gift of {gift.title}</span>
                      </Button>
                    </Form>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

/**
 * A release the fan bought (of an album, the tracks they bought of it): Play All, Download in the format
 * chosen (an album's files in one zip, a single's file), and each album track's own Download, as uploaded.
 */
function OwnedReleaseCard({ release }: { release: OwnedRelease & { downloads: DownloadChoice[] } }) {
  const album = release.kind === "album";
  const first = release.tracks[0]!;
  const page = album ? albumPath(release.id) : trackPath(first.id);
  const queue = release.tracks.map((track) => queueTrack({ ...track, album_title: album ? release.title : null, artist: release.artist }));
  const download = album ? href("/album/:id/download", { id: release.id }) : href("/track/:id/download", { id: first.id });
  const downloadable = release.tracks.some((track) => track.has_audio);
  return (
    <li className="min-w-0 rounded-2xl border border-stage-700 bg-stage-850 p-4">
      {/* On a phone Play All takes its own row under the cover and the title; wider, one row. The downloads follow. */}
      <div className="grid grid-cols-[5rem_minmax(0,1fr)] items-center gap-4 sm:flex">
        <Artwork src={first.artwork_small_url ?? first.artwork_url} className="size-20 shrink-0 rounded-xl" />
        <div className="min-w-0 sm:flex-1">
          <p className="text-xs font-semibold tracking-wider text-ink-faint uppercase">
            {album ? `Album · ${countOf(release.tracks.length, "track")} bought` : "Single"}
          </p>
          <Link to={page} className="block truncate text-lg font-bold text-ink hover:underline">
            {release.title}
          </Link>
          {/* At 390 px the line wraps between its parts; only a long artist name gives way, never the price. The
              artist's link, a flex item rather than a word in a sentence, keeps a 24 px target. */}
          <p className="flex flex-wrap gap-x-1 text-sm text-ink-muted">
            <span className="flex min-w-0 max-w-full gap-1">
              <Link to={artistPath(release.artist.id)} className="min-w-6 truncate py-0.5 hover:text-ink hover:underline">
                {release.artist.artist_name}
              </Link>
              <span className="shrink-0">·</span>
            </span>
            <span className="shrink-0 whitespace-nowrap">
              {release.from_code ? "From a download code" : formatPrice(release.amount, release.currency)} ·
            </span>
            <time dateTime={release.bought_at} className="whitespace-nowrap">
              {formatDate(release.bought_at.slice(0, 10), dateLocale)}
            </time>
          </p>
        </div>
        <div className="col-span-2 sm:shrink-0">
          <PlayAllButton tracks={queue} label={`Play ${release.title}`}>
            Play
          </PlayAllButton>
        </div>
      </div>
      {downloadable ? <DownloadLinks path={download} title={release.title} album={album} choices={release.downloads} /> : null}
      {/* Kept off the fan's page and the release's "supported by", or shown again: a plain POST to this page. */}
      <Form method="post" action={href("/dashboard/fan/purchased")} className="mt-3 flex flex-wrap items-center gap-3">
        <input type="hidden" name="releaseId" value={release.id} />
        <input type="hidden" name="hide" value={release.hidden ? "show" : "hide"} />
        {release.hidden ? <Badge>Hidden from your page</Badge> : null}
        <Button type="submit" variant="secondary" size="sm">
          {release.hidden ? "Show on my page" : "Hide from my page"}
          <span className="sr-only">: {release.title}</span>
        </Button>
      </Form>
      {album ? (
        <ol aria-label={`Tracks of ${release.title} you bought`} className="mt-3 divide-y divide-stage-700 border-t border-stage-700">
          {release.tracks.map((track, index) => (
            <li key={track.id} className="flex items-center gap-3 py-2 text-sm">
              <span className="w-6 text-right text-ink-faint tabular-nums">{track.track_number ?? index + 1}</span>
              <Link to={trackPath(track.id)} className="min-w-0 flex-1 truncate font-medium text-ink hover:underline">
                {track.title}
              </Link>
              {track.duration_seconds ? (
                <span className="text-ink-faint tabular-nums">{formatDuration(track.duration_seconds)}</span>
              ) : null}
              {track.has_audio ? (
                <Link
                  to={href("/track/:id/download", { id: track.id })}
                  reloadDocument
                  className="rounded-full px-3 py-1 font-semibold text-accent-strong hover:bg-stage-800"
                  aria-label={`Download ${track.title}`}
                >
                  Download
                </Link>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
