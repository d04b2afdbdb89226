// Lint: TypeScript's recommended rules, the React hooks rules, and the direction imports may point
// (routes → components → lib). Formatting is Prettier's job, not ESLint's.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { defineConfig, globalIgnores } from "eslint/config";

const noRouteImports = { group: ["~/routes/*", "**/routes/*"], message: "Routes import components and lib, never the other way round." };

export default defineConfig([
  globalIgnores([
    ".data/",
    "test-results/",
    "build/",
    ".react-router/",
    ".wrangler/",
    "worker-configuration.d.ts",
    "app/lib/backend/database.types.ts",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  { files: ["app/**/*.{ts,tsx}"], ...reactHooks.configs.flat.recommended },
  {
    files: ["app/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            noRouteImports,
            { group: ["~/lib/*.server", "**/*.server"], message: "Components reach the browser: server modules stay in routes." },
          ],
        },
      ],
    },
  },
  {
    files: ["app/lib/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            noRouteImports,
            { group: ["~/components/*", "**/components/*"], message: "lib is the bottom layer: it imports no components." },
          ],
        },
      ],
    },
  },
  {
    // The local stack is a package: its own entries (the server, the testing helpers, the demo media), never its files.
    files: ["scripts/**", "tests/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/supabase/local/**"], message: "Import @crate/local-supabase, /testing or /media instead." }] },
      ],
    },
  },
  {
    // Edge Functions run on Deno and import by URL or import map.
    files: ["supabase/functions/**"],
    languageOptions: { globals: { Deno: "readonly" } },
  },
]);
