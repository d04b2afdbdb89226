// Supabase's local development defaults (what `supabase start` prints), so keys and tokens made for the
// CLI's stack work here unchanged.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const jwtSecret = "super-secret-jwt-token-with-at-least-32-characters-long";

export const localDefaults = {
  port: 54321,
  jwtSecret,
  // HS256 with jwtSecret: { iss: 'supabase-demo', role: 'anon' | 'service_role', exp: 1983812996 }
  anonKey:
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0",
  serviceRoleKey:
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU",
  siteUrl: "http://localhost:3000",
  // GoTrue-style globs for redirect_to: the app's own origins in dev (react-router dev, wrangler dev).
  redirectAllowList: [
    "http://localhost:3000/**",
    "http://127.0.0.1:3000/**",
    "http://localhost:5173/**",
    "http://127.0.0.1:5173/**",
    "http://localhost:8787/**",
    "http://127.0.0.1:8787/**",
  ] as string[],
};

/** The project's password reset email (supabase/config.toml names the same file for the hosted project). */
export const projectRecoveryTemplate = readFileSync(join(import.meta.dirname, "..", "templates", "recovery.html"), "utf8");

export type StackConfig = {
  port: number;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  siteUrl: string;
  redirectAllowList: string[];
  // the base URL clients use, e.g. http://127.0.0.1:54321
  publicUrl: string;
  // the CLI sets it so services may print what a developer needs to see (e.g. outbox links)
  verbose?: boolean;
  // the reset email's HTML with GoTrue's template variables; GoTrue's default (a /verify link) when absent
  recoveryTemplate?: string;
  // X-Forwarded-For is believed only with this secret in X-Forwarded-Secret (the proxy in front, if any)
  forwardedSecret?: string;
  // /signup per client address per five minutes (30 when absent), /recover per address per hour (30)
  signUpRateLimit?: { perFiveMinutes: number };
  recoveryRateLimit?: { perHour: number };
  // /token requests per client address per five minutes; GoTrue's default when absent
  tokenRateLimit?: { perFiveMinutes: number };
  // Turnstile's secret (GoTrue's captcha protection): sign-in, sign-up and recovery then need its token
  captchaSecret?: string;
};
