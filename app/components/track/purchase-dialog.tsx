import { Suspense, useImperativeHandle, useRef, useState, type RefObject } from "react";
import { Button, LinkButton } from "~/components/ui/button";
import type { DialogHandle } from "~/components/ui/dialog";
import { onDemand } from "~/lib/ui/on-demand";
import { useHydrated } from "~/lib/ui/use-hydrated";
import type { CompletePurchaseProps } from "./complete-purchase";

export type { ForSale } from "./complete-purchase";

const loadDialog = () => import("./complete-purchase");

/**
 * The dialog's code. The server renders it at once (a `?buy=` address opens it without JavaScript); the
 * browser fetches it the first time it is wanted, since most visitors of a page never buy, and the page's
 * own JavaScript stays within its budget.
 */
const CompletePurchase = import.meta.env.SSR
  ? (await loadDialog()).CompletePurchase
  : onDemand(async () => (await loadDialog()).CompletePurchase, openedByTheServer);

/** This page with the dialog asked for in its address (`?buy=1`, or the merch item's id it names already). */
function openedByTheServer() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has("buy")) url.searchParams.set("buy", "1");
  return url.href;
}

/**
 * 'Complete Purchase' (complete-purchase.tsx), on a page: rendered where the address asks for it (`open`),
 * and from the first time a control shows it (`ref.show()`), which loads it if need be. Once loaded it
 * stays, and each later show opens it at once.
 */
export function PurchaseDialog({ ref, open, onClose, ...props }: CompletePurchaseProps) {
  const dialog = useRef<DialogHandle>(null);
  const [kept, setKept] = useState(false);
  // Shown before it was loaded: open as it mounts, until it closes.
  const [opening, setOpening] = useState(false);
  useImperativeHandle(ref, () => ({
    show() {
      if (dialog.current) return dialog.current.show();
      setKept(true);
      setOpening(true);
    },
  }));
  return (
    <Suspense fallback={null}>
      {open || kept ? (
        <CompletePurchase
          ref={dialog}
          open={open || opening}
          onClose={() => {
            setOpening(false);
            onClose();
          }}
          {...props}
        />
      ) : null}
    </Suspense>
  );
}

/**
 * Buy Now beside the dialog it opens: a button once the page runs its scripts (pointing at it or focusing
 * it fetches the dialog, so it opens at once); before, a link to the same page with `?buy=1`, for which the
 * server renders the dialog open.
 */
export function BuyNowButton({ label, path, dialog }: { label: string; path: string; dialog: RefObject<DialogHandle | null> }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <Button size="lg" onPointerEnter={() => void loadDialog()} onFocus={() => void loadDialog()} onClick={() => dialog.current?.show()}>
      {label}
    </Button>
  ) : (
    <LinkButton size="lg" to={`${path}?buy=1`} preventScrollReset>
      {label}
    </LinkButton>
  );
}
