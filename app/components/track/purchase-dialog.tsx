import type { Ref, RefObject } from "react";
import { Button, LinkButton } from "~/components/ui/button";
import { Dialog, type DialogHandle } from "~/components/ui/dialog";
import { formatPrice } from "~/lib/format";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * 'Complete Purchase': there is no checkout yet (spec section 1), so it shows what would be bought and
 * says so. Close is a `method="dialog"` form, which closes the dialog with or without JavaScript.
 */
export function PurchaseDialog({
  ref,
  open,
  onClose,
  title,
  artistName,
  artworkUrl,
  price,
  formats,
}: {
  ref?: Ref<DialogHandle>;
  open: boolean;
  onClose: () => void;
  title: string;
  artistName: string;
  artworkUrl: string;
  price: number;
  /** What the downloads are (`WAV as uploaded, MP3 320 kbps, FLAC`), stated before anyone pays; null when there is no audio. */
  formats: string | null;
}) {
  return (
    <Dialog ref={ref} open={open} onClose={onClose} title="Complete Purchase">
      <div className="flex items-center gap-4">
        <img src={artworkUrl} alt="" width={80} height={80} className="size-20 shrink-0 rounded-lg object-cover" />
        <div className="min-w-0">
          <p className="truncate font-semibold text-ink">{title}</p>
          <p className="truncate text-sm text-ink-muted">{artistName}</p>
          <p className="mt-1 text-lg font-bold text-accent-strong">{formatPrice(price)}</p>
          {formats ? <p className="text-sm text-ink-muted">Download: {formats}</p> : null}
        </div>
      </div>
      {/* Where a payment failure will be announced once checkout exists. */}
      <div role="alert" className="empty:hidden mt-4 rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger" />
      <p className="mt-5 rounded-xl border border-stage-600 bg-stage-900 px-4 py-3 text-ink-muted">
        Payment options will be available soon.
      </p>
      <form method="dialog" className="mt-6 flex justify-end">
        <Button type="submit" variant="secondary" autoFocus>
          Close
        </Button>
      </form>
    </Dialog>
  );
}

/**
 * Buy Now beside the dialog it opens: a button once the page runs its scripts; before, a link to the
 * same page with `?buy=1`, for which the server renders the dialog open.
 */
export function BuyNowButton({ label, path, dialog }: { label: string; path: string; dialog: RefObject<DialogHandle | null> }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <Button size="lg" onClick={() => dialog.current?.show()}>
      {label}
    </Button>
  ) : (
    <LinkButton size="lg" to={`${path}?buy=1`} preventScrollReset>
      {label}
    </LinkButton>
  );
}
