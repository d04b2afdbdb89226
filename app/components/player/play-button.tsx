import type { ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { player, type QueueTrack } from "~/lib/player";

/**
 * Plays a list in the player bar, in place of the queue: Play All (from the start) or a row's Play (from
 * that track on). It needs JavaScript, so without it there is none (the track pages play on their own).
 */
export function PlayAllButton({
  tracks,
  children = "Play All",
  label,
}: {
  tracks: QueueTrack[];
  children?: ReactNode;
  /** Its name where a page has several (a row's release): "Play Headlights & Static". */
  label?: string;
}) {
  if (tracks.length === 0) return null;
  return (
    <Button size="lg" onClick={() => player.playTracks(tracks)} className="noscript:hidden" aria-label={label}>
      <Icon name="play" className="size-5" />
      {children}
    </Button>
  );
}

/** A row's round Play: the list from this track on. */
export function PlayFromButton({ tracks, start, className }: { tracks: QueueTrack[]; start: number; className?: string }) {
  const track = tracks[start];
  if (!track) return null;
  return (
    <button
      type="button"
      onClick={() => player.playTracks(tracks, start)}
      aria-label={`Play ${track.title}`}
      className={`grid size-9 shrink-0 place-items-center rounded-full bg-stage-800 text-ink hover:bg-accent hover:text-accent-ink noscript:hidden ${className ?? ""}`}
    >
      <Icon name="play" className="ml-0.5 size-4" />
    </button>
  );
}
