import type { ReactNode } from "react";
import { Link } from "react-router";
import { Artwork } from "~/components/catalog/artist-image";
import { PlayAllButton, PlayFromButton } from "~/components/player/play-button";
import { TrackMenu } from "~/components/player/track-menu";
import { artistPath, trackPath } from "~/lib/catalog/catalog";
import { queueTrack, type QueueTrack } from "~/lib/player";
import type { TrackSummary } from "~/lib/schemas/fan-data";

/** A track row's title and artist, each a link (tall enough to tap one and not the other). */
export function TrackTitle({ track }: { track: QueueTrack }) {
  return (
    <div className="min-w-0 flex-1">
      <Link to={trackPath(track.id)} className="block truncate leading-6 font-semibold text-ink hover:text-accent hover:underline">
        {track.title}
      </Link>
      <Link to={artistPath(track.artistId)} className="block truncate text-sm leading-6 text-ink-muted hover:text-ink hover:underline">
        {track.artistName}
      </Link>
    </div>
  );
}

type TrackListItem = { key: string; track: TrackSummary; detail: ReactNode };

/**
 * The fan's lists of tracks (purchased, recently played, liked): artwork, title, artist, and a detail;
 * each row plays the list from there and has the track's menu, and Play All plays the whole list.
 */
export function TrackList({ items, label }: { items: TrackListItem[]; label: string }) {
  const queue = items.map(({ track }) => queueTrack(track));
  return (
    <>
      <div className="mb-4">
        <PlayAllButton tracks={queue} />
      </div>
      <ul aria-label={label} className="divide-y divide-stage-700 rounded-2xl border border-stage-700 bg-stage-850">
        {items.map(({ key, track, detail }, index) => (
          <li key={key} className="flex items-center gap-4 p-3">
            <PlayFromButton tracks={queue} start={index} />
            <Artwork src={track.artwork_small_url ?? track.artwork_url} className="size-14 shrink-0 rounded-lg" />
            <TrackTitle track={queue[index]!} />
            <div className="shrink-0 text-right text-sm text-ink-muted tabular-nums">{detail}</div>
            <TrackMenu track={queue[index]!} />
          </li>
        ))}
      </ul>
    </>
  );
}
