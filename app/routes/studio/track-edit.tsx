import { Form, href, redirect } from "react-router";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { DeleteSection } from "~/components/delete-section";
import { notFoundBoundary } from "~/components/error-boundary";
import { AlbumPriceField, TrackDetailsFields } from "~/components/studio/track-details-fields";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { notFound, readOrThrow, refusedWrite } from "~/lib/backend/backend.server";
import { isUuid, trackEditPath, trackPath } from "~/lib/catalog/catalog";
import { forgetCached, trackChanged } from "~/lib/cache/edge-cache.server";
import { announceAfterAnswering } from "~/lib/mail/announcements.server";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import {
  DeleteTrackSchema,
  EditTrackSchema,
  PreorderSchema,
  releaseDetailFields,
  RetryStreamSchema,
  WithdrawPreorderSchema,
} from "~/lib/schemas/studio";
import * as v from "valibot";
import { PreorderSection } from "~/components/studio/preorder-section";
import { refundLine } from "~/lib/orders/refunds.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { countOf } from "~/lib/catalog/catalog";
import { StreamStatus, useRefreshWhilePreparing } from "~/components/studio/stream-status";
import { retryStream } from "./streams.server";
import { EditableTrackSchema, PreorderSavedSchema, TrackStreamSchema } from "~/lib/schemas/studio-data";
import { madeFilePaths } from "../../../supabase/functions/_shared/made-formats";
import { ReplaceFilesForm } from "~/components/studio/replace-files-form";
import type { SupabaseClient } from "~/lib/backend/supabase.server";
import { formatDuration } from "~/lib/format";
import { cloudflareContext } from "~/lib/http/context.server";
import { audioFiles, filesOf, onePicture } from "~/lib/media/media-files";
import { queueRenditions } from "~/lib/media/rendition-queue.server";
import { replaceFiles } from "./track-files.server";
import { artistCurrency } from "~/lib/payments/currency.server";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/track-edit";
import { sqlState } from "~/lib/backend/sqlstate";

const yourTracks = href("/dashboard/artist/tracks");
const editableColumns =
  "id, title, track_number, genre, subgenre, label, price, allow_pay_more, release_date, description, file_url, master_format, " +
  "duration_seconds, artwork_url, " +
  // (its release's tracks in their order, at most an album's 100, for its pre-order)
  "release:releases(id, kind, title, price, preorder, tracks(id, title, instant, release_date, track_number))";
/** The lines withdraw_preorder names a call (its `limit`): as many means more may be left. */
const preorderRefundsPerCall = 50;
const trackHasPurchases = "This track has been bought, so it cannot be deleted: buyers keep access to what they paid for.";

export const meta = ({ loaderData }: Route.MetaArgs) =>
  pageMeta(loaderData ? `Edit ${loaderData.track.title}` : "Track not found", "Change a track's details, or delete it.");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  if (!isUuid(params.id)) throw notFound("Track not found");
  const supabase = context.get(supabaseContext);
  // Only the artist's own tracks: another artist's released track is readable, but not theirs to edit.
  const [stored, stream, currency] = await Promise.all([
    supabase.from("tracks").select(editableColumns).eq("id", params.id).eq("artist_id", artist.id).maybeSingle(),
    supabase.rpc("track_stream", { track_id: params.id }).maybeSingle(),
    artistCurrency(supabase, artist.id),
  ]);
  const track = readOrThrow(stored, { what: "track to edit", schema: EditableTrackSchema, notFound: "Track not found" });
  // Its release's tracks in their order, for its pre-order's instant downloads.
  track.release.tracks.sort((a, b) => (a.track_number ?? Infinity) - (b.track_number ?? Infinity));
  return {
    track,
    stream: readOrThrow(stream, { what: "track's stream", schema: TrackStreamSchema, notFound: "Track not found" }),
    artistId: artist.id,
    currency,
  };
}

/** The form's field for each column the database holds a rule on. */
const trackFields = { ...releaseDetailFields, title: "title", track_number: "trackNumber" };

export async function action({ request, params, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  if (!isUuid(params.id)) throw notFound("Track not found");
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request, { files: { audio: filesOf(2, audioFiles), artwork: onePicture } });

  if (formData.get("intent") === "retry-stream") {
    const submission = parseForm(RetryStreamSchema, formData);
    if (!submission.success || submission.value.trackId !== params.id) throw notFound("Track not found");
    const refused = await retryStream(context, params.id, submission.values);
    if (refused) return refused;
    throw redirect(trackEditPath(params.id), 303);
  }

  if (formData.get("intent") === "replace-files") {
    const values = { intent: "replace-files" };
    const outcome = await replaceFiles(context, artist.id, params.id, formData);
    if ("errors" in outcome) return replyWith({ fieldErrors: outcome.errors, formError: null, values }, 400);
    if ("missing" in outcome) throw notFound("Track not found");
    if ("database" in outcome) return refusedWrite(outcome.database, { what: "replacing a track's files", values });
    // Storage failed after every file passed its checks: ours, not the artist's.
    if ("storage" in outcome) return replyWith(formError(outcome.storage, values), 500);
    const { audio, master } = outcome.replaced;
    if (master) await removeTrackAudio(supabase, artist.id, master);
    // The new audio's stream is made off the request path, as at publishing.
    if (audio) await queueRenditions(context.get(cloudflareContext).env.RENDITIONS, [params.id]);
    await forgetCached(request, context, trackChanged(params.id, artist.id));
    throw redirect(trackEditPath(params.id), 303);
  }

  if (formData.get("intent") === "preorder") {
    const submission = parseForm(PreorderSchema, formData, { arrays: ["instant"] });
    if (!submission.success) return replyWith(submission.reply, 400);
    const { releaseId, preorderDate, instant } = submission.value;
    const { data: saved, error } = await supabase.rpc("save_preorder", { release_id: releaseId, release_date: preorderDate, instant });
    if (error?.code === sqlState.checkViolation)
      return replyWith(
        {
          fieldErrors: { preorderDate: "Only a release whose tracks are all still to come can be on pre-order" },
          formError: null,
          values: submission.values,
        },
        400,
      );
    if (error) return refusedWrite(error, { what: "saving a pre-order", values: submission.values });
    // Its buyers' mails that the day moved.
    await queueMails(context.get(cloudflareContext).env.MAIL, v.parse(PreorderSavedSchema, saved).mails);
    await forgetCached(request, context, trackChanged(params.id, artist.id));
    throw redirect(trackEditPath(params.id), 303);
  }

  if (formData.get("intent") === "withdraw-preorder") {
    const submission = parseForm(WithdrawPreorderSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { data: lines, error } = await supabase.rpc("withdraw_preorder", { release_id: submission.value.releaseId });
    if (error) return refusedWrite(error, { what: "withdrawing a pre-order", values: submission.values });
    await forgetCached(request, context, trackChanged(params.id, artist.id));
    // Each buyer's line through the refund path, one after the other (each once: its id is the refund's key).
    const refused: string[] = [];
    for (const line of lines ?? []) {
      const outcome = await refundLine(request, context, line);
      if ("refused" in outcome) refused.push(outcome.refused);
    }
    if (refused.length > 0)
      return replyWith(
        formError(
          `${countOf(refused.length, "buyer")} could not be refunded yet (${refused[0]}). Withdraw again to try again.`,
          submission.values,
        ),
        502,
      );
    // At most 50 lines a call: the rest are the next call's.
    const more = (lines ?? []).length >= preorderRefundsPerCall;
    return replyWith(
      {
        fieldErrors: {},
        formError: null,
        values: submission.values,
        notice: more
          ? `Withdrawn. ${countOf(preorderRefundsPerCall, "buyer")} refunded so far: withdraw again to refund the rest.`
          : `Withdrawn. ${lines && lines.length > 0 ? `Every buyer (${lines.length}) is refunded and told by email.` : "No buyer is waiting for a refund."}`,
      },
      200,
    );
  }

  if (formData.get("intent") === "delete") {
    const submission = parseForm(DeleteTrackSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { data: deleted, error } = await supabase
      .from("tracks")
      .delete()
      .eq("id", params.id)
      .eq("artist_id", artist.id)
      .select("file_url")
      .maybeSingle();
    if (error) {
      // Purchases hold on to their track (on delete restrict).
      if (error.code === sqlState.restrictViolation || error.code === sqlState.foreignKeyViolation)
        return replyWith(formError(trackHasPurchases, submission.values), 409);
      return refusedWrite(error, { what: "deleting a track", values: submission.values });
    }
    if (!deleted) throw notFound("Track not found");
    if (deleted.file_url) await removeTrackAudio(supabase, artist.id, deleted.file_url);
    await forgetCached(request, context, trackChanged(params.id, artist.id));
    throw redirect(yourTracks, 303);
  }

  const submission = parseForm(EditTrackSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const details = submission.value;
  // The track and, for an album track, its album (renamed for all its tracks, and priced) in one transaction.
  const { data: saved, error } = await supabase.rpc("save_track", {
    track_id: params.id,
    details: {
      title: details.title,
      genre: details.genre,
      subgenre: details.subgenre,
      label: details.label,
      price: details.price,
      allow_pay_more: details.allowPayMore,
      release_date: details.releaseDate,
      description: details.description,
      track_number: details.trackNumber,
    },
    // (a single's track has no album: the database leaves its release be)
    album: { title: details.albumTitle, price: details.albumPrice },
  });
  if (error?.message?.includes("tracks_release_date_of_a_preorder") || error?.message?.includes("moved with its pre-order"))
    return replyWith(
      {
        fieldErrors: { releaseDate: "This release is on pre-order: move its date in the Pre-order form below, so its buyers are told" },
        formError: null,
        values: submission.values,
      },
      400,
    );
  if (error) return refusedWrite(error, { what: "updating a track", values: submission.values, fields: trackFields });
  if (!saved) throw notFound("Track not found");
  // every page and embed that shows the track has the new details (or is gone) at once
  await forgetCached(request, context, trackChanged(params.id, artist.id));
  // A release brought forward to today is announced now, not at the next hour (the job announces what is due).
  if (details.releaseDate <= new Date().toISOString().slice(0, 10)) announceAfterAnswering(context);
  throw redirect(yourTracks, 303);
}

/**
 * Removes a master no track names any more (deleted, or replaced) with its stream and download files: no
 * one can have them now. A file left behind is only logged (the daily sweep removes what no track names).
 */
async function removeTrackAudio(supabase: SupabaseClient, artistId: string, master: string) {
  const files = [master, ...madeFilePaths(artistId, master)];
  const { error } = await supabase.storage.from("tracks").remove(files);
  if (error) console.error("removing a track's old audio failed", files, error);
}

export default function EditTrack({ loaderData, actionData }: Route.ComponentProps) {
  const { track, stream, artistId, currency } = loaderData;
  // Each of the page's forms shows its own reply.
  const replyTo = (intent: string) => (actionData?.values.intent === intent ? actionData : undefined);
  const form = formFields(actionData?.values.intent === "save" || !actionData?.values.intent ? actionData : undefined);
  const today = new Date().toISOString().slice(0, 10);
  // Only a release dated ahead may go on pre-order (its day is its latest track's).
  const releaseDay = track.release.tracks.reduce((latest, each) => (each.release_date > latest ? each.release_date : latest), "");
  const datedAhead = track.release.tracks.every((each) => each.release_date > today);
  useRefreshWhilePreparing(stream.state === "preparing");
  const path = trackEditPath(track.id);
  // What was typed wins over what is stored, after a refused save.
  const value = (name: string, stored: string | number | null) =>
    actionData?.values[name] !== undefined ? form.text(name) : String(stored ?? "");
  return (
    <>
      <DashboardHeader
        title={`Edit ${track.title}`}
        actions={
          <LinkButton to={trackPath(track.id)} variant="secondary">
            View public page
          </LinkButton>
        }
      >
        <StreamStatus state={stream.state} failure={stream.failure} trackId={track.id} title={track.title} action={path} />
      </DashboardHeader>
      <Card className="max-w-2xl">
        <Form method="post" action={path} noValidate className="grid gap-5">
          <input type="hidden" name="intent" value="save" />
          <FormAlert>{form.formError}</FormAlert>
          <TrackDetailsFields
            currency={currency}
            form={form}
            values={{
              title: value("title", track.title),
              genre: value("genre", track.genre),
              subgenre: value("subgenre", track.subgenre),
              label: value("label", track.label),
              price: value("price", track.price.toFixed(2)),
              releaseDate: value("releaseDate", track.release_date),
              description: value("description", track.description),
            }}
            allowPayMore={actionData ? form.checked("allowPayMore") : track.allow_pay_more}
          />
          {track.release.kind === "album" ? (
            <div className="grid gap-5 sm:grid-cols-[1fr_10rem]">
              <Field
                label="Album title"
                name="albumTitle"
                hint="Renames the album for all of its tracks."
                defaultValue={value("albumTitle", track.release.title)}
                error={form.error("albumTitle")}
              />
              <Field
                label="Track number"
                name="trackNumber"
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                defaultValue={value("trackNumber", track.track_number)}
                error={form.error("trackNumber")}
              />
            </div>
          ) : null}
          {track.release.kind === "album" ? (
            <AlbumPriceField
              value={value("albumPrice", track.release.price?.toFixed(2) ?? null)}
              error={form.error("albumPrice")}
              currency={currency}
            />
          ) : null}
          <SubmitButton action={path} intent="save" pendingLabel="Saving...">
            Save changes
          </SubmitButton>
        </Form>
      </Card>

      {datedAhead ? (
        <PreorderSection
          action={path}
          releaseId={track.release.id}
          kind={track.release.kind}
          onPreorder={track.release.preorder}
          withdrawing={Boolean(replyTo("withdraw-preorder"))}
          releaseDate={releaseDay}
          tracks={track.release.tracks}
          form={formFields(replyTo("preorder"))}
          replied={Boolean(replyTo("preorder"))}
          withdrawForm={formFields(replyTo("withdraw-preorder"))}
        />
      ) : null}

      <ReplaceFilesForm
        action={path}
        artistId={artistId}
        title={track.title}
        albumTitle={track.release.kind === "album" ? track.release.title : null}
        artworkUrl={track.artwork_url}
        audioNow={
          track.master_format
            ? [track.master_format.toUpperCase(), track.duration_seconds === null ? null : formatDuration(track.duration_seconds)]
                .filter(Boolean)
                .join(" · ")
            : "No audio file yet"
        }
        form={formFields(replyTo("replace-files"))}
      />

      <DeleteSection thing="track" action={path} form={formFields(replyTo("delete"))} className="mt-8 max-w-2xl">
        Its audio file is deleted with it. A track someone has bought cannot be deleted.
      </DeleteSection>
    </>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Track not found",
  reason: "It may have been deleted, or it is not one of yours.",
  links: [{ to: yourTracks, label: "Your Tracks" }],
});
