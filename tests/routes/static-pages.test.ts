import { describe, expect, it } from "vitest";
import { Visitor, text, title } from "./support.ts";

const render = async (path: string) => {
  const { response, html } = await new Visitor().get(path);
  return { status: response.status, contentType: response.headers.get("content-type"), html };
};

function metaDescription(html: string) {
  return html.match(/<meta name="description" content="([^"]*)"/)?.[1];
}

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
