import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * Enhances a native `<details>` menu: it closes when the page changes, on Escape (giving focus back to its
 * summary) and when a click lands outside it, and opens upward where it would run past the bottom of the
 * window or under the player bar (and there is room above). Without JavaScript the disclosure still opens
 * and closes. Its contents may grow once open (a track menu draws the user's playlists then), so where it
 * opens is decided again whenever its size changes.
 */
export function useDisclosure() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const menu = ref.current;
      if (event.key === "Escape" && menu?.open) closeDisclosure(menu);
    }
    function onPointerDown(event: PointerEvent) {
      const menu = ref.current;
      if (menu?.open && !menu.contains(event.target as Node)) menu.open = false;
    }
    // Upward where the panel, opened downward, would end past the window's bottom or under the player bar
    // and there is room above. Judged by where it would end downward, so an open menu never flips to and fro.
    function place() {
      const menu = ref.current;
      const panel = menu?.querySelector(":scope > :not(summary)");
      if (!menu || !panel || !menu.open) return;
      const limit = document.querySelector("[data-player-bar]")?.getBoundingClientRect().top ?? window.innerHeight;
      const { top, bottom } = menu.getBoundingClientRect();
      const { height } = panel.getBoundingClientRect();
      const marginTop = Number.parseFloat(getComputedStyle(panel).marginTop) || 4;
      if (bottom + marginTop + height > limit && top - height > 0) menu.dataset.opensUp = "";
      else delete menu.dataset.opensUp;
    }
    const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(place);
    function onToggle() {
      const menu = ref.current;
      if (!menu) return;
      const panel = menu.querySelector(":scope > :not(summary)");
      resized?.disconnect();
      if (!menu.open || !panel) {
        delete menu.dataset.opensUp;
        return;
      }
      place();
      resized?.observe(panel);
    }
    const menu = ref.current;
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    menu?.addEventListener("toggle", onToggle);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
      menu?.removeEventListener("toggle", onToggle);
      resized?.disconnect();
    };
  }, []);

  return ref;
}

/** Closes a disclosure menu and gives focus back to its summary (after a choice in it, or Escape). */
export function closeDisclosure(menu: HTMLDetailsElement | null) {
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
}
