// A marketplace (lib/marketplace.ts) in a process of its own: its local backend runs PGlite on its process's
// one thread, so marketplaces side by side (one per worker of the browser suite) each need a process. The
// process stops its marketplace and ends when the one that started it disconnects, however that one ends.
import { fork } from "node:child_process";
import { startMarketplace, type Marketplace } from "./marketplace.ts";

/** Where a marketplace answers, and its keys: everything but `stop`, which stays with its process. */
export type MarketplaceAddresses = Omit<Marketplace, "stop">;

/** Starts a marketplace with the demo data and media in a new process; resolves once it answers. */
export async function forkMarketplace(): Promise<MarketplaceAddresses & { stop(): Promise<void> }> {
  const child = fork(import.meta.filename, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const addresses = await new Promise<MarketplaceAddresses>((resolve, reject) => {
    child.once("message", (message) => resolve(message as MarketplaceAddresses));
    void ended.then(() => reject(new Error(`The marketplace's process ended (${child.exitCode ?? child.signalCode}) before it answered`)));
  });
  return {
    ...addresses,
    async stop() {
      if (child.connected) child.disconnect();
      await ended;
    },
  };
}

if (process.argv[1] === import.meta.filename && process.send) {
  const { stop, ...addresses } = await startMarketplace();
  process.once("disconnect", () => void stop().then(() => process.exit(0)));
  process.send(addresses);
}
