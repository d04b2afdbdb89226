import { Form, redirect } from "react-router";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FilePicker } from "~/components/studio/file-picker";
import { StudioHeader } from "~/components/studio/studio-header";
import { PriceField, TrackDetailsFields } from "~/components/studio/track-details-fields";
import { Card } from "~/components/ui/card";
import { PillNav } from "~/components/ui/pill-nav";
import { Field } from "~/components/ui/field";
import { formError, formFields, parseForm, replyWith, type FieldErrors, type FormReply, type FormValues } from "~/lib/forms";
import { requireArtist } from "~/lib/guards.server";
import { audioFiles, imageFiles } from "~/lib/media-files";
import { pageMeta } from "~/lib/meta";
import { AlbumUploadSchema, MerchUploadSchema, TrackDetailsSchema } from "~/lib/schemas/studio";
import { supabaseContext } from "~/lib/session.server";
import { checkFiles, publish, type Release, type UploadKind } from "./publish.server";
import type { Route } from "./+types/upload";

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

const uploadPath = (kind: UploadKind) => `/dashboard/artist/upload?type=${kind}`;

export function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  return { kind: kindFrom(new URL(request.url)) };
}

/**
 * Publishing with the files in the form (a multipart POST: how the form works without JavaScript).
 * Fields and files are all checked first, so every message shows at once next to its field.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const kind = kindFrom(new URL(request.url));
  const formData = await request.formData();
  const artwork = nonEmptyFile(formData.get("artwork"));
  const audio = formData
    .getAll("audio")
    .map(nonEmptyFile)
    .filter((file) => file !== null);
  const files = await checkFiles(kind, artwork, audio);
  const fileErrors = files.errors;

  const submission = readRelease(kind, formData);
  if (!submission.success || !files.artwork || Object.keys(fileErrors).length > 0) {
    const reply: FormReply = submission.success ? { fieldErrors: {}, formError: null, values: submission.values } : submission.reply;
    return replyWith({ ...reply, fieldErrors: { ...reply.fieldErrors, ...fileErrors } }, 400);
  }
  const problem = await publish(context.get(supabaseContext), artist.id, submission.release, files.artwork, files.audio);
  if (problem) return replyWith(formError(problem, submission.values), 400);
  throw redirect("/dashboard/artist/tracks", 303);
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

function nonEmptyFile(value: FormDataEntryValue | null): File | null {
  return value instanceof File && value.size > 0 ? value : null;
}

export default function Upload({ loaderData, actionData }: Route.ComponentProps) {
  const { kind } = loaderData;
  const form = formFields(actionData);
  const fieldErrors: FieldErrors = actionData?.fieldErrors ?? {};
  return (
    <>
      <StudioHeader title="Upload Content">
        Publish a single, an album or merchandise. Fans can buy it as soon as it is released.
      </StudioHeader>
      <PillNav
        label="What to upload"
        className="mb-6"
        items={kinds.map((entry) => ({ to: uploadPath(entry.kind), label: entry.label, current: entry.kind === kind }))}
      />
      <Card className="max-w-2xl">
        <Form method="post" action={uploadPath(kind)} encType="multipart/form-data" noValidate className="grid gap-5">
          <FormAlert>{form.formError}</FormAlert>
          {actionData && Object.keys(fieldErrors).length > 0 ? (
            <p className="text-sm text-ink-muted">
              For your safety, files are never kept after a refused upload: please choose them again.
            </p>
          ) : null}
          {kind === "merch" ? (
            <>
              <Field label="Title" name="title" required defaultValue={form.text("title")} error={form.error("title")} />
              <PriceField value={form.text("price")} error={form.error("price")} />
              <Field
                label="Description"
                name="description"
                required
                defaultValue={form.text("description")}
                error={form.error("description")}
              />
            </>
          ) : (
            <>
              {kind === "album" ? (
                <Field
                  label="Album title"
                  name="albumTitle"
                  required
                  defaultValue={form.text("albumTitle")}
                  error={form.error("albumTitle")}
                />
              ) : null}
              <TrackDetailsFields
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
                formats={`${audioFiles.formats}.${kind === "album" ? " Tracks are numbered in the order you choose them; each takes its title from its file name, which you can change afterwards." : ""}`}
                error={form.error("audio")}
              />
            </>
          )}
          <FilePicker
            name="artwork"
            label={kind === "merch" ? "Product image" : "Artwork"}
            accept={imageFiles.accept}
            formats={`${imageFiles.formats}; square, at least 400 × 400 px, looks best.`}
            error={form.error("artwork")}
          />
          <SubmitButton action="/dashboard/artist/upload" pendingLabel="Publishing...">
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
