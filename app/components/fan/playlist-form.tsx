import { Artwork } from "~/components/catalog/artist-image";
import { Field, TextareaField } from "~/components/ui/field";
import { cx } from "~/lib/ui/cx";
import type { formFields } from "~/lib/forms/forms";
import { playlistLimits } from "~/lib/constants";

/** A playlist's name, description and visibility: the fields of making one and of editing it. */
export function PlaylistFields({
  form,
  stored = { name: "", description: "", isPublic: false },
}: {
  form: ReturnType<typeof formFields>;
  stored?: { name: string; description: string; isPublic: boolean };
}) {
  const visibility = form.text("visibility") || (stored.isPublic ? "public" : "private");
  return (
    <>
      <Field label="Playlist name" required maxLength={playlistLimits.name} {...form.field("name", stored.name)} />
      <TextareaField
        label="Description (optional)"
        maxLength={playlistLimits.description}
        className="[&_textarea]:min-h-20"
        {...form.field("description", stored.description)}
      />
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-ink">Who can see it</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-ink-muted">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="visibility"
              value="private"
              defaultChecked={visibility !== "public"}
              className="size-4 accent-accent"
            />
            Private: only you
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="visibility"
              value="public"
              defaultChecked={visibility === "public"}
              className="size-4 accent-accent"
            />
            Public: anyone with the link
          </label>
        </div>
      </fieldset>
    </>
  );
}

/** A playlist's cover: the small artwork of its first four tracks as a mosaic (one fills it; none, the fallback). */
export function PlaylistArtwork({ artwork, className }: { artwork: (string | null)[]; className?: string }) {
  if (artwork.length < 4) return <Artwork src={artwork[0] ?? null} className={cx("shrink-0 rounded-2xl", className)} />;
  return (
    <div aria-hidden="true" className={cx("grid shrink-0 grid-cols-2 overflow-hidden rounded-2xl bg-stage-800", className)}>
      {artwork.slice(0, 4).map((src, index) => (
        <Artwork key={index} src={src} className="size-full" />
      ))}
    </div>
  );
}
