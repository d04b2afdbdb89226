import { useEffect, useId, useState, type MouseEvent } from "react";
import { useDisclosure } from "~/components/ui/use-disclosure";
import { Icon } from "~/components/ui/icon";
import { inputClasses } from "~/components/ui/field";
import type { Sharing } from "~/lib/sharing/sharing";
import { useHydrated } from "~/lib/ui/use-hydrated";

const confirmationMs = 2500;

/**
 * Share on a track, an artist, a release or a public playlist. Where the browser has a share sheet (Web
 * Share), Share opens it; else a small menu with Copy link and Copy embed code, each saying when it has
 * copied. Without JavaScript the menu still opens (a `details` disclosure) and shows the page's address
 * and the embed code as text to copy.
 */
export function ShareMenu({ title, share, align = "start" }: { title: string; share: Sharing; align?: "start" | "end" }) {
  const id = useId();
  const menu = useDisclosure();
  const hydrated = useHydrated();
  // The menu and its confirmation open from the same edge as the button.
  const edge = align === "end" ? "right-0" : "left-0";
  const [status, setStatus] = useState<string | null>(null);
  const link = share.link;

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(null), confirmationMs);
    return () => clearTimeout(timer);
  }, [status]);

  function openShareSheet(event: MouseEvent) {
    if (typeof navigator.share !== "function" || menu.current?.open) return;
    event.preventDefault();
    // Cancelling the sheet is no failure; a sheet that cannot open leaves the menu to do the job.
    navigator.share({ title, url: link }).catch((error: unknown) => {
      if (!(error instanceof DOMException && error.name === "AbortError") && menu.current) menu.current.open = true;
    });
  }

  async function copy(text: string, done: string) {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(done);
    } catch {
      setStatus("Copying was refused: select the text and copy it");
    }
  }

  const copyButton = "rounded-lg bg-stage-700 px-3 py-1.5 text-sm font-semibold text-ink hover:bg-stage-600";
  return (
    <div className="relative">
      <details ref={menu}>
        <summary
          onClick={openShareSheet}
          className="inline-flex h-12 cursor-pointer list-none items-center gap-2 rounded-full border border-stage-600 bg-stage-800 px-4 font-semibold text-ink hover:bg-stage-700 [&::-webkit-details-marker]:hidden"
        >
          <Icon name="share" className="size-5" />
          Share
        </summary>
        {/* Beside the button on wide screens; on a phone a sheet across the screen's width above the player
            bar, so it never runs off an edge whatever the button's place. */}
        <div
          className={`absolute ${edge} z-50 mt-2 grid w-80 max-w-[90vw] gap-3 rounded-xl border border-stage-600 bg-stage-900 p-3 shadow-2xl shadow-black/60 max-sm:fixed max-sm:inset-x-3 max-sm:bottom-24 max-sm:z-[60] max-sm:max-h-[70dvh] max-sm:w-auto max-sm:max-w-none max-sm:overflow-y-auto`}
        >
          <div className="grid gap-1">
            <label htmlFor={`${id}-link`} className="text-xs font-semibold tracking-wider text-ink-faint uppercase">
              Link
            </label>
            <input id={`${id}-link`} readOnly value={link} onFocus={(event) => event.currentTarget.select()} className={inputClasses} />
            {hydrated ? (
              <button type="button" className={copyButton} onClick={() => copy(link, "Link copied")}>
                Copy link
              </button>
            ) : null}
          </div>
          {share.embeds.map((embed, index) => (
            <div key={embed.label} className="grid gap-1">
              <label htmlFor={`${id}-embed-${index}`} className="text-xs font-semibold tracking-wider text-ink-faint uppercase">
                {embed.label}
              </label>
              <textarea
                id={`${id}-embed-${index}`}
                readOnly
                rows={3}
                value={embed.code}
                onFocus={(event) => event.currentTarget.select()}
                className={`${inputClasses} font-mono text-xs`}
              />
              {hydrated ? (
                <button type="button" className={copyButton} onClick={() => copy(embed.code, "Embed code copied")}>
                  Copy {embed.label.replace(/^Embed code/, "embed code")}
                </button>
              ) : null}
            </div>
          ))}
        </div>
      </details>
      {/* Always present, so screen readers announce what appears in it. */}
      <p role="status" className={`absolute top-full ${edge} z-40 mt-1 w-max max-w-72 text-sm`}>
        {status ? (
          <span className="block rounded-lg border border-stage-600 bg-stage-800 px-3 py-1.5 text-ink shadow-lg">{status}</span>
        ) : null}
      </p>
    </div>
  );
}
