// The site's raster icons, drawn from public/favicon.svg by Chromium (Debian's, as the browser tests use):
// the install icons the manifest names (192 and 512 px, and a 512 px maskable one whose mark keeps to the
// safe zone), the Apple touch icon (180 px, square and opaque: iOS rounds it itself) and favicon.ico
// (16, 32 and 48 px PNGs in one file, for what asks for /favicon.ico). Run after the logo changes:
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
} finally {
  await browser.close();
}
