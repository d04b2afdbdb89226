import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import { Icon } from "~/components/ui/icon";

const confirmationMs = 2500;

/** Copies the page's link. Copying needs JavaScript, so without it there is no button at all. */
export function ShareButton({ path }: { path: string }) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(null), confirmationMs);
    return () => clearTimeout(timer);
  }, [status]);

  if (!hydrated) return null;

  async function copyLink() {
    const link = new URL(path, window.location.origin).toString();
    try {
      await navigator.clipboard.writeText(link);
      setStatus("Link copied");
    } catch {
      setStatus(`Copy this link: ${link}`);
    }
  }

  return (
    <div className="relative">
      <Button variant="secondary" size="lg" onClick={copyLink} aria-label="Share: copy link" className="px-4">
        <Icon name="share" className="size-5" />
        <span aria-hidden="true" className="hidden sm:inline">
          Share
        </span>
      </Button>
      {/* Always present, so screen readers announce what appears in it. */}
      <div role="status" className="absolute top-full left-0 z-10 mt-2">
        {status ? (
          <span className="block w-max max-w-72 rounded-lg border border-stage-600 bg-stage-800 px-3 py-1.5 text-sm break-all text-ink shadow-lg">
            {status}
          </span>
        ) : null}
      </div>
    </div>
  );
}
