import { useId } from "react";
import { Form, useFetcher } from "react-router";
import { SubmitButton } from "~/components/form-controls";
import { ProfileImage } from "~/components/catalog/artist-image";
import { FilePicker } from "~/components/studio/file-picker";
import { UploadList, useUploads } from "~/components/studio/upload-list";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { FormReply } from "~/lib/forms/forms";
import { imageFiles } from "~/lib/media/media-files";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * The profile picture, in a form of its own (an artist's or a fan's Edit Profile). With JavaScript, clicking
 * the avatar chooses a file too, and an image uploads the moment it is chosen, with its bar, and is then
 * saved; without, it is sent with the form. Remove takes it off the profile.
 */
export function ProfilePictureForm({
  userId,
  name,
  url,
  reply,
  path,
}: {
  userId: string;
  name: string;
  url: string | null;
  reply: FormReply | undefined;
  path: string;
}) {
  const inputId = useId();
  const live = useHydrated();
  const fetcher = useFetcher<FormReply>();
  const uploads = useUploads("artwork", userId, {
    onStored: (stored) => void fetcher.submit({ intent: "use-picture", path: stored }, { method: "post", action: path }),
  });
  const error = (fetcher.data ?? reply)?.fieldErrors.picture;
  return (
    <Card className="grid gap-4">
      <h2 className="text-lg font-semibold">Profile picture</h2>
      <div className="flex flex-wrap items-center gap-5">
        {/* A press on the avatar opens the picker too (with JavaScript): a shortcut for the pointer; the
            labelled file input below is the control, so the input keeps one label with its name. */}
        <div
          className={live ? "cursor-pointer rounded-full" : "rounded-full"}
          onClick={live ? () => document.getElementById(inputId)?.click() : undefined}
        >
          <ProfileImage name={name} src={url} alt={url ? "Your profile picture" : ""} className="size-24 rounded-full" eager />
        </div>
        {url ? (
          <Form method="post" action={path}>
            <Button type="submit" name="intent" value="remove-picture" variant="secondary">
              Remove picture
            </Button>
          </Form>
        ) : null}
      </div>
      <Form method="post" action={path} encType="multipart/form-data" noValidate className="grid gap-4">
        <input type="hidden" name="intent" value="picture" />
        <FilePicker
          id={inputId}
          name="picture"
          label={url ? "Choose a new picture" : "Choose a picture"}
          accept={imageFiles.accept}
          formats={`${imageFiles.formats}; ideally square and at least 400×400 pixels.`}
          error={error}
          onFiles={live ? (files) => uploads.add(files.slice(0, 1)) : undefined}
        >
          {live ? <UploadList uploads={uploads} kind="artwork" /> : null}
        </FilePicker>
        {live ? (
          <p role="status" className="text-sm text-ink-muted">
            {fetcher.state !== "idle" ? "Saving picture..." : (fetcher.data?.notice ?? "")}
          </p>
        ) : (
          <div className="max-w-xs">
            <SubmitButton action={path} pendingLabel="Uploading...">
              Upload picture
            </SubmitButton>
          </div>
        )}
      </Form>
    </Card>
  );
}
