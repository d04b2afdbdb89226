import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { closeDisclosure, useDisclosure } from "~/components/ui/use-disclosure";
import { Icon } from "~/components/ui/icon";
import { addToPlaylistPath } from "~/lib/catalog/catalog";
import type { FormReply } from "~/lib/forms/forms";
import { player, type QueueTrack } from "~/lib/player";
import { useHydrated } from "~/lib/ui/use-hydrated";
import { itemClasses } from "./menu-item";
import { useOptionalUser } from "~/lib/session/use-user";

const noteMs = 2500;

// The user's playlists, drawn when a menu is first opened: list pages carry a menu per row, none of this.
const PlaylistChoices = lazy(() => import("./playlist-choices"));

/**
 * A track's "More options" (track rows, the track page, the queue): Play next and Add to queue, and Add
 * to playlist with the user's playlists and "New playlist...". A disclosure (`details`); Escape closes it.
 * The playlists are drawn only in an open menu, so a page of many rows carries none of them; without
 * JavaScript "Add to playlist..." leads to Your Playlists, where each one adds the track.
 */
export function TrackMenu({ track, inQueue = false }: { track: QueueTrack; inQueue?: boolean }) {
  const user = useOptionalUser();
  const menu = useDisclosure();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<FormReply>();
  const reply = fetcher.data;
  const message = reply?.notice ?? reply?.formError ?? Object.values(reply?.fieldErrors ?? {})[0] ?? null;
  // The note ("Added to …") shows a while, then leaves the next row's menu uncovered.
  const [faded, setFaded] = useState<FormReply | undefined>();
  useEffect(() => {
    if (!reply) return;
    const timer = setTimeout(() => setFaded(reply), noteMs);
    return () => clearTimeout(timer);
  }, [reply]);
  const noted = reply !== faded;

  const close = () => closeDisclosure(menu.current);

  if (inQueue && !user) return null;
  return (
    // A visitor's menu holds only what needs JavaScript.
    <div className={user ? "relative shrink-0" : "relative shrink-0 noscript:hidden"}>
      {/* Escape is taken here, before the queue view (which it would close) sees it. */}
      <details
        ref={menu}
        onToggle={(event) => setOpen(event.currentTarget.open)}
        onKeyDown={(event) => event.key === "Escape" && menu.current?.open && (event.preventDefault(), close())}
      >
        <summary
          aria-label={`More options for ${track.title}`}
          className="grid size-8 cursor-pointer list-none place-items-center rounded-full text-ink-muted hover:bg-stage-700 hover:text-ink [&::-webkit-details-marker]:hidden"
        >
          <Icon name="more" className="size-5" strokeWidth={3} />
        </summary>
        <div className="absolute right-0 z-50 mt-1 w-60 rounded-xl border border-stage-600 bg-stage-900 p-1 shadow-2xl shadow-black/60">
          {inQueue ? null : (
            <ul className="noscript:hidden">
              <li>
                <button type="button" className={itemClasses} onClick={() => (player.playNext(track), close())}>
                  Play next
                </button>
              </li>
              <li>
                <button type="button" className={itemClasses} onClick={() => (player.addToQueue(track), close())}>
                  Add to queue
                </button>
              </li>
            </ul>
          )}
          {user && !hydrated ? (
            <Link to={addToPlaylistPath(track.id)} className={itemClasses}>
              Add to playlist...
            </Link>
          ) : null}
          {/* In the queue, whose list scrolls, the choices scroll themselves into view once drawn. */}
          {user && hydrated && open ? (
            <Suspense fallback={null}>
              <PlaylistChoices track={track} fetcher={fetcher} onChosen={close} reveal={inQueue} />
            </Suspense>
          ) : null}
        </div>
      </details>
      {/* Always present, so screen readers announce what appears in it. */}
      <p role="status" className="absolute top-full right-0 z-40 mt-1 w-max max-w-60 text-right text-xs">
        {message && noted && fetcher.state === "idle" ? (
          <span className="rounded-md bg-stage-800 px-2 py-1 text-ink">{message}</span>
        ) : null}
      </p>
    </div>
  );
}
