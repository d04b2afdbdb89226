import { useEffect, useLayoutEffect, useRef, useState, type DragEvent } from "react";
import { Link } from "react-router";
import { Artwork } from "~/components/catalog/artist-image";
import { Icon, type IconName } from "~/components/ui/icon";
import { artistPath, trackPath } from "~/lib/catalog/catalog";
import { cx } from "~/lib/ui/cx";
import { player, usePlayer, type QueueTrack } from "~/lib/player";
import { repeatLabels } from "./repeat-labels";
import { TrackMenu } from "./track-menu";

type MoveDirection = "up" | "down";

/**
 * The queue, opened from the player bar: what plays now and what comes next. Tracks are played, moved
 * (dragged, or Move up / Move down from the keyboard), removed, and the whole queue cleared. Escape
 * closes it and focus goes back to the bar's Queue button. It sits on the bar, whatever the bar's height;
 * on phones, where the bar has no room for them, it holds Shuffle and Repeat.
 */
export default function QueuePanel({ onClose }: { onClose: () => void }) {
  const state = usePlayer((whole) => whole);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // A moved row is drawn anew: the key that moved it gets focus back in its new place.
  const focusAfterMove = useRef<{ index: number; direction: MoveDirection } | null>(null);

  useEffect(() => heading.current?.focus(), []);

  useLayoutEffect(() => {
    const moved = focusAfterMove.current;
    if (!moved) return;
    focusAfterMove.current = null;
    const row = list.current?.children[moved.index];
    // At the top or the bottom its own direction is disabled: the other one takes focus.
    const button =
      row?.querySelector<HTMLButtonElement>(`[data-move="${moved.direction}"]:enabled`) ??
      row?.querySelector<HTMLButtonElement>("[data-move]:enabled");
    button?.focus();
  }, [state.tracks]);

  function move(from: number, to: number, title: string, direction?: MoveDirection) {
    if (direction) focusAfterMove.current = { index: to, direction };
    player.move(from, to);
    setAnnouncement(`${title} moved to position ${to + 1} of ${state.tracks.length}`);
  }

  // The bar goes with the queue: focus goes to the page's content, not to nowhere.
  function clear() {
    player.clear();
    document.getElementById("main")?.focus();
  }

  // The row goes with its button: focus stays in the queue, on its heading, and the change is said.
  function remove(index: number, title: string) {
    player.remove(index);
    setAnnouncement(`${title} removed from the queue`);
    heading.current?.focus();
  }

  function drop(event: DragEvent, to: number) {
    event.preventDefault();
    if (dragged !== null) move(dragged, to, state.tracks[dragged]!.title);
    setDragged(null);
  }

  return (
    <section
      aria-labelledby="queue-heading"
      onKeyDown={(event) => event.key === "Escape" && !event.defaultPrevented && onClose()}
      className="absolute right-0 bottom-full z-40 flex max-h-[60vh] w-full flex-col rounded-t-2xl border border-stage-700 bg-stage-900 shadow-2xl shadow-black/60 sm:right-4 sm:mb-2 sm:w-96 sm:rounded-2xl"
    >
      <div className="flex items-center justify-between gap-2 border-b border-stage-700 px-4 py-3">
        <h2 id="queue-heading" ref={heading} tabIndex={-1} className="text-lg font-bold focus:outline-none">
          Queue
        </h2>
        <div className="flex items-center gap-1">
          <RowButton icon="shuffle" label="Shuffle" pressed={state.shuffle} onClick={player.toggleShuffle} className="sm:hidden" />
          <RowButton
            icon="repeat"
            label={repeatLabels[state.repeat]}
            active={state.repeat !== "off"}
            onClick={player.cycleRepeat}
            className="sm:hidden"
          />
          <button
            type="button"
            onClick={clear}
            className="rounded-full px-3 py-1.5 text-sm text-ink-muted hover:bg-stage-800 hover:text-ink"
          >
            Clear queue
          </button>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close queue"
            className="grid size-9 place-items-center rounded-full hover:bg-stage-800"
          >
            <Icon name="close" className="size-5" />
          </button>
        </div>
      </div>
      <ol ref={list} aria-label="Tracks in the queue" className="overflow-y-auto p-2">
        {state.tracks.map((track, index) => (
          <li
            key={`${track.id}-${index}`}
            draggable
            onDragStart={() => setDragged(index)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => drop(event, index)}
            onDragEnd={() => setDragged(null)}
            aria-current={index === state.index ? "true" : undefined}
            className={cx(
              "flex items-center gap-2 rounded-xl p-1.5",
              index === state.index ? "bg-stage-800" : "hover:bg-stage-850",
              dragged === index && "opacity-50",
            )}
          >
            <QueueRow track={track} current={index === state.index} onPlay={() => player.playAt(index)} />
            <RowButton
              icon="up"
              label={`Move ${track.title} up`}
              disabled={index === 0}
              move="up"
              onClick={() => move(index, index - 1, track.title, "up")}
            />
            <RowButton
              icon="down"
              label={`Move ${track.title} down`}
              disabled={index === state.tracks.length - 1}
              move="down"
              onClick={() => move(index, index + 1, track.title, "down")}
            />
            <TrackMenu track={track} inQueue />
            <RowButton icon="close" label={`Remove ${track.title} from the queue`} onClick={() => remove(index, track.title)} />
          </li>
        ))}
      </ol>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}

function QueueRow({ track, current, onPlay }: { track: QueueTrack; current: boolean; onPlay: () => void }) {
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2">
      <button type="button" onClick={onPlay} aria-label={`Play ${track.title}`} className="group relative shrink-0 rounded-md">
        <Artwork src={track.artworkUrl} className="size-10 rounded-md" />
        <span className="absolute inset-0 grid place-items-center rounded-md bg-black/50 opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100">
          <Icon name="play" className="size-4 text-ink" />
        </span>
      </button>
      <div className="min-w-0">
        <Link
          to={trackPath(track.id)}
          className={cx("block truncate text-sm leading-6 font-semibold hover:underline", current ? "text-accent" : "text-ink")}
        >
          {current ? <span className="sr-only">Now playing: </span> : null}
          {track.title}
        </Link>
        <Link to={artistPath(track.artistId)} className="block truncate text-xs leading-6 text-ink-muted hover:text-ink hover:underline">
          {track.artistName}
        </Link>
      </div>
    </div>
  );
}

function RowButton({
  icon,
  label,
  onClick,
  disabled,
  pressed,
  active,
  move,
  className,
}: {
  icon: IconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  /** Shown as on, where the name says the state itself (Repeat: all). */
  active?: boolean;
  move?: MoveDirection;
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      aria-pressed={pressed}
      disabled={disabled}
      data-move={move}
      className={cx(
        "grid size-8 shrink-0 place-items-center rounded-full hover:bg-stage-700 hover:text-ink disabled:opacity-30",
        pressed || active ? "text-accent" : "text-ink-muted",
        className,
      )}
    >
      <Icon name={icon} className="size-4" />
    </button>
  );
}
