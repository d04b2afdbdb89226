// Runs one Edge Function under Deno the way Supabase's Edge Runtime does: the function's module calls
// `Deno.serve(handler)` and never chooses a port. Here that call binds to a free loopback port instead and
// announces it on stdout (the line functions.ts waits for), so the local stack can proxy
// `/functions/v1/<name>` to it.
// Usage: deno run … deno-runner.ts <file URL of the function's index.ts>

// This file is type-checked with the Node project (which has no Deno types) but runs under Deno.
type ServeHandler = (request: Request, info: unknown) => Response | Promise<Response>;
type ServeOptions = { handler?: ServeHandler; [option: string]: unknown };
declare const Deno: {
  args: string[];
  stdin: { readable: ReadableStream<Uint8Array> };
  exit(code: number): never;
  serve(options: ServeOptions): unknown;
};

const serve = Deno.serve;

Deno.serve = (first: ServeOptions | ServeHandler, second?: ServeHandler) => {
  const options = typeof first === "function" ? {} : first;
  const handler = typeof first === "function" ? first : (second ?? first.handler);
  return serve({
    ...options,
    handler,
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }: { port: number }) => console.log(`edge-function-listening-on-port ${port}`),
  });
};

// The stack holds our stdin open for as long as it runs; when it ends, however abruptly, so do we.
Deno.stdin.readable.pipeTo(new WritableStream()).finally(() => Deno.exit(0));

await import(Deno.args[0]);
