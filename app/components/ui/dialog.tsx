import { useEffect, useId, useRef, type ReactNode } from "react";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A modal dialog on the native `<dialog>` element: the browser moves focus in, traps it, closes on Escape
 * and returns focus to the control that opened it. Rendered with `open` on the server so it shows without
 * JavaScript (for example from a `?buy=1` link); once hydrated the `open` attribute is left to the browser
 * and the dialog is shown with `showModal()` (re-opening a dialog React marked open would queue a close
 * event that shuts it again).
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hydrated = useHydrated();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !hydrated) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open, hydrated]);

  return (
    <dialog
      ref={ref}
      open={open && !hydrated ? true : undefined}
      aria-labelledby={titleId}
      onClose={onClose}
      className="fixed inset-0 m-auto w-[min(32rem,calc(100%-2rem))] rounded-2xl border border-stage-600 bg-stage-850 p-6 text-ink shadow-2xl backdrop:bg-black/70"
    >
      <h2 id={titleId} className="mb-4 text-xl font-semibold">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
