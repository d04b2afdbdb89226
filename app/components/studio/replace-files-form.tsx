import { Form } from "react-router";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { FilePicker } from "~/components/studio/file-picker";
import { UploadList, useHeldForUploads, useUploads } from "~/components/studio/upload-list";
import { Card } from "~/components/ui/card";
import type { formFields } from "~/lib/forms/forms";
import { audioFiles, imageFiles } from "~/lib/media/media-files";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * A published track's new audio, its release's new artwork, or both: a form that works as the upload form
 * does (with JavaScript the files upload as they are chosen and the form names them; without, they go with
 * the POST), posted with `intent=replace-files`.
 */
export function ReplaceFilesForm({
  action,
  artistId,
  title,
  albumTitle,
  artworkUrl,
  audioNow,
  form,
}: {
  action: string;
  artistId: string;
  title: string;
  /** An album track's album, whose tracks all take the new artwork; null for a single. */
  albumTitle: string | null;
  artworkUrl: string | null;
  /** What the track plays now, e.g. 'WAV · 3:12', or that it has no audio. */
  audioNow: string;
  form: ReturnType<typeof formFields>;
}) {
  const live = useHydrated();
  const tracks = useUploads("tracks", artistId);
  const artwork = useUploads("artwork", artistId, { withSmall: true });
  const held = useHeldForUploads([tracks, artwork]);
  const chooseOne = (list: typeof tracks) => (files: File[]) => {
    list.clear();
    list.add(files.slice(0, 1));
  };
  return (
    <Card className="mt-8 max-w-2xl">
      <h2 className="text-xl font-semibold">Audio and artwork</h2>
      <p className="mt-1 text-sm text-ink-muted">
        Buyers download the new audio from then on: its stream and download files are made again.
      </p>
      <div className="mt-4 flex items-center gap-4">
        {artworkUrl ? (
          <img
            src={artworkUrl}
            alt={`Artwork of ${title} now`}
            width={80}
            height={80}
            className="size-20 shrink-0 rounded-md object-cover"
          />
        ) : null}
        <p className="text-sm">
          <span className="text-ink-muted">Audio now:</span> {audioNow}
        </p>
      </div>
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        noValidate
        className="mt-4 grid gap-5"
        onSubmit={live ? held.hold : undefined}
      >
        <input type="hidden" name="intent" value="replace-files" />
        <FormAlert>{held.message ?? form.formError}</FormAlert>
        <FilePicker
          name="audio"
          label="New audio"
          accept={audioFiles.accept}
          formats={audioFiles.formats}
          error={form.error("audio")}
          onFiles={live ? chooseOne(tracks) : undefined}
        >
          {live ? <UploadList uploads={tracks} kind="track" /> : null}
        </FilePicker>
        <FilePicker
          name="artwork"
          label="New artwork"
          accept={imageFiles.accept}
          formats={`${imageFiles.formats}; square, at least 400 × 400 px, looks best.${albumTitle ? ` Every track of ${albumTitle} takes it.` : ""}`}
          error={form.error("artwork")}
          onFiles={live ? chooseOne(artwork) : undefined}
        >
          {live ? <UploadList uploads={artwork} kind="artwork" /> : null}
        </FilePicker>
        {live ? (
          <input type="hidden" name="uploadedArtwork" value="" disabled={artwork.items.some((item) => item.state === "complete")} />
        ) : null}
        <SubmitButton action={action} intent="replace-files" pendingLabel="Replacing...">
          Replace files
        </SubmitButton>
      </Form>
    </Card>
  );
}
