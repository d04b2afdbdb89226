import { lazy, Suspense, useEffect } from "react";
import { player, usePlayer } from "~/lib/player";

const PlayerControls = lazy(() => import("./player-controls"));

/** Keys typed into these are theirs: Space there is not the player's. */
const fieldSelector = "input, textarea, select, button, a, summary, [role=slider], [role=menuitem], [contenteditable]";

/**
 * The player bar at the foot of every page: it holds the site's one audio element and stays mounted
 * while the pages change, so the music never stops for a link. Its controls show, and load, once
 * something is queued.
 */
export function PlayerBar() {
  const queued = usePlayer((state) => state.index >= 0);

  useEffect(() => player.resume(), []);

  // Space plays and pauses anywhere on the page, unless focus is in a field or on a control of its own.
  useEffect(() => {
    function toggleWithSpace(event: KeyboardEvent) {
      if (event.key !== " " || event.defaultPrevented || event.repeat || !player.isQueued()) return;
      if (event.target instanceof Element && event.target.closest(fieldSelector)) return;
      event.preventDefault();
      player.toggle();
    }
    document.addEventListener("keydown", toggleWithSpace);
    return () => document.removeEventListener("keydown", toggleWithSpace);
  }, []);

  return (
    <>
      {/* The audio element is the bar's even while it hides, so a reload's queue can be resumed. */}
      <audio data-site-player preload="none" hidden />
      {queued ? (
        // The page makes room for the bar at its foot (`.room-for-player`, on the layout's content column,
        // which the sidebar's column runs beside down to the bar).
        <Suspense fallback={null}>
          <PlayerControls />
        </Suspense>
      ) : null}
    </>
  );
}
