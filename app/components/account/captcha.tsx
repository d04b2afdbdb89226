import { useEffect, useRef } from "react";
import { turnstileScript } from "~/lib/http/captcha";

type Turnstile = { render(container: HTMLElement, options?: Record<string, unknown>): string; reset(container: HTMLElement): void };
declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

/**
 * The security check (Cloudflare Turnstile) of a form Auth guards, where a site key is set; nothing
 * otherwise. The widget puts its token into the form; a token counts once, so after a reply the widget
 * makes a new one. Without JavaScript there is no widget, and the form says the check needs it.
 */
export function Captcha({ siteKey, reply }: { siteKey: string | null; reply: unknown }) {
  const holder = useRef<HTMLDivElement>(null);

  // Arrived here by a client navigation, with the script loaded already: it will not look for new widgets.
  useEffect(() => {
    const container = holder.current;
    if (container && window.turnstile && !container.hasChildNodes()) window.turnstile.render(container);
  }, []);

  useEffect(() => {
    if (reply && holder.current?.hasChildNodes()) window.turnstile?.reset(holder.current);
  }, [reply]);

  if (!siteKey) return null;
  return (
    <div>
      <script src={turnstileScript} async />
      <div ref={holder} className="cf-turnstile min-h-[65px]" data-sitekey={siteKey} data-theme="dark" />
      <noscript>
        <p className="text-sm text-danger">This form has a security check that needs JavaScript. Please turn JavaScript on to continue.</p>
      </noscript>
    </div>
  );
}
