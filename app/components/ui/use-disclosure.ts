import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * Enhances a native `<details>` menu: it closes when the page changes, on Escape (giving focus back to its
 * summary) and when a click lands outside it. Without JavaScript the disclosure still opens and closes.
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
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
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
