import { isIP } from "node:net";
import type { StackConfig } from "../config.ts";

// redirect_to: only back to the site or an allowed URL, never to another origin (GoTrue's IsRedirectURLValid)

export function redirectTarget(config: StackConfig, requested: string | null, referer: string | null): string {
  for (const candidate of [requested, referer]) {
    if (candidate && isAllowedRedirect(config, candidate)) return candidate;
  }
  return config.siteUrl;
}

const regularHostname = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

export function isAllowedRedirect(config: Pick<StackConfig, "siteUrl" | "redirectAllowList">, target: string): boolean {
  // control characters and spaces are never in a real URL, and browsers would strip them into another address
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(target)) return false;
  let url: URL | null = null;
  try {
    url = new URL(target);
  } catch {
    // an http(s) URL always parses; one that does not is an obfuscation attempt
    if (/^https?:/i.test(target)) return false;
  }
  if (url) {
    const site = new URL(config.siteUrl);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    // the site itself; on loopback any port, as native apps and dev servers pick their own
    if (url.hostname === site.hostname && url.protocol === site.protocol && (url.port === site.port || isLoopback(host))) {
      return true;
    }
    if (isIP(host)) return isLoopback(host);
    if (/^https?:$/.test(url.protocol) && !regularHostname.test(host)) return false;
  }
  const withoutFragment = target.split("#")[0];
  return config.redirectAllowList.some((pattern) => globPattern(pattern).test(withoutFragment));
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** GoTrue's allow-list globs (gobwas/glob with '.' and '/' as separators): `**` spans them, `*` and `?` do not. */
function globPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*|\?)/)
    .map((part) => {
      if (part === "**") return ".*";
      if (part === "*") return "[^./]*";
      if (part === "?") return "[^./]";
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}
