/**
 * What every document's `<head>` links to: the Web App Manifest, the icon iOS puts on the home screen and
 * the ICO beside the SVG favicon (`sizes` keeps browsers that read both on the SVG), which make the site
 * installable, and the site's feeds of new releases. Written here, in the server's stream, rather than by
 * the root route: they never change on the client, so no page carries them in its JavaScript. (React
 * leaves tags it did not render in `<head>`.)
 */
const siteLinks =
  '<link rel="manifest" href="/site.webmanifest"/><link rel="apple-touch-icon" href="/apple-touch-icon.png"/>' +
  '<link rel="icon" href="/favicon.ico" sizes="32x32"/>' +
  '<link rel="alternate" type="application/atom+xml" title="New releases on Crate (Atom)" href="/feed.atom"/>' +
  '<link rel="alternate" type="application/rss+xml" title="New releases on Crate (RSS)" href="/feed.rss"/>';

/** The site's own picture for link previews (1200×630, public/og-image.png), for a page without artwork of its own. */
export const siteImage = { path: "/og-image.png", width: 1200, height: 630, alt: "Crate: music straight from independent artists" };

/**
 * What the server adds to every document's head: the site's links, `og:locale`, the site's X account
 * when it has one, and the site's picture when the page names none of its own (so no preview is blank).
 */
export function headAdditions(head: string, { origin, xHandle }: { origin: string; xHandle?: string }): string {
  const image = head.includes('property="og:image"')
    ? ""
    : `<meta property="og:image" content="${origin}${siteImage.path}"/><meta property="og:image:width" content="${siteImage.width}"/>` +
      `<meta property="og:image:height" content="${siteImage.height}"/><meta property="og:image:alt" content="${siteImage.alt}"/>` +
      `<meta name="twitter:image" content="${origin}${siteImage.path}"/><meta name="twitter:image:alt" content="${siteImage.alt}"/>`;
  return (
    siteLinks + '<meta property="og:locale" content="en_US"/>' + (xHandle ? `<meta name="twitter:site" content="${xHandle}"/>` : "") + image
  );
}

/**
 * The document's `<head>` as the server streams it. Every page works before its JavaScript runs (forms
 * post, links navigate), so on a slow connection the document, the stylesheet and the page's largest
 * image should get the bandwidth first and the client modules (React alone is about 100 KB gzipped)
 * after them. React Router preloads those modules from `<head>` at high priority, the same as
 * render-blocking resources; this marks the preloads `fetchpriority="low"`, and adds what every head has (headAdditions).
 * Only `<head>` is rewritten: the stream is passed through untouched after it.
 */
export function documentHead(site: { origin: string; xHandle?: string }): TransformStream<Uint8Array, Uint8Array> {
  const headEnd = new TextEncoder().encode("</head>");
  let head: Uint8Array | null = new Uint8Array(0);
  return new TransformStream({
    transform(chunk, controller) {
      if (!head) return controller.enqueue(chunk);
      const buffered: Uint8Array = new Uint8Array(head.length + chunk.length);
      buffered.set(head);
      buffered.set(chunk, head.length);
      // Only the new bytes (and a tag split across the boundary) need looking at.
      const end = indexOf(buffered, headEnd, Math.max(0, head.length - headEnd.length + 1));
      if (end === -1) {
        head = buffered;
        return;
      }
      head = null;
      // `</head>` is ASCII, so the bytes before it end on a whole character.
      const before = new TextDecoder().decode(buffered.subarray(0, end));
      const rewritten =
        before.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"') + headAdditions(before, site);
      controller.enqueue(new TextEncoder().encode(rewritten));
      controller.enqueue(buffered.subarray(end));
    },
    flush(controller) {
      if (head?.length) controller.enqueue(head);
    },
  });
}

function indexOf(bytes: Uint8Array, sequence: Uint8Array, from: number): number {
  outer: for (let i = from; i <= bytes.length - sequence.length; i++) {
    for (let j = 0; j < sequence.length; j++) if (bytes[i + j] !== sequence[j]) continue outer;
    return i;
  }
  return -1;
}
