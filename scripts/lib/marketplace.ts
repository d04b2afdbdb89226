// The whole marketplace for tests: a local backend on a fresh database (with the demo data) and the
// production build served by workerd, pointed at it.
import { startLocalStack } from "../../supabase/local/server.ts";
import { buildIfStale, freePort, serveApp } from "./app-server.ts";

export type Marketplace = { appUrl: string; supabaseUrl: string; stop(): Promise<void> };

export async function startMarketplace({ seedMedia = true }: { seedMedia?: boolean } = {}): Promise<Marketplace> {
  buildIfStale();
  const appPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  const backend = await startLocalStack({ port: 0, memory: true, seed: true, seedMedia, siteUrl: appUrl });
  try {
    const app = await serveApp({ port: appPort, quiet: true, vars: { SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey } });
    return {
      appUrl,
      supabaseUrl: backend.url,
      async stop() {
        await app.stop();
        await backend.close();
      },
    };
  } catch (error) {
    await backend.close();
    throw error;
  }
}
