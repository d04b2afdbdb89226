// The local servers `npm start` and `npm run dev` run (wrangler and its workerd, Vite) end with the
// process that started them, even when it is killed hard: a killed start left workerd serving the port.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { expect, it } from "vitest";

const appServer = pathToFileURL(join(import.meta.dirname, "..", "..", "scripts", "lib", "app-server.ts")).href;

/** Whether any process of the group is still running. */
function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

it("ends a tethered server's whole process group when its starter is killed with SIGKILL", async () => {
  const starter = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { spawnTethered } from ${JSON.stringify(appServer)};
       const server = spawnTethered(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { cwd: process.cwd(), env: process.env, output: "ignore" });
       console.log(server.pid);
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const { value: line } = await createInterface({ input: starter.stdout! })[Symbol.asyncIterator]().next();
  const group = Number(line);
  expect(group).toBeGreaterThan(0);
  expect(groupAlive(group)).toBe(true);

  starter.kill("SIGKILL");
  await expect.poll(() => groupAlive(group), { timeout: 10_000 }).toBe(false);
});
