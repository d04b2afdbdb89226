import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal dialog on the native `<dialog>` element: the browser moves focus in, traps it, closes on Escape
 * and returns focus to the control that opened it. Rendered with `open` on the server so it shows without
 * JavaScript (for example from a `?buy=1` link); once hydrated it is shown with `showModal()`.
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

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      open={open ? true : undefined}
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
