// The embedded player's script (`/embed-player.js`), bundled on its own from `app/lib/player/embed.ts`:
// one small file with no framework, built from the same modules as the site's player. Vite emits it
// beside the client build (so `wrangler deploy` serves it as a static file, with `public/_headers`'
// caching), and the dev server answers it from the sources.
import { build } from "esbuild";
import type { Plugin } from "vite";
import { join } from "node:path";

const entry = join(import.meta.dirname, "..", "..", "app", "lib", "player", "embed.ts");
const fileName = "embed-player.js";

export async function bundleEmbedPlayer(): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    target: "es2022",
    legalComments: "none",
  });
  return result.outputFiles[0]!.text;
}

export function embedPlayerScript(): Plugin {
  return {
    name: "embed-player-script",
    configureServer(server) {
      server.middlewares.use(`/${fileName}`, (_request, response, next) => {
        bundleEmbedPlayer().then((script) => {
          response.setHeader("Content-Type", "text/javascript; charset=utf-8");
          response.end(script);
        }, next);
      });
    },
    async generateBundle() {
      if (this.environment.name !== "client") return;
      this.emitFile({ type: "asset", fileName, source: await bundleEmbedPlayer() });
    },
  };
}
