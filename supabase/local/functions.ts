// Edge Functions: `/functions/v1/<name>` runs `supabase/functions/<name>/index.ts` with Deno from the
// project's node_modules, offline. Each function gets one long-lived Deno process, started on its first
// call, with the environment Supabase's Edge Runtime gives (SUPABASE_URL, SUPABASE_ANON_KEY,
// SUPABASE_SERVICE_ROLE_KEY, plus the secrets in supabase/functions/.env); requests are proxied to it.
// Like `supabase functions serve`, an edit under supabase/functions takes effect on the next call.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseEnv } from "node:util";
import { json, type Stack } from "./context.ts";
import { verifyJwt } from "./jwt.ts";

const functionsDir = fileURLToPath(new URL("../functions/", import.meta.url));
const runner = fileURLToPath(new URL("./deno-runner.ts", import.meta.url));
const deno = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));
const bootTimeoutMs = 30_000;

type FunctionWorker = { port: number; process: ChildProcess };

type Running = { worker: Promise<FunctionWorker>; startedAt: number };

const workersByStack = new WeakMap<Stack, Map<string, Running>>();

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const name = subpath.split("/")[1] ?? "";
  // Folders starting with `_` (like `_shared`) hold code for functions, never a function.
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name) || !existsSync(entryOf(name))) {
    return json({ code: "NOT_FOUND", message: "Requested function was not found" }, 404);
  }
  if (req.method !== "OPTIONS") {
    const refusal = checkJwt(req, stack);
    if (refusal) return refusal;
  }

  let worker: FunctionWorker;
  try {
    worker = await workerFor(stack, name);
  } catch {
    return json({ code: "BOOT_ERROR", message: "Worker failed to boot (please check logs)" }, 503);
  }
  return proxy(req, worker.port, subpath);
}

// Ends every function process of this stack; the stack calls it when it closes.
export async function stopFunctions(stack: Stack): Promise<void> {
  const running = workersByStack.get(stack);
  if (!running) return;
  workersByStack.delete(stack);
  await Promise.all(
    [...running.values()].map(({ worker }) =>
      worker.then(
        (w) => endProcess(w.process),
        () => {},
      ),
    ),
  );
}

// Like the hosted gateway with verify_jwt on (the default): the caller must present a JWT signed with the
// project's secret; the anon key counts. Replies in the shape Supabase's local functions gateway uses.
function checkJwt(req: Request, stack: Stack): Response | null {
  const authorization = req.headers.get("authorization");
  if (!authorization) return json({ msg: "Error: Missing authorization header" }, 401);
  const [scheme, token] = authorization.split(" ");
  if (scheme !== "Bearer") return json({ msg: "Error: Auth header is not 'Bearer {token}'" }, 401);
  try {
    verifyJwt(token ?? "", stack.config.jwtSecret);
    return null;
  } catch {
    return json({ msg: "Invalid JWT" }, 401);
  }
}

async function proxy(req: Request, port: number, subpath: string): Promise<Response> {
  const headers = new Headers(req.headers);
  headers.delete("host");
  // Uncompressed, so the body can be passed on as it comes without re-encoding.
  headers.set("accept-encoding", "identity");
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  try {
    // Like the Edge Runtime, the function sees its own name as the first path segment.
    const answer = await fetch(`http://127.0.0.1:${port}${subpath}${new URL(req.url).search}`, {
      method: req.method,
      headers,
      body: hasBody ? req.body : undefined,
      redirect: "manual",
      signal: req.signal,
      ...(hasBody ? { duplex: "half" } : {}),
    });
    const { status, statusText, headers: answerHeaders } = answer;
    return new Response(answer.body, { status, statusText, headers: answerHeaders });
  } catch {
    return json({ code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" }, 500);
  }
}

function workerFor(stack: Stack, name: string): Promise<FunctionWorker> {
  let byName = workersByStack.get(stack);
  if (!byName) workersByStack.set(stack, (byName = new Map()));
  const running = byName.get(name);
  if (running && lastEdit() < running.startedAt) return running.worker;
  // Older code than what is on disk: replaced.
  running?.worker.then(
    (old) => endProcess(old.process),
    () => {},
  );

  const startedAt = Date.now();
  const started: Running = { worker: startWorker(stack, name), startedAt };
  byName.set(name, started);
  // A function that failed to boot or exited is started afresh on its next call.
  const forget = () => {
    if (byName.get(name) === started) byName.delete(name);
  };
  started.worker.then((worker) => worker.process.once("exit", forget), forget);
  return started.worker;
}

function startWorker(stack: Stack, name: string): Promise<FunctionWorker> {
  const child = spawn(
    deno,
    // No lock file: it would be written into supabase/functions, and deployment resolves afresh anyway.
    [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--no-prompt",
      "--no-lock",
      // npm packages from the project's node_modules, so the local stack needs no network. Said here, not in
      // deno.json: the CLI bundles the functions without our node_modules, resolving the imports afresh.
      "--node-modules-dir=manual",
      "--config",
      join(functionsDir, "deno.json"),
      runner,
      pathToFileURL(entryOf(name)).href,
    ],
    { cwd: join(functionsDir, name), env: functionEnv(stack), stdio: ["pipe", "pipe", "pipe"] },
  );
  // Never keep the stack's own process alive; the runner exits when our end of its stdin closes.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as Socket | null)?.unref();

  // What the function printed while booting, shown if it fails to boot.
  let bootLog: string[] | null = [];
  const print = (line: string) => {
    bootLog?.push(line);
    if (stack.config.verbose) console.log(`[functions/${name}] ${line}`);
  };
  createInterface({ input: child.stderr! }).on("line", print);

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.removeAllListeners("close").removeAllListeners("error").kill();
      console.error(`[functions/${name}] ${reason}\n${bootLog?.join("\n")}`);
      reject(new Error(reason));
    };
    const timer = setTimeout(() => fail("did not start listening in time"), bootTimeoutMs);
    timer.unref();
    child.once("error", (error) => fail(error.message));
    // 'close', not 'exit': by then everything it printed has been read.
    child.once("close", (code) => fail(`exited with code ${code} before listening`));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const listening = /^edge-function-listening-on-port (\d+)$/.exec(line);
      if (!listening) return print(line);
      clearTimeout(timer);
      child.removeAllListeners("close").removeAllListeners("error");
      bootLog = null;
      resolve({ port: Number(listening[1]), process: child });
    });
  });
}

function functionEnv(stack: Stack): Record<string, string> {
  const secretsFile = join(functionsDir, ".env");
  const secrets = existsSync(secretsFile) ? parseEnv(readFileSync(secretsFile, "utf8")) : {};
  return {
    ...(secrets as Record<string, string>),
    SUPABASE_URL: stack.config.publicUrl,
    SUPABASE_ANON_KEY: stack.config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.config.serviceRoleKey,
    // Deno's own cache (transpiled modules); npm packages come from node_modules, so no network is needed.
    DENO_DIR: stack.dataDir ? join(stack.dataDir, "deno") : join(tmpdir(), "supabase-local-deno"),
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
  };
}

// When anything under supabase/functions (a function, or the shared code it imports) last changed.
function lastEdit(): number {
  const files = readdirSync(functionsDir, { recursive: true, encoding: "utf8" });
  const times = files.map((file) => statSync(join(functionsDir, file), { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return Math.max(0, ...times);
}

function entryOf(name: string): string {
  return join(functionsDir, name, "index.ts");
}

function endProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill();
  });
}
