// A throwaway PostgreSQL 15 server for tests and benchmarks: Debian's postgresql-15 binaries, a new
// cluster in a fresh temp dir, trust auth, listening on a free port on 127.0.0.1 only, durability turned
// off for speed. `stop()` stops the server and removes the temp dir; so does the process exiting or a
// SIGINT/SIGTERM/SIGHUP, if `stop()` was never called.
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./app-server.ts";

// Debian's package layout (apt-get install -y postgresql-15).
const binDir = "/usr/lib/postgresql/15/bin";
const initdb = join(binDir, "initdb");
const pgCtl = join(binDir, "pg_ctl");

export type ThrowawayPostgres = {
  /** a superuser URL: postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  stop(): Promise<void>;
};

const settings: Record<string, string> = {
  listen_addresses: "127.0.0.1",
  // durability is worthless for a throwaway cluster
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  // each test file's stack opens a pool of up to 10 connections plus a listener
  max_connections: "200",
  // a cluster of a few minutes never needs to checkpoint or autovacuum on schedule
  checkpoint_timeout: "1h",
  max_wal_size: "4GB",
  log_min_messages: "warning",
};

type Runner = { command: string; prefix: string[] };

// initdb and postgres refuse to run as root; as root, run them as `nobody`.
function runner(): Runner {
  if (process.getuid?.() !== 0) return { command: "", prefix: [] };
  return { command: "runuser", prefix: ["-u", "nobody", "--"] };
}

function commandLine(run: Runner, file: string, args: string[]): [string, string[]] {
  return run.command ? [run.command, [...run.prefix, file, ...args]] : [file, args];
}

function runSync(run: Runner, file: string, args: string[]): { ok: boolean; output: string } {
  const [command, argv] = commandLine(run, file, args);
  const result = spawnSync(command, argv, { encoding: "utf8", env: { ...process.env, LC_ALL: "C.UTF-8" } });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`;
  return { ok: result.status === 0, output };
}

function run(run: Runner, file: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  const [command, argv] = commandLine(run, file, args);
  return new Promise((resolve) => {
    const child = spawn(command, argv, { env: { ...process.env, LC_ALL: "C.UTF-8" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ ok: false, output: output + String(error) }));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
  });
}

function nobodyIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync("id", [flag, "nobody"], { encoding: "utf8" }).stdout.trim());
  const uid = id("-u");
  const gid = id("-g");
  if (!Number.isInteger(uid) || !Number.isInteger(gid))
    throw new Error("Running as root, but there is no `nobody` user to run PostgreSQL as");
  return { uid, gid };
}

function logTail(logFile: string): string {
  if (!existsSync(logFile)) return "";
  return readFileSync(logFile, "utf8").split("\n").slice(-30).join("\n");
}

async function acceptsConnections(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  for (const binary of [initdb, pgCtl, join(binDir, "postgres")]) {
    if (!existsSync(binary)) {
      throw new Error(`PostgreSQL 15 was not found (${binary} is missing). Install Debian's package: apt-get install -y postgresql-15`);
    }
  }

  const as = runner();
  const dir = mkdtempSync(join(tmpdir(), "marketplace-pg-"));
  const dataDir = join(dir, "data");
  const logFile = join(dir, "postgres.log");
  let stopped = false;
  let running = false;

  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  // Synchronous, for process exit and signals: nothing asynchronous runs after 'exit'.
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    if (running) runSync(as, pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "10"]);
    removeDir();
  };
  const onExit = () => stopSync();
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const onSignal = (signal: NodeJS.Signals) => {
    stopSync();
    unregister();
    // Nobody else handles this signal: let it end the process as it would have without us.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const unregister = () => {
    process.off("exit", onExit);
    for (const signal of signals) process.off(signal, onSignal);
  };
  process.on("exit", onExit);
  for (const signal of signals) process.on(signal, onSignal);

  try {
    if (as.command) {
      const { uid, gid } = nobodyIds();
      chownSync(dir, uid, gid);
    }
    const init = runSync(as, initdb, ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"]);
    if (!init.ok) throw new Error(`initdb failed:\n${init.output}`);

    // A free port can be taken between the check and the server binding it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-c unix_socket_directories='${dir}'`,
        ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
      ];
      running = true;
      const start = await run(as, pgCtl, ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", options.join(" ")]);
      if (start.ok) {
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        await acceptsConnections(url, 30_000);
        return {
          url,
          async stop() {
            if (stopped) return;
            stopped = true;
            unregister();
            const result = await run(as, pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
            if (!result.ok) runSync(as, pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "10"]);
            removeDir();
          },
        };
      }
      // pg_ctl gave up waiting, or the server failed: make sure nothing is left running before retrying
      runSync(as, pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "10"]);
      running = false;
      if (attempt === 3) throw new Error(`PostgreSQL did not start:\n${start.output}\n${logTail(logFile)}`);
    }
  } catch (error) {
    stopSync();
    unregister();
    throw error;
  }
}
