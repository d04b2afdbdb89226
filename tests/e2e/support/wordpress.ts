// A WordPress post that embeds a Crate link, as self-hosted WordPress makes one: it discovers the page's
// oEmbed address, asks it within the theme's content size, cleans the answer as it cleans every provider
// it does not know, and runs its embed host script where the answer asks for it. Written from WordPress's
// own source (wp-includes/embed.php's wp_filter_oembed_result and wp_maybe_enqueue_oembed_host_js, and
// wp-includes/js/wp-embed.js, 4.4 to 6.x and trunk), so the browser suite meets the frame WordPress makes.

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
 * WordPress's embed host script (wp-embed.js), as its page runs it: a message naming a frame's secret hides
 * that embed's blockquote; from that frame, it shows the frame, and may set its height (held between 200
 * and 1000 px) or send the whole page to a link on the frame's own host, only while the frame has the focus
 * (the reader just used it). Once the page is read, it tells each frame it is `ready`.
 */
const hostScript = `
window.addEventListener("message", function (event) {
  var data = event.data;
  if (!data || !(data.secret || data.message || data.value)) return;
  if (/[^a-zA-Z0-9]/.test(data.secret)) return;
  var quotes = document.querySelectorAll('blockquote[data-secret="' + data.secret + '"]');
  for (var q = 0; q < quotes.length; q++) quotes[q].style.display = "none";
  var frames = document.querySelectorAll('iframe[data-secret="' + data.secret + '"]');
  for (var i = 0; i < frames.length; i++) {
    var frame = frames[i];
    if (event.source !== frame.contentWindow) continue;
    frame.removeAttribute("style");
    if (data.message === "height") {
      var height = parseInt(data.value, 10);
      frame.height = height > 1000 ? 1000 : ~~height < 200 ? 200 : height;
    }
    if (data.message === "link") {
      var source = new URL(frame.getAttribute("src")), target = new URL(data.value);
      if (/^https?:$/i.test(target.protocol) && target.host === source.host && document.activeElement === frame) window.top.location.href = data.value;
    }
  }
});
function ready() {
  var frames = document.querySelectorAll("iframe.wp-embedded-content");
  for (var i = 0; i < frames.length; i++) frames[i].contentWindow.postMessage({ message: "ready", secret: frames[i].getAttribute("data-secret") }, "*");
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();`;

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
 * in WordPress's own shape (a `wp-embedded-content` blockquote), its host script, which WordPress loads for
 * nothing else (`hostScript: false`: as a site whose plugin removed that script; `"late"`: loaded once the
 * player has started, as a slow page's deferred script is).
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
        ? `<script>addEventListener("load", function () { var s = document.createElement("script"); s.textContent = ${JSON.stringify(hostScript)}; document.body.append(s); });</script>`
        : `<script>${hostScript}</script>`;
  return (
    `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>A post</title>` +
    `<style>body{margin:0;font-family:serif}main{max-width:${contentWidth}px;margin:0 auto;padding:16px}.wp-block-embed iframe{max-width:100%}</style></head>` +
    `<body><main><h1>New music this week</h1><figure class="wp-block-embed is-type-rich"><div class="wp-block-embed__wrapper">${cleaned}</div></figure>` +
    `<p>Worth a listen.</p></main>${script}</body></html>`
  );
}
