import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { loadEnv } from "./scripts/lib/env.ts";

export default defineConfig(({ command }) => {
  // The dev server's Worker talks to the local backend (`npm run dev` starts it). Builds carry no local
  // values: production gets its variables from the deployment.
  const env = command === "serve" ? loadEnv() : {};
  return {
    plugins: [
      cloudflare({
        viteEnvironment: { name: "ssr" },
        config: command === "serve" ? { vars: { SUPABASE_URL: env.SUPABASE_URL!, SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY! } } : undefined,
      }),
      tailwindcss(),
      reactRouter(),
    ],
    resolve: { tsconfigPaths: true },
  };
});
