import { describe, expect, it } from "vitest";
import { imageSize } from "../../app/lib/media/image-size.ts";
import { Visitor, appUrl, text, title } from "./support.ts";

const render = async (path: string) => {
  const { response, html } = await new Visitor().get(path);
  return { status: response.status, contentType: response.headers.get("content-type"), html };
};

function metaDescription(html: string) {
  return html.match(/<meta name="description" content="([^"]*)"/)?.[1];
}

describe("an installable site", () => {
  it("names its manifest, Apple touch icon and ICO favicon on every page, and each is what it says", async () => {
    for (const path of ["/", "/about", "/no-such-page"]) {
      const { html } = await render(path);
      expect(html, path).toContain('<link rel="manifest" href="/site.webmanifest"/>');
      expect(html, path).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"/>');
      expect(html, path).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32"/>');
    }
    const answer = await fetch(new URL("/site.webmanifest", appUrl));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as {
      name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: "Crate", start_url: "/", display: "standalone" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    // The sizes browsers ask for (192 and 512, one of them maskable), each the size it says, by its bytes.
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`);
    expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
    for (const icon of [
      ...manifest.icons.filter((each) => each.type === "image/png"),
      { src: "/apple-touch-icon.png", sizes: "180x180" },
    ]) {
      const file = await fetch(new URL(icon.src, appUrl));
      expect(file.status, icon.src).toBe(200);
      const [width, height] = icon.sizes.split("x").map(Number);
      expect(imageSize(new Uint8Array(await file.arrayBuffer())), icon.src).toEqual({ width, height });
    }
    // favicon.ico: an icon directory of 16, 32 and 48 px PNGs.
    const ico = new Uint8Array(await (await fetch(new URL("/favicon.ico", appUrl))).arrayBuffer());
    const view = new DataView(ico.buffer);
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 3]);
    expect([ico[6], ico[22], ico[38]]).toEqual([16, 32, 48]);
  });
});

describe("the shared layout", () => {
  it("server-renders the header, sidebar and footer links on every page", async () => {
    const { status, html } = await render("/");
    expect(status).toBe(200);
    for (const href of [
      "/",
      "/discover",
      "/genres",
      "/artists",
      "/about",
      "/login",
      "/register",
      "/recent",
      "/liked",
      "/playlists",
      "/terms",
      "/privacy",
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain('href="#main"');
    expect(text(html)).toContain("Skip to main content");
    expect(text(html)).toContain("Your Library");
    // New Playlist opens the form on Your Playlists (sign-in first, for a visitor).
    expect(html).toMatch(/<a[^>]*href="\/playlists#new-playlist"[^>]*>[\s\S]*?New Playlist/);
    expect(text(html)).not.toContain("coming soon");
  });

  it("offers the artist search as a plain GET form to the artist directory", async () => {
    const { html } = await render("/about");
    const form = html.match(/<form[^>]*role="search"[^>]*>/)?.[0];
    expect(form).toContain('action="/artists"');
    expect(form).toContain('method="get"');
    expect(html).toMatch(/<input[^>]*name="q"/);
  });
});

describe("the document", () => {
  it("preloads the client modules at low priority, after the page's own content", async () => {
    const { html } = await render("/about");
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length).toBeGreaterThan(0);
    for (const preload of preloads) expect(preload).toContain('fetchpriority="low"');
  });

  it("ships React's production build, whatever NODE_ENV the build was started under", async () => {
    // The test runner itself sets NODE_ENV=test, which once produced a development build here.
    const { html } = await render("/about");
    const scripts = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
    const bodies = await Promise.all(scripts.map(async (script) => (await new Visitor().get(script)).html));
    const client = bodies.join("\n");
    // Production React points at react.dev/errors for its minified messages; development React asks for DevTools.
    expect({ production: client.includes("react.dev/errors"), development: client.includes("Download the React DevTools") }).toEqual({
      production: true,
      development: false,
    });
  });

  it("lets browsers keep the fingerprinted build files for a year", async () => {
    const { html } = await render("/about");
    const script = html.match(/<link rel="modulepreload"[^>]*href="([^"]+)"/)?.[1];
    const response = await new Visitor().get(script!);
    expect(response.response.status).toBe(200);
    expect(response.response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});

describe("static pages", () => {
  it("/about states the revenue share and processor fees", async () => {
    const { status, contentType, html } = await render("/about");
    expect(status).toBe(200);
    expect(contentType).toContain("text/html");
    expect(title(html)).toBe("About · Crate");
    expect(metaDescription(html)).toContain("88%");
    const body = text(html);
    expect(body).toContain("88% of digital sales");
    expect(body).toContain("92% of physical sales");
    expect(body).toContain("typically 4-6%");
  });

  it("/terms states the minimum age, ownership, licence, revenue share and date", async () => {
    const { status, html } = await render("/terms");
    expect(status).toBe(200);
    expect(title(html)).toBe("Terms of Use · Crate");
    expect(metaDescription(html)).toBeTruthy();
    const body = text(html);
    expect(body).toContain("at least 13 years old");
    expect(body).toContain("keep full ownership");
    expect(body).toContain("non-exclusive");
    expect(body).toContain("88% of the price of every digital sale");
    expect(body).toContain("Last updated January 15, 2024");
  });

  it("/privacy carries the same date", async () => {
    const { status, html } = await render("/privacy");
    expect(status).toBe(200);
    expect(title(html)).toBe("Privacy Policy · Crate");
    expect(metaDescription(html)).toBeTruthy();
    expect(text(html)).toContain("Last updated January 15, 2024");
  });

  it("/ renders the home page", async () => {
    const { status, html } = await render("/");
    expect(status).toBe(200);
    expect(title(html)).toBe("Crate");
    expect(text(html)).toContain("Start Digging");
  });
});

describe("unknown paths", () => {
  it.each(["/no-such-page", "/about/extra/segments", "/dashboard/nowhere"])("%s answers 404 inside the layout", async (path) => {
    const { status, html } = await render(path);
    expect(status).toBe(404);
    expect(title(html)).toBe("Page not found · Crate");
    expect(text(html)).toContain("Page not found");
    expect(html).toContain('href="/terms"');
  });
});
