import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "routes",
          include: ["tests/routes/**/*.test.ts"],
          globalSetup: ["tests/support/app-global-setup.ts"],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // On a shared PostgreSQL server, files run one at a time: each creates its own database, but
          // roles are cluster-wide and the platform setup creates them.
          fileParallelism: !process.env.TEST_DATABASE_URL,
        },
      },
    ],
  },
});
