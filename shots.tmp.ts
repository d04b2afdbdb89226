import { createServer } from "node:http";
import { chromium } from "playwright-core";
import { wordPressPost } from "./tests/e2e/support/wordpress.ts";
import { demoAlbumPath, demoTrackPath } from "./scripts/lib/demo-data.ts";
const base = "http://localhost:3000";
const server = createServer(async (req, res) => {
  const url = new URL(req.url!, "http://x");
  if (url.pathname === "/wp") { res.writeHead(200, { "Content-Type": "text/html" }); res.end(await wordPressPost(base + url.searchParams.get("page"))); return; }
  res.writeHead(200, { "Content-Type": "text/html" });
  res.end(`<!doctype html><body style="background:#fff"><iframe sandbox="allow-scripts" src="${base}/embed/track/${demoTrackPath("Bicycle Bell").split("/").pop()}${url.searchParams.get("q") ?? ""}" width="${url.searchParams.get("w") ?? 480}" height="${url.searchParams.get("h") ?? 164}" title="x"></iframe></body>`);
});
await new Promise<void>((r) => server.listen(4555, r));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
const page = await browser.newPage({ viewport: { width: 560, height: 520 } });
page.on("console", (m) => console.log("console:", m.text()));
await page.goto(`http://127.0.0.1:4555/wp?page=${encodeURIComponent(demoAlbumPath("Headlights & Static"))}`);
await page.frameLocator("iframe").getByRole("button", { name: /^Play/ }).first().waitFor();
await page.waitForTimeout(500);
await page.screenshot({ path: "/tmp/wp-album.png" });
await page.goto(`http://127.0.0.1:4555/wp?page=${encodeURIComponent(demoTrackPath("Bicycle Bell"))}`);
await page.waitForTimeout(800);
await page.screenshot({ path: "/tmp/wp-track.png" });
for (const [name, q, h] of [["sb-large", "", 164], ["sb-compact-light", "?size=compact%26theme=light", 120]] as const) {
  await page.goto(`http://127.0.0.1:4555/sb?q=${q}&h=${h}`);
  const frame = page.frameLocator("iframe");
  await frame.getByRole("link", { name: /^Buy/ }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/${name}.png` });
}
for (const w of [300, 240, 200]) {
await page.goto(`http://127.0.0.1:4555/sb?w=${w}&h=120&q=?size=compact`);
await page.waitForTimeout(500);
await page.screenshot({ path: `/tmp/sb-${w}.png`, clip: { x: 0, y: 0, width: 320, height: 140 } });
await page.goto(`http://127.0.0.1:4555/sb?w=${w}&h=312&q=`);
await page.waitForTimeout(500);
await page.screenshot({ path: `/tmp/sb-large-${w}.png`, clip: { x: 0, y: 0, width: 320, height: 330 } });
}
await browser.close(); server.close();
