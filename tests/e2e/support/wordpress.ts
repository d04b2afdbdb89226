// A WordPress post that embeds a Crate link, as self-hosted WordPress makes one: it discovers the page's
// oEmbed address, asks it within the theme's content size, cleans the answer as it cleans every provider
// it does not know, and runs its embed host script. Written from WordPress's behaviour (wp-includes'
// embed functions and wp-embed.js, 4.4 to 6.x), so the browser suite meets the frame WordPress makes.

/** WordPress's default content width when a theme sets none, and the height it asks for with it. */
const contentWidth = 500;
const contentHeight = Math.min(Math.ceil(contentWidth * 1.5), 1000);

/** The iframe attributes WordPress's cleaning keeps from an unknown provider's answer: every other one goes. */
const keptIframeAttributes = new Set(["src", "width", "height", "frameborder", "marginwidth", "marginheight", "scrolling", "title"]);

/**
 * The oEmbed answer's HTML as WordPress cleans it: the iframe keeps only the attributes above, its address
 * gains `#?secret=` with the same secret in `data-secret`, and it is sandboxed to scripts alone (an
 * opaque origin, no pop-ups, no top navigation) with IE's `security="restricted"`. Null where WordPress
 * would show the bare link instead (no iframe).
 */
function cleanedAsWordPress(html: string, secret: string): string | null {
  const iframe = /<iframe\b([^>]*)>\s*<\/iframe>/is.exec(html);
  if (!iframe) return null;
  const attributes = [...iframe[1]!.matchAll(/\s([a-z-]+)="([^"]*)"/gi)]
    .filter(([, name]) => keptIframeAttributes.has(name!.toLowerCase()))
    .map(([, name, value]) => (name === "src" ? `src="${value}#?secret=${secret}" data-secret="${secret}"` : `${name}="${value}"`));
  return `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" ${attributes.join(" ")}></iframe>`;
}

/**
 * WordPress's embed host script, as its page runs it: a message naming a frame's secret, from that frame,
 * may set its height (held between 200 and 1000 px) or send the whole page to a link on the frame's own
 * host, and only while the frame has the focus (the reader just used it).
 */
const hostScript = `
window.addEventListener("message", function (event) {
  var data = event.data;
  if (!data || !(data.secret || data.message || data.value)) return;
  if (/[^a-zA-Z0-9]/.test(data.secret)) return;
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
      var source = document.createElement("a"), target = document.createElement("a");
      source.href = frame.getAttribute("src");
      target.href = data.value;
      if (target.host === source.host && document.activeElement === frame) window.top.location.href = data.value;
    }
  }
});`;

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
 * A WordPress post embedding `pageUrl` as WordPress would show it, its embed block and host script
 * (`hostScript: false`: as a site whose plugin removed that script).
 */
export async function wordPressPost(pageUrl: string, { hostScript: withHostScript = true } = {}): Promise<string> {
  const secret = Math.random().toString(36).slice(2, 12);
  const cleaned = cleanedAsWordPress(await discoveredEmbed(pageUrl), secret);
  if (!cleaned) throw new Error(`WordPress would show ${pageUrl} as a bare link`);
  return (
    `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>A post</title>` +
    `<style>body{margin:0;font-family:serif}main{max-width:${contentWidth}px;margin:0 auto;padding:16px}.wp-block-embed iframe{max-width:100%}</style></head>` +
    `<body><main><h1>New music this week</h1><figure class="wp-block-embed is-type-rich"><div class="wp-block-embed__wrapper">${cleaned}</div></figure>` +
    `<p>Worth a listen.</p></main>${withHostScript ? `<script>${hostScript}</script>` : ""}</body></html>`
  );
}
