// Builds the app when its sources are newer than the build, and serves the production build through
// workerd (`wrangler dev` on the build output), the way it runs on Cloudflare.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { dirname, join } from "node:path";
import type { LocalStack } from "@crate/local-supabase";

export const root = join(import.meta.dirname, "..", "..");
// Run the tools' scripts with this Node (the project's Node 24), whatever `node` is first on the PATH.
const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
const reactRouter = join(root, "node_modules", "@react-router", "dev", "bin.cjs");

const sources = [
  "app",
  "workers",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "wrangler.toml",
  "wrangler.media.toml",
  "package.json",
];
/** The built Workers' folders under build/: the page Worker, which serves, and the media Worker (the rendition queue's consumer). */
const builtWorkers = ["server", "media"] as const;
const builtEntries = builtWorkers.map((worker) => join(root, "build", worker, "index.js"));

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stat.mtimeMs);
}

export function buildIsStale(): boolean {
  if (!builtEntries.every((entry) => existsSync(entry))) return true;
  const built = Math.min(...builtEntries.map((entry) => statSync(entry).mtimeMs));
  return sources.some((source) => existsSync(join(root, source)) && newestChange(join(root, source)) > built);
}

export function buildIfStale(): void {
  if (!buildIsStale()) return;
  console.log("Building the app…");
  // Always a production build: the test runner sets NODE_ENV=test, which would otherwise bundle React's
  // development builds, and a later `npm start` or bench would reuse that build.
  const env = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync(process.execPath, [reactRouter, "build"], { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) throw new Error("The build failed");
}

/**
 * The environment for a local workerd (wrangler dev, or Vite's Cloudflare plugin). Locally nobody knows
 * where a request comes from, but Miniflare would stand in a fixed placeholder location (Austin, US) for
 * `request.cf`, and analytics would count every local play as American. It reads `request.cf` from the
 * file named here instead: an empty one, so the country stays unknown.
 */
export function localWorkerEnv(): NodeJS.ProcessEnv {
  const cf = join(root, "node_modules", ".cache", "marketplace", "cf.json");
  mkdirSync(dirname(cf), { recursive: true });
  // Written afresh each time: Miniflare ignores the file once it is 30 days old.
  writeFileSync(cf, "{}");
  return { ...process.env, CLOUDFLARE_CF_FETCH_PATH: cf };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export type AppServer = { url: string; stop(): Promise<void> };

/**
 * The Workers' variables for a local backend: its URL, its anon key, the site's address (`siteUrl`, where the
 * marketplace answers, which mail links to), and the Worker's secret, registered
 * in its database as the only one it trusts. A backend with a data folder keeps its secret there across
 * restarts (so a Worker still running from an earlier start goes on working); one in memory gets a new one.
 */
export async function workerVars(
  backend: LocalStack,
  { captchaSiteKey, siteUrl }: { captchaSiteKey?: string; siteUrl: string },
): Promise<Record<string, string>> {
  const kept = backend.stack.dataDir ? join(backend.stack.dataDir, "marketplace-secret") : null;
  const secret = kept && existsSync(kept) ? readFileSync(kept, "utf8").trim() : randomBytes(32).toString("hex");
  if (kept) writeFileSync(kept, secret, { mode: 0o600 });
  await backend.stack.db.query("delete from private.marketplace_secrets where secret_hash <> sha256(convert_to($1, 'UTF8'))", [secret]);
  await backend.stack.db.query("select private.trust_marketplace_secret($1)", [secret]);
  return {
    SUPABASE_URL: backend.url,
    SUPABASE_ANON_KEY: backend.anonKey,
    MARKETPLACE_SECRET: secret,
    // where the marketplace answers: every mail's links go there
    SITE_URL: siteUrl,
    ...(captchaSiteKey ? { TURNSTILE_SITE_KEY: captchaSiteKey } : {}),
  };
}

/**
 * Why a server cannot start on `port`, naming what already listens there (a marketplace left from a start
 * that was killed would otherwise answer in place of the new one); null when the port is free.
 */
async function portInUse(port: number, setting: string): Promise<string | null> {
  const free = await new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
  if (free) return null;
  const holder = portHolder(port);
  return `Port ${port} is already in use${holder ? ` by process ${holder.pid} (${holder.command})` : ""}. Stop it${holder ? ` (kill ${holder.pid})` : ""}, or choose another port with ${setting}.`;
}

/** Ends this process with the reason when any of the ports is taken. */
export async function requireFreePorts(ports: [port: number, setting: string][]): Promise<void> {
  for (const [port, setting] of ports) {
    const problem = await portInUse(port, setting);
    if (!problem) continue;
    console.error(problem);
    process.exit(1);
  }
}

/** The process listening on a TCP port, from /proc (Linux); null where that cannot be told. */
function portHolder(port: number): { pid: number; command: string } | null {
  try {
    const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
    const inodes = new Set(
      ["/proc/net/tcp", "/proc/net/tcp6"]
        .flatMap((table) => (existsSync(table) ? readFileSync(table, "utf8").split("\n").slice(1) : []))
        .map((line) => line.trim().split(/\s+/))
        // local address ends in the port; state 0A is LISTEN; the inode is the tenth column
        .filter((columns) => columns[1]?.endsWith(`:${hexPort}`) && columns[3] === "0A")
        .map((columns) => `socket:[${columns[9]}]`),
    );
    for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
      let descriptors: string[];
      try {
        descriptors = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      if (descriptors.some((fd) => inodes.has(safeReadlink(`/proc/${pid}/fd/${fd}`)))) {
        const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ").slice(0, 120);
        return { pid: Number(pid), command };
      }
    }
  } catch {
    // not Linux, or /proc not readable
  }
  return null;
}

function safeReadlink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "";
  }
}

// The keeper: leads the process group, starts the command in it, and ends the whole group when its stdin
// (a pipe from the process that started it) closes, which happens however that process ends, SIGKILL too.
const keeper = `
const { spawn } = require("node:child_process");
const [command, ...args] = JSON.parse(process.argv[1]);
const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
const endGroup = () => { try { process.kill(-process.pid, "SIGTERM"); } catch {} };
process.stdin.on("close", endGroup);
process.stdin.resume();
child.on("exit", (code) => process.exit(code ?? 1));
`;

/**
 * Starts a command in a process group of its own that dies with this process, even when this process is
 * killed hard (SIGKILL, which no handler sees): `stopProcess` ends the group as before.
 */
export function spawnTethered(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; output: "inherit" | "ignore" },
): ChildProcess {
  const child = spawn(process.execPath, ["-e", keeper, JSON.stringify([command, ...args])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", options.output, options.output],
    detached: true,
  });
  // The pipe only has to exist: it must not keep this process alive.
  (child.stdin as Socket | null)?.unref();
  return child;
}

/**
 * Serves the built Workers on `port` (the page Worker answers; the media Worker runs beside it in the same
 * workerd, consuming the queue the pages produce to); resolves once it answers. `vars` become both
 * Workers' environment.
 */
export async function serveApp({
  port,
  vars = {},
  quiet = false,
}: {
  port: number;
  vars?: Record<string, string>;
  quiet?: boolean;
}): Promise<AppServer> {
  // The build as it was when this server started, served from a copy of its own: `npm run build`
  // meanwhile empties and rewrites build/, and would take the running site's files away until a restart.
  const served = join(root, "node_modules", ".cache", "marketplace", `served-${port}`);
  rmSync(served, { recursive: true, force: true });
  cpSync(join(root, "build"), served, { recursive: true });
  const args = [wrangler, "dev"];
  for (const worker of builtWorkers) {
    // The variables written into each copy's config: `--var` would reach the first Worker only.
    const config = join(served, worker, "wrangler.json");
    const built = JSON.parse(readFileSync(config, "utf8")) as { vars?: Record<string, string> };
    writeFileSync(config, JSON.stringify({ ...built, vars: { ...built.vars, ...vars } }));
    args.push("--config", config);
  }
  // The debugger's port chosen here too: wrangler would try 9229 first, and two servers starting at once
  // would both take it, one failing.
  const inspectorPort = String(await freePort());
  args.push("--port", String(port), "--inspector-port", inspectorPort, "--ip", "127.0.0.1", "--show-interactive-dev-session=false");
  args.push("--log-level", quiet ? "error" : "info");
  const child = spawnTethered(process.execPath, args, {
    cwd: root,
    output: quiet ? "ignore" : "inherit",
    env: { ...localWorkerEnv(), WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(served, { recursive: true, force: true });
  };
  try {
    await waitForHttp(url, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/favicon.svg`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The app did not answer at ${url} within ${timeoutMs / 1000}s`);
}

/** A child's exit code once it ends (1 if it could not start or was ended by a signal). */
export function exitCodeOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once("error", () => resolve(1));
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/** Stops a child and everything it started (wrangler runs workerd as its own child). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const killTimer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(killTimer);
}
