import { Form, href, redirect, useRevalidator } from "react-router";
import * as v from "valibot";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FilePicker } from "~/components/studio/file-picker";
import { UploadList, useUploads } from "~/components/studio/upload-list";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Button, LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { inputClasses } from "~/components/ui/field";
import { PillNav } from "~/components/ui/pill-nav";
import { cx } from "~/lib/ui/cx";
import { readOrThrow } from "~/lib/backend/backend.server";
import { storageErrorMessage } from "~/lib/backend/errors";
import { formatDate } from "~/lib/format";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireArtist } from "~/lib/session/guards.server";
import { imageFiles, judgeImage, storagePath, onePicture } from "~/lib/media/media-files";
import { pageMeta } from "~/lib/sharing/meta";
import { useHydrated } from "~/lib/ui/use-hydrated";
import { RemoveMediaSchema } from "~/lib/schemas/studio";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/media";

export const meta = () => pageMeta("Media Manager", "Your artwork files: upload, find and remove them.");

const mediaPath = href("/dashboard/artist/media");
/** A page of the artist's files; the search narrows it. */
const listLimit = 100;
const dateLocale = "en-US";

/** What Storage's list answers for each file (its metadata as Storage records it on upload). */
const MediaListSchema = v.array(
  v.object({
    name: v.string(),
    id: v.nullable(v.string()),
    created_at: v.nullable(v.string()),
    metadata: v.nullable(v.object({ size: v.optional(v.number()), mimetype: v.optional(v.string()) })),
  }),
);

function viewFrom(url: URL): "grid" | "list" {
  return url.searchParams.get("view") === "list" ? "list" : "grid";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim();
  const artwork = context.get(supabaseContext).storage.from("artwork");
  const listed = readOrThrow(
    await artwork.list(artist.id, { limit: listLimit, search: q, sortBy: { column: "created_at", order: "desc" } }),
    { what: "artist's media files", schema: MediaListSchema, describe: storageErrorMessage },
  );
  const files = listed
    .filter((file) => file.id !== null)
    .map((file) => ({
      path: `${artist.id}/${file.name}`,
      name: file.name,
      url: artwork.getPublicUrl(`${artist.id}/${file.name}`).data.publicUrl,
      type: file.metadata?.mimetype ?? "",
      size: file.metadata?.size ?? 0,
      createdAt: file.created_at,
    }));
  return { files, q, view: viewFrom(url), removing: url.searchParams.get("remove"), artistId: artist.id };
}

export async function action({ request, context }: Route.ActionArgs) {
  const artist = requireArtist(request, context);
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request, { files: { file: onePicture } });
  // Back to the same view and search, the confirmation closed.
  const url = new URL(request.url);
  url.searchParams.delete("remove");
  const back = `${mediaPath}${url.search}`;

  if (formData.get("intent") === "remove") {
    const submission = parseForm(RemoveMediaSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    // Storage policies let an artist remove files in their own folder only; the name is checked too.
    const path = `${artist.id}/${submission.value.name}`;
    const { data, error } = await supabase.storage.from("artwork").remove([path]);
    if (error) {
      console.error("removing a media file failed", error);
      return replyWith(formError(storageErrorMessage(error), submission.values), 400);
    }
    if (data.length === 0) return replyWith(formError("This file no longer exists", submission.values), 404);
    throw redirect(back, 303);
  }

  const file = formData.get("file");
  if (!(file instanceof File) || file.size === 0)
    return replyWith({ fieldErrors: { file: "Please choose an image" }, formError: null, values: {} }, 400);
  const { type, problem } = await judgeImage(file);
  if (!type) return replyWith({ fieldErrors: { file: problem }, formError: null, values: {} }, 400);
  const { error } = await supabase.storage
    .from("artwork")
    .upload(storagePath(artist.id, type.extension), file, { contentType: type.mime, cacheControl: "3600", upsert: false });
  if (error) {
    console.error("uploading a media file failed", error);
    return replyWith(formError(storageErrorMessage(error)), 400);
  }
  throw redirect(back, 303);
}

const sizeLabel = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export default function MediaManager({ loaderData, actionData }: Route.ComponentProps) {
  const { files, q, view, removing, artistId } = loaderData;
  const form = formFields(actionData);
  // With JavaScript an image uploads as soon as it is chosen or dropped, with its bar; the list then reloads.
  const live = useHydrated();
  const revalidator = useRevalidator();
  const uploads = useUploads("artwork", artistId, { onStored: () => void revalidator.revalidate() });
  const address = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams({ ...(q ? { q } : {}), ...(view === "list" ? { view } : {}) });
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) params.delete(name);
      else params.set(name, value);
    }
    const search = params.toString();
    return search ? `${mediaPath}?${search}` : mediaPath;
  };
  const toRemove = files.find((file) => file.name === removing);
  return (
    <>
      <DashboardHeader title="Media Manager">
        Your artwork and product images. Anything you upload here can be used for a release.
      </DashboardHeader>

      <Card className="mb-8 max-w-2xl">
        <Form method="post" action={address({ remove: null })} encType="multipart/form-data" noValidate className="grid gap-4">
          <input type="hidden" name="intent" value="upload" />
          <FormAlert>{form.formError}</FormAlert>
          <FilePicker
            name="file"
            label="Upload an image"
            accept={imageFiles.accept}
            formats={imageFiles.formats}
            error={form.error("file")}
            multiple={live}
            onFiles={live ? uploads.add : undefined}
          >
            {live ? <UploadList uploads={uploads} kind="artwork" /> : null}
          </FilePicker>
          {live ? null : (
            <SubmitButton action={mediaPath} pendingLabel="Uploading...">
              Upload
            </SubmitButton>
          )}
        </Form>
      </Card>

      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <Form method="get" action={mediaPath} role="search" aria-label="Search your media" className="flex gap-2">
          {view === "list" ? <input type="hidden" name="view" value="list" /> : null}
          <label htmlFor="media-search" className="sr-only">
            Search your files
          </label>
          <input
            id="media-search"
            name="q"
            type="search"
            defaultValue={q}
            placeholder="Search by file name"
            className={cx(inputClasses, "w-64")}
          />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </Form>
        <PillNav
          label="View"
          items={(["grid", "list"] as const).map((option) => ({
            to: address({ view: option === "list" ? "list" : null, remove: null }),
            label: option === "grid" ? "Grid" : "List",
            current: option === view,
          }))}
        />
      </div>

      {toRemove ? (
        <Card role="region" aria-labelledby="remove-heading" className="mb-6 border-danger/40">
          <h2 id="remove-heading" className="text-lg font-semibold">
            Remove {toRemove.name}?
          </h2>
          <p className="mt-1 text-sm text-ink-muted">Releases that use this image will show the placeholder artwork instead.</p>
          <Form method="post" action={address({})} noValidate className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="name" value={toRemove.name} />
            <CheckboxField name="confirm" label="Yes, remove this file for good." error={form.error("confirm")} />
            <div className="flex gap-3">
              <Button type="submit" variant="danger">
                Remove file
              </Button>
              <LinkButton to={address({ remove: null })} variant="secondary">
                Cancel
              </LinkButton>
            </div>
          </Form>
        </Card>
      ) : null}

      {files.length === 0 ? (
        <EmptyState title={q ? "No files match your search" : "No media yet"}>Images you upload for your releases show here.</EmptyState>
      ) : (
        <ul className={view === "grid" ? "grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" : "grid gap-2"}>
          {files.map((file) => (
            <li
              key={file.path}
              className={cx("rounded-2xl border border-stage-700 bg-stage-850 p-3", view === "list" && "flex items-center gap-4")}
            >
              <img
                src={file.url}
                alt={`Preview of ${file.name}`}
                loading="lazy"
                width={view === "grid" ? 200 : 56}
                height={view === "grid" ? 200 : 56}
                className={cx("rounded-lg bg-stage-800 object-cover", view === "grid" ? "aspect-square w-full" : "size-14 shrink-0")}
              />
              <div className={cx("min-w-0", view === "grid" ? "mt-2" : "flex-1")}>
                <p className="truncate font-semibold text-ink">{file.name}</p>
                <p className="text-sm text-ink-muted">
                  {file.type.replace("image/", "").toUpperCase()} · {sizeLabel(file.size)}
                  {file.createdAt ? (
                    <>
                      {" "}
                      · <time dateTime={file.createdAt}>{formatDate(file.createdAt.slice(0, 10), dateLocale)}</time>
                    </>
                  ) : null}
                </p>
              </div>
              <LinkButton
                to={address({ remove: file.name })}
                preventScrollReset
                variant="ghost"
                size="sm"
                aria-label={`Remove ${file.name}`}
                className={view === "grid" ? "mt-2" : "shrink-0"}
              >
                Remove
              </LinkButton>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
