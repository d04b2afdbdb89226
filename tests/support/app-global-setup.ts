// Route tests run against the production build served by workerd, exactly as users get it.
import type { TestProject } from "vitest/node";
import { buildIfStale, freePort, serveApp } from "../../scripts/lib/app-server.ts";

export default async function setup(project: TestProject) {
  buildIfStale();
  const app = await serveApp({ port: await freePort(), quiet: true });
  project.provide("appUrl", app.url);
  return () => app.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
  }
}
