import { LinkButton } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import type { DownloadFormat } from "~/lib/media/downloads";

/** The formats on offer, as the loader names them (`downloadChoices`): the page carries no registry of formats. */
export type DownloadChoice = { format: DownloadFormat; label: string };

/**
 * Download in each format on offer for what the reader owns (Purchased, a track's or an album's page):
 * links to the file, saved as an attachment while the page stays (or, for a format still being made, to
 * the page preparing it), the same with JavaScript and without.
 */
export function DownloadLinks({ path, title, album, choices }: { path: string; title: string; album: boolean; choices: DownloadChoice[] }) {
  return (
    <div role="group" aria-label={`Download ${title}`} className="mt-3 flex flex-wrap items-center gap-2">
      <span className="mr-1 inline-flex items-center gap-1.5 text-sm font-semibold text-ink-muted">
        <Icon name="download" className="size-4" />
        {album ? "Download (zip)" : "Download"}
      </span>
      {choices.map((choice) => (
        <LinkButton
          key={choice.format}
          to={choice.format === "original" ? path : `${path}${path.includes("?") ? "&" : "?"}format=${choice.format}`}
          reloadDocument
          variant="secondary"
          aria-label={`Download ${title} ${choice.format === "original" ? "as uploaded" : `as ${choice.label}`}`}
        >
          {choice.label}
        </LinkButton>
      ))}
    </div>
  );
}
