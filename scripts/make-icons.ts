// The site's raster icons, drawn from public/favicon.svg by Chromium (Debian's, as the browser tests use):
// the install icons the manifest names (192 and 512 px, and a 512 px maskable one whose mark keeps to the
// safe zone), the Apple touch icon (180 px, square and opaque: iOS rounds it itself) and favicon.ico
// (16, 32 and 48 px PNGs in one file, for what asks for /favicon.ico); and the site's picture for link
// previews of pages without artwork of their own (1200×630, public/og-image.png). Run after the logo changes:
//   node scripts/make-icons.ts
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const root = join(import.meta.dirname, "..");
const publicDir = join(root, "public");
const logo = readFileSync(join(publicDir, "favicon.svg"), "utf8");

/** The mark on a full square of its gradient, scaled into the middle `scale` of it (maskable and Apple icons). */
function fullBleed(scale: number): string {
  const inner = logo.replace(/<rect [^>]*\/>/, "").replace(/^<svg[^>]*>|<\/svg>$/g, "");
  const defs = /<defs>.*<\/defs>/.exec(inner)![0];
  const mark = inner.replace(defs, "");
  const offset = (32 * (1 - scale)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${defs}<rect width="32" height="32" fill="url(#g)"/><g transform="translate(${offset} ${offset}) scale(${scale})">${mark}</g></svg>`;
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const page = await browser.newPage();

async function png(svg: string, size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
  );
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

/** The preview card: the mark, the name and what the site is, on the site's own dark ground. */
async function previewCard(): Promise<Buffer> {
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.setContent(
    `<style>html,body{margin:0;width:1200px;height:630px;background:#07060b;font-family:"DejaVu Sans",sans-serif;color:#f4f1fa}` +
      `main{display:flex;flex-direction:column;justify-content:center;height:100%;padding:0 110px;box-sizing:border-box;` +
      `background:radial-gradient(circle at 85% 20%,#ff4fa344,transparent 55%),radial-gradient(circle at 10% 90%,#ffb54733,transparent 50%)}` +
      `.brand{display:flex;align-items:center;gap:36px}svg{width:150px;height:150px}h1{font-size:120px;margin:0;letter-spacing:-3px}` +
      `p{font-size:48px;line-height:1.25;margin:48px 0 0;color:#c9c3d6;max-width:900px}</style>` +
      `<main><div class="brand">${logo}<h1>Crate</h1></div><p>Music straight from independent artists. Listen, follow and buy.</p></main>`,
  );
  return page.screenshot({ clip: { x: 0, y: 0, width: 1200, height: 630 } });
}

/** An ICO holding PNG images (every browser since IE 9 reads PNG inside ICO). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png: bytes }, index) => {
    const at = 6 + 16 * index;
    header.writeUInt8(size % 256, at);
    header.writeUInt8(size % 256, at + 1);
    header.writeUInt16LE(1, at + 4); // colour planes
    header.writeUInt16LE(32, at + 6); // bits a pixel
    header.writeUInt32LE(bytes.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += bytes.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

try {
  mkdirSync(join(publicDir, "icons"), { recursive: true });
  writeFileSync(join(publicDir, "icons", "icon-192.png"), await png(logo, 192));
  writeFileSync(join(publicDir, "icons", "icon-512.png"), await png(logo, 512));
  // Maskable: the platform crops to a circle of 80% of the side, so the mark keeps within it.
  writeFileSync(join(publicDir, "icons", "maskable-512.png"), await png(fullBleed(0.7), 512));
  writeFileSync(join(publicDir, "apple-touch-icon.png"), await png(fullBleed(0.8), 180));
  const small = [];
  for (const size of [16, 32, 48]) small.push({ size, png: await png(logo, size) });
  writeFileSync(join(publicDir, "favicon.ico"), ico(small));
  writeFileSync(join(publicDir, "og-image.png"), await previewCard());
} finally {
  await browser.close();
}
