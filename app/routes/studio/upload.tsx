import { useState } from "react";
import { Form, href, redirect } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FilePicker } from "~/components/studio/file-picker";
import { UploadList, useHeldForUploads, useUploads } from "~/components/studio/upload-list";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { AlbumPriceField, PriceField, TrackDetailsFields } from "~/components/studio/track-details-fields";
import { Card } from "~/components/ui/card";
import { PillNav } from "~/components/ui/pill-nav";
import { Field, SelectField } from "~/components/ui/field";
import { shippingCountryOptions } from "~/lib/payments/shipping";
import { refusedWrite } from "~/lib/backend/backend.server";
import { accountChanged, forgetCached } from "~/lib/cache/edge-cache.server";
import { albumTrackLimit, catalogLimits } from "~/lib/constants";
import { formatCount } from "~/lib/format";
import { formError, formFields, parseForm, replyWith, type FieldErrors, type FormReply, type FormValues } from "~/lib/forms/forms";
import { chosenFiles, readForm } from "~/lib/forms/form-body.server";
import { cloudflareContext } from "~/lib/http/context.server";
import { queueRenditions } from "~/lib/media/rendition-queue.server";
import { requireArtist } from "~/lib/session/guards.server";
import { audioFiles, filesOf, imageFiles, onePicture } from "~/lib/media/media-files";
import { pageMeta } from "~/lib/sharing/meta";
import { useHydrated } from "~/lib/ui/use-hydrated";
import { AlbumUploadSchema, MerchUploadSchema, releaseDetailFields, TrackDetailsSchema, UploadedFilesSchema } from "~/lib/schemas/studio";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import { artistCurrency } from "~/lib/payments/currency.server";
import { storedBytes } from "~/lib/uploads/storage-request.server";
import {
  checkFiles,
  checkUploaded,
  insertRelease,
  publish,
  type PublishOutcome,
  type Publisher,
  type Release,
  type UploadKind,
} from "./publish.server";
import type { Route } from "./+types/upload";
import { announceAfterAnswering } from "~/lib/mail/announcements.server";
import { sqlState } from "~/lib/backend/sqlstate";

export const meta = () => pageMeta("Upload Content", "Publish a single, an album or merchandise.");

const kinds = [
  { kind: "single", label: "Single Track" },
  { kind: "album", label: "Album" },
  { kind: "merch", label: "Merchandise" },
] as const satisfies { kind: UploadKind; label: string }[];

/** The kind of upload is in the address (`?type=album`), so each form works without JavaScript. */
function kindFrom(url: URL): UploadKind {
  const asked = url.searchParams.get("type");
  return kinds.find((entry) => entry.kind === asked)?.kind ?? "single";
}

/** How many audio files each kind of release may send with its form: an album's tracks, a single's one (and one too many). */
const audioFilesOf: Record<UploadKind, number> = { album: albumTrackLimit, single: 2, merch: 0 };

const uploadPath = (kind: UploadKind) => `${href("/dashboard/artist/upload")}?type=${kind}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  const currency = await artistCurrency(context.get(supabaseContext), artist.id);
  return { kind: kindFrom(new URL(request.url)), artistId: artist.id, currency };
}

/**
 * Publishing. With JavaScript the files are already in Storage and the form names them
 * (`uploadedArtwork`, `uploadedTracks`); without it they come with the form (a multipart POST). Fields and
 * files are all checked first, so every message shows at once next to its field.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const kind = kindFrom(new URL(request.url));
  // Without JavaScript the files come with the form, bounded as they stream in by what this kind of release
  // holds (with room for one file too many, so the spec's message can say so beside its field); each file
  // is then held to its own limit.
  const formData = await readForm(request, { files: { audio: filesOf(audioFilesOf[kind], audioFiles), artwork: onePicture } });
  const supabase = context.get(supabaseContext);
  const files = formData.has("uploadedArtwork")
    ? await uploadedFiles(kind, artist.id, formData, context)
    : await attachedFiles(kind, artist.id, formData, { supabase, vouched: vouchedClient(context) });
  const submission = readRelease(kind, formData);
  if (!submission.success || !files.publish) {
    const reply: FormReply = submission.success ? { fieldErrors: {}, formError: null, values: submission.values } : submission.reply;
    return replyWith({ ...reply, fieldErrors: { ...reply.fieldErrors, ...files.errors } }, 400);
  }
  const outcome = await files.publish(submission.release);
  if ("database" in outcome) {
    if (outcome.database.code === sqlState.limitReached) {
      const limit =
        kind === "merch"
          ? `Your store can hold at most ${formatCount(catalogLimits.merchItems)} items`
          : `An artist can have at most ${formatCount(catalogLimits.artistTracks)} tracks`;
      return replyWith(formError(limit, submission.values), 409);
    }
    return refusedWrite(outcome.database, { what: "publishing a release", values: submission.values, fields: releaseDetailFields });
  }
  // Storage failed after every file passed its checks: ours, not the artist's.
  if ("storage" in outcome) return replyWith(formError(outcome.storage, submission.values), 500);
  // Each track's stream is made off the request path (the rendition queue); publishing does not wait for it.
  await queueRenditions(context.get(cloudflareContext).env.RENDITIONS, outcome.published);
  // A release out today is announced to its followers and buyers at once (one dated ahead, on its day).
  if (outcome.published.length > 0) announceAfterAnswering(context);
  // The artist's page, embed and the sitemap list the new release at once.
  await forgetCached(request, context, accountChanged(artist.id));
  throw redirect(href("/dashboard/artist/tracks"), 303);
}

/** The release's files as checked: the messages by field, or how to publish with them. */
type ReleaseFiles = { errors: FieldErrors; publish: ((release: Release) => Promise<PublishOutcome>) | null };

async function uploadedFiles(
  kind: UploadKind,
  artistId: string,
  formData: FormData,
  context: Route.ActionArgs["context"],
): Promise<ReleaseFiles> {
  const supabase = context.get(supabaseContext);
  const uploaded = parseForm(UploadedFilesSchema, formData, { arrays: ["uploadedTracks"] });
  if (!uploaded.success) return { errors: { audio: Object.values(uploaded.reply.fieldErrors)[0] }, publish: null };
  const { errors, artwork, tracks } = await checkUploaded(supabase, { kind }, artistId, uploaded.value, await storedBytes(context));
  if (Object.keys(errors).length > 0 || !artwork) return { errors, publish: null };
  return {
    errors,
    publish: (release) => insertRelease({ supabase, vouched: vouchedClient(context) }, artistId, release, artwork, tracks),
  };
}

async function attachedFiles(kind: UploadKind, artistId: string, formData: FormData, publisher: Publisher): Promise<ReleaseFiles> {
  const artworkFile = chosenFiles(formData, "artwork")[0] ?? null;
  const { errors, artwork, audio: checked } = await checkFiles({ kind }, artworkFile, chosenFiles(formData, "audio"));
  if (Object.keys(errors).length > 0 || !artwork) return { errors, publish: null };
  return { errors, publish: (release) => publish(publisher, artistId, release, artwork, checked) };
}

type Checked = { success: true; release: Release; values: FormValues } | { success: false; reply: FormReply };

/** The form's fields, checked with the schema of its kind. */
function readRelease(kind: UploadKind, formData: FormData): Checked {
  if (kind === "merch") return released(parseForm(MerchUploadSchema, formData), (details) => ({ kind, details }));
  if (kind === "album") {
    return released(parseForm(AlbumUploadSchema, formData, { arrays: ["trackTitles"] }), (details) => ({ kind, details }));
  }
  return released(parseForm(TrackDetailsSchema, formData), (details) => ({ kind, details }));
}

function released<T>(
  submission: { success: true; value: T; values: FormValues } | { success: false; reply: FormReply },
  release: (value: T) => Release,
): Checked {
  return submission.success ? { success: true, release: release(submission.value), values: submission.values } : submission;
}

/** Which files a list holds, to tell when they changed. */
function fileKeys(list: { items: { key: string }[] }): string {
  return list.items.map((item) => item.key).join(" ");
}

export default function Upload({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, artistId, currency } = loaderData;
  const form = formFields(actionData);
  const fieldErrors: FieldErrors = actionData?.fieldErrors ?? {};
  // With JavaScript, files upload as they are chosen (resumable, with progress) and the form names them.
  const live = useHydrated();
  const tracks = useUploads("tracks", artistId);
  const artwork = useUploads("artwork", artistId, { withSmall: true });
  const held = useHeldForUploads([tracks, artwork]);
  const [tooMany, setTooMany] = useState(false);

  // A single's track is replaced by the next one chosen; an album's tracks add up.
  function addTracks(files: File[]) {
    const refused = kind === "single" && files.length > 1;
    setTooMany(refused);
    if (refused) return;
    if (kind === "single") tracks.clear();
    tracks.add(files);
  }

  // A message about the files is about them as they were sent: once they change, it goes.
  const [sentFiles, setSentFiles] = useState<{ tracks: string; artwork: string } | null>(null);
  const changedSince = (sent: string | undefined, list: typeof tracks) => sent !== undefined && sent !== fileKeys(list);
  const tracksChanged = changedSince(sentFiles?.tracks, tracks);
  const artworkChanged = changedSince(sentFiles?.artwork, artwork);

  function holdWhileUploading(event: React.FormEvent) {
    setSentFiles({ tracks: fileKeys(tracks), artwork: fileKeys(artwork) });
    held.hold(event);
  }

  return (
    <>
      <DashboardHeader title="Upload Content">
        Publish a single, an album or merchandise. Fans can buy it as soon as it is released.
      </DashboardHeader>
      <PillNav
        label="What to upload"
        className="mb-6"
        items={kinds.map((entry) => ({ to: uploadPath(entry.kind), label: entry.label, current: entry.kind === kind }))}
      />
      <Card className="max-w-2xl">
        <Form
          method="post"
          action={uploadPath(kind)}
          encType="multipart/form-data"
          noValidate
          className="grid gap-5"
          onSubmit={live ? holdWhileUploading : undefined}
        >
          <FormAlert>{held.message ?? form.formError}</FormAlert>
          {!live && actionData && Object.keys(fieldErrors).length > 0 ? (
            <p className="text-sm text-ink-muted">
              For your safety, files are never kept after a refused upload: please choose them again.
            </p>
          ) : null}
          {kind === "merch" ? (
            <>
              <Field label="Title" {...form.field("title")} required />
              <PriceField value={form.text("price")} error={form.error("price")} currency={currency} />
              <CheckboxField name="allowPayMore" label="Let fans pay more if they want to" defaultChecked={form.checked("allowPayMore")} />
              <Field label="Description" {...form.field("description")} required />
              <Field
                label="Stock (optional)"
                {...form.field("stock")}
                inputMode="numeric"
                hint="How many you have to sell. Leave it empty to keep no count: it never sells out."
              />
              <SelectField
                label="Ships from"
                name="shipsFrom"
                options={shippingCountryOptions()}
                placeholder="Choose a country"
                defaultValue={form.text("shipsFrom")}
                error={form.error("shipsFrom")}
                required
              />
              <Field
                label={`Shipping in that country (${currency})`}
                {...form.field("shippingHome")}
                inputMode="decimal"
                hint="For each one. Leave it empty for free shipping."
              />
              <Field
                label={`Shipping elsewhere (${currency})`}
                {...form.field("shippingElsewhere")}
                inputMode="decimal"
                hint="For each one, to any other country."
              />
            </>
          ) : (
            <>
              {kind === "album" ? (
                <>
                  <Field label="Album title" {...form.field("albumTitle")} required />
                  <AlbumPriceField value={form.text("albumPrice")} error={form.error("albumPrice")} currency={currency} />
                </>
              ) : null}
              <TrackDetailsFields
                currency={currency}
                form={form}
                showTitle={kind === "single"}
                values={{
                  title: form.text("title"),
                  genre: form.text("genre"),
                  subgenre: form.text("subgenre"),
                  label: form.text("label"),
                  price: form.text("price"),
                  releaseDate: form.text("releaseDate"),
                  description: form.text("description"),
                }}
                allowPayMore={form.checked("allowPayMore")}
              />
              <FilePicker
                name="audio"
                label={kind === "album" ? "Tracks" : "Track"}
                accept={audioFiles.accept}
                multiple={kind === "album"}
                formats={`${audioFiles.formats}.${kind === "album" ? ` Tracks are numbered in the order ${live ? "shown; drag them or use Move up and Move down to change it" : "you choose them; each takes its title from its file name, which you can change afterwards"}.` : ""}`}
                error={
                  (tooMany ? "Only one track can be uploaded for singles" : null) ??
                  (tracksChanged ? undefined : form.error("audio")) ??
                  form.error("trackTitles")
                }
                onFiles={live ? addTracks : undefined}
              >
                {live ? <UploadList uploads={tracks} kind="track" renamable={kind === "album"} /> : null}
              </FilePicker>
            </>
          )}
          <FilePicker
            name="artwork"
            label={kind === "merch" ? "Product image" : "Artwork"}
            accept={imageFiles.accept}
            formats={`${imageFiles.formats}; square, at least 400 × 400 px, looks best.`}
            error={artworkChanged ? undefined : form.error("artwork")}
            onFiles={
              live
                ? (files) => {
                    artwork.clear();
                    artwork.add(files.slice(0, 1));
                  }
                : undefined
            }
          >
            {live ? <UploadList uploads={artwork} kind="artwork" /> : null}
          </FilePicker>
          {live ? (
            <input type="hidden" name="uploadedArtwork" value="" disabled={artwork.items.some((item) => item.state === "complete")} />
          ) : null}
          <SubmitButton action={href("/dashboard/artist/upload")} pendingLabel="Publishing...">
            Publish
          </SubmitButton>
        </Form>
      </Card>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
