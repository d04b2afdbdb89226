import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { compiledDecoders } from "./scripts/lib/compiled-decoders.ts";
import { embedPlayerScript } from "./scripts/lib/embed-player-script.ts";
import { loadEnv } from "./scripts/lib/env.ts";
import { layoutChunk } from "./scripts/lib/layout-chunk.ts";

export default defineConfig(({ command }) => {
  // The dev server's Workers talk to the local backend (`npm run dev` starts it, and registers the
  // marketplace secret it passes here). Builds carry no local values: production gets its variables from
  // the deployment.
  const env = command === "serve" ? loadEnv() : {};
  const vars = {
    SUPABASE_URL: env.SUPABASE_URL!,
    SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY!,
    MARKETPLACE_SECRET: process.env.MARKETPLACE_SECRET ?? "",
    TURNSTILE_SITE_KEY: env.TURNSTILE_SITE_KEY ?? "",
    // The Stripe stand-in `npm run dev` starts beside it (scripts/lib/payments.ts).
    STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY ?? "",
    STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET ?? "",
    STRIPE_CONNECT_WEBHOOK_SECRET: process.env.STRIPE_CONNECT_WEBHOOK_SECRET ?? "",
    STRIPE_API_URL: process.env.STRIPE_API_URL ?? "",
    // And the PayPal stand-in, which payouts go to.
    PAYPAL_CLIENT_ID: process.env.PAYPAL_CLIENT_ID ?? "",
    PAYPAL_CLIENT_SECRET: process.env.PAYPAL_CLIENT_SECRET ?? "",
    PAYPAL_API_URL: process.env.PAYPAL_API_URL ?? "",
  };
  return {
    plugins: [
      cloudflare({
        viteEnvironment: { name: "ssr" },
        config: command === "serve" ? { vars } : undefined,
        // The media Worker (the rendition queue's consumer, with the codecs), run beside the app in
        // development and built beside it into build/media/.
        auxiliaryWorkers: [
          {
            configPath: "./wrangler.media.toml",
            config: command === "serve" ? { vars: { ...vars, RENDITION_RETRY_SECONDS: "30" } } : undefined,
          },
        ],
      }),
      tailwindcss(),
      reactRouter(),
      embedPlayerScript(),
      compiledDecoders(),
    ],
    resolve: { tsconfigPaths: true },
    environments: {
      // The media Worker's deployable output beside the page Worker's (build/server).
      marketplace_media: { build: { outDir: "build/media" } },
      client: {
        build: {
          rolldownOptions: {
            output: {
              // React, React DOM and React Router in one chunk every page loads (and caches across releases
              // of our own code), rather than spread over chunks named after whichever app module came first.
              codeSplitting: {
                groups: [
                  {
                    name: "framework",
                    test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
                  },
                  // What the root and the site's layout import, whichever page is open: one chunk, not the
                  // score of small ones it would be spread over. Every page loads all of it anyway, so no
                  // page's JavaScript grows, and a phone makes a handful of requests instead of twenty. Ids with a
                  // query (Vite's `?raw`, `?url` and the like) are left to Rolldown.
                  { name: layoutChunk(), test: (id) => !id.includes("?") },
                ],
              },
            },
          },
        },
      },
    },
  };
});
