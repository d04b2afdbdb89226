// A WordPress post that embeds a Crate link, as self-hosted WordPress makes one: it discovers the page's
// oEmbed address, asks it within the theme's content size, cleans the answer as it cleans every provider
// it does not know, and runs WordPress's own embed host script (wp-embed.js, its file) where the answer
// asks for it. The cleaning is written from WordPress's source (wp-includes/embed.php's
// wp_filter_oembed_result and wp_maybe_enqueue_oembed_host_js, 4.4 to 6.x and trunk), which runs in PHP.
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";

/** WordPress's default content width when a theme sets none, and the height it asks for with it. */
const contentWidth = 500;
const contentHeight = Math.min(Math.ceil(contentWidth * 1.5), 1000);

/** The iframe attributes WordPress's cleaning keeps from an unknown provider's answer: every other one goes. */
const keptIframeAttributes = new Set(["src", "width", "height", "frameborder", "marginwidth", "marginheight", "scrolling", "title"]);

/**
 * The oEmbed answer's HTML as WordPress cleans it (wp_filter_oembed_result): a `<blockquote>` (its own
 * attributes gone) with its link, then the iframe, which keeps only the attributes above; the address gains
 * `#?secret=` with the same secret in `data-secret`, and the frame is sandboxed to scripts alone (an opaque
 * origin, no pop-ups, no top navigation) with IE's `security="restricted"`. With a blockquote, the frame
 * is hidden until the player speaks and the blockquote becomes WordPress's own fallback
 * (`class="wp-embedded-content"`). Null where WordPress would show the bare link instead (no iframe).
 */
function cleanedAsWordPress(html: string, secret: string): string | null {
  const iframe = /<iframe\b([^>]*)>\s*<\/iframe>/is.exec(html);
  if (!iframe) return null;
  const attributes = [...iframe[1]!.matchAll(/\s([a-z-]+)="([^"]*)"/gi)]
    .filter(([, name]) => keptIframeAttributes.has(name!.toLowerCase()))
    .map(([, name, value]) => (name === "src" ? `src="${value}#?secret=${secret}" data-secret="${secret}"` : `${name}="${value}"`));
  const link = /<blockquote\b[^>]*>\s*<a href="([^"]*)">(.*?)<\/a>\s*<\/blockquote>/is.exec(html.slice(0, iframe.index));
  const blockquote = link
    ? `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${link[1]}">${link[2]}</a></blockquote>`
    : "";
  const hidden = link ? ` style="position: absolute; visibility: hidden;"` : "";
  return `${blockquote}<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"${hidden} ${attributes.join(" ")}></iframe>`;
}

/**
 * WordPress's own embed host script (wp-includes/js/wp-embed.js), from Debian's `wordpress` package:
 * `.ci/run` takes this one file from the package without installing it (its web server, PHP and database
 * are not needed); `WORDPRESS_EMBED_JS` names another copy. A message naming a frame's secret hides that
 * embed's blockquote; from that frame, it shows the frame and sets its height or sends the page to a link
 * on the frame's host while the frame has the focus; once the page is read, it tells each frame `ready`.
 */
const hostScriptPath = process.env.WORDPRESS_EMBED_JS ?? "/usr/share/wordpress/wp-includes/js/wp-embed.js";
const hostScriptAddress = "/wp-includes/js/wp-embed.js";

/** Held host scripts, each let go once its post's frame has spoken (`late`). */
const heldHostScripts = new Map<string, () => void>();

/**
 * The WordPress site's own files, for the server that shows its posts: its host script (held back, for a
 * `late` post, until the post's frame has spoken: a slow network, as the page's parser waits for it), and
 * the address a post's page calls when its frame first speaks. True when `request` was one of them.
 */
export function servedByWordPress(url: URL, response: ServerResponse): boolean {
  if (url.pathname === hostScriptAddress) {
    const send = () => {
      response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8" });
      response.end(readFileSync(hostScriptPath));
    };
    const held = url.searchParams.get("held");
    if (held) heldHostScripts.set(held, send);
    else send();
    return true;
  }
  if (url.pathname === "/frame-spoke") {
    heldHostScripts.get(url.searchParams.get("post") ?? "")?.();
    response.writeHead(204);
    response.end();
    return true;
  }
  return false;
}

/** The oEmbed answer's HTML WordPress gets for `pageUrl`: found from the page's discovery link, asked within its content size. */
async function discoveredEmbed(pageUrl: string): Promise<string> {
  const page = await (await fetch(pageUrl)).text();
  const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page)?.[1];
  if (!link) throw new Error(`${pageUrl} names no oEmbed address`);
  const url = new URL(link.replaceAll("&amp;", "&"));
  url.searchParams.set("maxwidth", String(contentWidth));
  url.searchParams.set("maxheight", String(contentHeight));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`oEmbed answered ${response.status} for ${pageUrl}`);
  return ((await response.json()) as { html: string }).html;
}

/**
 * A WordPress post embedding `pageUrl` as WordPress would show it, its embed block and, where the answer is
 * in WordPress's own shape (a `wp-embedded-content` blockquote), its host script in the footer, which
 * WordPress loads for nothing else (`hostScript: false`: as a site whose plugin removed that script;
 * `"late"`: arriving only after the player has loaded and spoken, which only `ready` can then size).
 */
export async function wordPressPost(pageUrl: string, { hostScript: withHostScript = true as boolean | "late" } = {}): Promise<string> {
  const secret = Math.random().toString(36).slice(2, 12);
  const cleaned = cleanedAsWordPress(await discoveredEmbed(pageUrl), secret);
  if (!cleaned) throw new Error(`WordPress would show ${pageUrl} as a bare link`);
  const enqueued = /<blockquote\s[^>]*?wp-embedded-content/.test(cleaned);
  const script =
    !withHostScript || !enqueued
      ? ""
      : withHostScript === "late"
        ? `<script>addEventListener("message", function spoke() { removeEventListener("message", spoke); fetch("/frame-spoke?post=${secret}"); });</script>` +
          `<script src="${hostScriptAddress}?held=${secret}"></script>`
        : `<script src="${hostScriptAddress}"></script>`;
  return (
    `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>A post</title>` +
    `<style>body{margin:0;font-family:serif}main{max-width:${contentWidth}px;margin:0 auto;padding:16px}.wp-block-embed iframe{max-width:100%}</style></head>` +
    `<body><main><h1>New music this week</h1><figure class="wp-block-embed is-type-rich"><div class="wp-block-embed__wrapper">${cleaned}</div></figure>` +
    `<p>Worth a listen.</p></main>${script}</body></html>`
  );
}
