import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * Enhances a native `<details>` menu: it closes when the page changes, on Escape (giving focus back to its
 * summary) and when a click lands outside it, and opens upward where it would run past the bottom of the
 * window or under the player bar (and there is room above). Without JavaScript the disclosure still opens
 * and closes.
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
    function onToggle() {
      const menu = ref.current;
      if (!menu) return;
      delete menu.dataset.opensUp;
      const panel = menu.querySelector(":scope > :not(summary)");
      if (!menu.open || !panel) return;
      const bottom = document.querySelector("[data-player-bar]")?.getBoundingClientRect().top ?? window.innerHeight;
      const { height, bottom: panelBottom } = panel.getBoundingClientRect();
      if (panelBottom > bottom && menu.getBoundingClientRect().top - height > 0) menu.dataset.opensUp = "";
    }
    const menu = ref.current;
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    menu?.addEventListener("toggle", onToggle);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
      menu?.removeEventListener("toggle", onToggle);
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
