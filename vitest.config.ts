import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Suites that start a local stack (the product's backend tests, the stack's conformance tests). */
const againstTheStack = {
  // the migrated databases each file's stack copies, made once (tests/support/database-global-setup.ts)
  globalSetup: ["tests/support/database-global-setup.ts"],
  // (after the root setup file: vitest merges the lists)
  setupFiles: ["tests/support/database-snapshots.ts"],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // On a shared PostgreSQL server, files run one at a time: each creates its own database, but roles are
  // cluster-wide and the platform setup creates them.
  fileParallelism: !process.env.TEST_DATABASE_URL,
};

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    projects: [
      {
        extends: true,
        // unit: the app's logic and form schemas, the scripts' own helpers (tests/scripts), the local stand-ins
        test: {
          name: "unit",
          include: [
            "tests/unit/**/*.test.{ts,tsx}",
            "tests/scripts/**/*.test.ts",
            "app/**/*.test.{ts,tsx}",
            "stand-ins/tests/**/*.test.ts",
          ],
          environment: "node",
        },
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
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], ...againstTheStack },
      },
      {
        // The local stack's own conformance tests, beside it in its package (supabase/local).
        extends: true,
        test: { name: "local-stack", include: ["supabase/local/tests/**/*.test.ts"], ...againstTheStack },
      },
    ],
  },
});
