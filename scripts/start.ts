// `npm start`: build when needed, then serve the production build through workerd at PORT (3000).
import { buildIfStale, serveApp } from "./lib/app-server.ts";

const port = Number(process.env.PORT ?? 3000);

buildIfStale();
const app = await serveApp({ port, quiet: true });
console.log(`\nThe marketplace is running at http://localhost:${port}\nPress Ctrl-C to stop.\n`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  console.log("\nStopping…");
  await app.stop();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
