import { useEffect, useEffectEvent, useId, useImperativeHandle, useRef, type ReactNode, type Ref } from "react";
import { useHydrated } from "~/lib/ui/use-hydrated";

/** What a page holds to open a dialog from a control. */
export type DialogHandle = { show: () => void };

/**
 * A modal dialog on the native `<dialog>` element: the browser moves focus in, traps it, closes on Escape
 * and returns focus to the control that opened it.
 *
 * `open` says the address asks for it (a no-JavaScript `?buy=1` link): the server renders it with the
 * `open` attribute, and once hydrated it is shown with `showModal()`. Controls open it through `ref.show()`
 * rather than through React state: the browser closes a dialog at once but fires its `close` event a task
 * later, so a state flag would still read "open" when a quick Escape-then-Enter asks to open it again, and
 * the second open would be lost. For the same reason a `close` event that arrives after the dialog was
 * re-opened is ignored.
 */
export function Dialog({
  ref,
  open,
  onClose,
  title,
  children,
}: {
  ref?: Ref<DialogHandle>;
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hydrated = useHydrated();

  useImperativeHandle(ref, () => ({
    show() {
      if (!dialogRef.current?.open) dialogRef.current?.showModal();
    },
  }));

  // Sent open by the server and closed before the page ran its scripts (its Close is a plain dialog
  // form, which works without them): closed it stays, and the page is told, rather than opened again.
  const closedBeforeScripts = useRef(false);
  const closedAlready = useEffectEvent(onClose);
  useEffect(() => {
    closedBeforeScripts.current = open && !hydrated && dialogRef.current?.open === false;
    // Once, as the page's scripts first find the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !hydrated) return;
    if (closedBeforeScripts.current) {
      closedBeforeScripts.current = false;
      if (open) closedAlready();
      return;
    }
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open, hydrated]);

  return (
    <dialog
      ref={dialogRef}
      // Re-opening a dialog React marked open would queue a close event that shuts it again, so after
      // hydration the attribute is left to the browser.
      open={open && !hydrated ? true : undefined}
      aria-labelledby={titleId}
      onClose={() => {
        if (!dialogRef.current?.open) onClose();
      }}
      className="fixed inset-0 m-auto w-[min(32rem,calc(100%-2rem))] rounded-2xl border border-stage-600 bg-stage-850 p-6 text-ink shadow-2xl backdrop:bg-black/70"
    >
      <h2 id={titleId} className="mb-4 text-xl font-semibold">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
