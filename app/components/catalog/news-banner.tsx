import { useEffect, useState, useSyncExternalStore } from "react";
import { newsRotationMs } from "~/lib/constants";
import { cx } from "~/lib/ui/cx";
import { useHydrated } from "~/lib/ui/use-hydrated";
import { Icon } from "~/components/ui/icon";

export type NewsItem = { id: string; title: string; content: string; type: "info" | "update" | "announcement" };

const typeLabels: Record<NewsItem["type"], { label: string; className: string }> = {
  announcement: { label: "Announcement", className: "bg-accent/15 text-accent-strong" },
  update: { label: "Update", className: "bg-amber/15 text-amber" },
  info: { label: "News", className: "bg-stage-700 text-ink-muted" },
};

const reducedMotion = "(prefers-reduced-motion: reduce)";

function subscribeToReducedMotion(onChange: () => void) {
  const query = window.matchMedia(reducedMotion);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The reader's motion setting, followed live; the server (which cannot know it) renders as if unset. */
function usePrefersReducedMotion() {
  return useSyncExternalStore(
    subscribeToReducedMotion,
    () => window.matchMedia(reducedMotion).matches,
    () => false,
  );
}

/**
 * The home page's news: active items, newest first, one at a time. With more than one it moves on
 * every 8 seconds, holds still while pointed at or focused, and has dots to jump and a pause button;
 * with reduced motion it does not rotate by itself. Without JavaScript the newest item shows.
 */
export function NewsBanner({ items }: { items: NewsItem[] }) {
  const [index, setIndex] = useState(0);
  const hydrated = useHydrated();
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const rotating = items.length > 1 && hydrated && !paused && !held && !reducedMotion;

  useEffect(() => {
    if (!rotating) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % items.length), newsRotationMs);
    return () => clearInterval(timer);
  }, [rotating, items.length]);

  if (items.length === 0) return null;
  const current = items[Math.min(index, items.length - 1)]!;
  const type = typeLabels[current.type] ?? typeLabels.info;

  return (
    <section
      aria-roledescription="carousel"
      aria-label="News"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHeld(false);
      }}
      className="mb-8 flex flex-col gap-3 rounded-2xl border border-stage-700 bg-stage-850/80 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-5"
    >
      <div
        aria-live={rotating ? "off" : "polite"}
        aria-roledescription="slide"
        aria-label={`${index + 1} of ${items.length}`}
        key={current.id}
        className="flex min-w-0 flex-1 items-start gap-3"
        role="group"
      >
        <span className={cx("mt-0.5 shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold", type.className)}>{type.label}</span>
        <p className="min-w-0 text-sm">
          <strong className="font-semibold text-ink">{current.title}</strong> <span className="text-ink-muted">{current.content}</span>
        </p>
      </div>
      {items.length > 1 ? (
        // Rendered on the server too, but invisible (hence neither focusable nor announced) until
        // JavaScript makes the buttons work: their space is kept, so nothing moves on hydration.
        <div className={cx("flex shrink-0 items-center gap-1 self-end sm:self-auto", !hydrated && "invisible")}>
          <button
            type="button"
            onClick={() => setPaused((value) => !value)}
            aria-label={paused ? "Resume news rotation" : "Pause news rotation"}
            className="grid size-8 place-items-center rounded-full text-ink-muted hover:bg-stage-700 hover:text-ink"
          >
            {paused ? <Icon name="play" className="size-4" /> : <Icon name="pause" className="size-4" />}
          </button>
          {items.map((item, itemIndex) => (
            <button
              key={item.id}
              type="button"
              onClick={() => setIndex(itemIndex)}
              aria-label={`Show news ${itemIndex + 1} of ${items.length}: ${item.title}`}
              aria-current={itemIndex === index ? "true" : undefined}
              className="grid size-8 place-items-center rounded-full hover:bg-stage-700"
            >
              <span aria-hidden="true" className={cx("block size-2 rounded-full", itemIndex === index ? "bg-accent" : "bg-stage-600")} />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
