// The local stack's Edge Functions: supabase/functions/<name> run by Deno from node_modules, called
// through the real supabase-js.
import { createClient, FunctionsHttpError } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFunctions, signJwt, startTestStack, createUser } from "../testing.ts";
import type { LocalStack } from "../server.ts";

let local: LocalStack;

beforeAll(async () => {
  local = await startTestStack({ seed: false });
});

afterAll(async () => {
  await stopFunctions(local.stack);
  await local?.close();
});

function clientWith(token?: string) {
  return createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
}

describe("functions", () => {
  it("runs a function for a visitor (the anon key)", async () => {
    const { data, error } = await clientWith().functions.invoke("health");
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: "ok", user_id: null });
    expect(Date.parse(data.time)).not.toBeNaN();
  });

  it("hands the caller's JWT to the function, which reads the user with it", async () => {
    // Without a session id: Auth would look up a session that this minted token never had.
    const {
      id,
      claims: { session_id, ...claims },
    } = await createUser(local.stack.db, {});
    const token = signJwt(claims, local.stack.config.jwtSecret);
    const { data, error } = await clientWith(token).functions.invoke("health", { body: { hello: "world" } });
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: "ok", user_id: id });
  });

  it("answers 404 for a function that does not exist, and for shared code", async () => {
    for (const name of ["no-such-function", "_shared"]) {
      const { error } = await clientWith().functions.invoke(name);
      expect(error).toBeInstanceOf(FunctionsHttpError);
      const response = (error as FunctionsHttpError).context as Response;
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: "NOT_FOUND", message: "Requested function was not found" });
    }
  });

  it("refuses a call without a valid JWT, as the gateway does", async () => {
    const missing = await fetch(`${local.url}/functions/v1/health`);
    expect(missing.status).toBe(401);
    const forged = signJwt({ role: "anon" }, "not-the-project-secret-at-least-32-chars");
    const invalid = await fetch(`${local.url}/functions/v1/health`, { headers: { Authorization: `Bearer ${forged}` } });
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toEqual({ msg: "Invalid JWT" });
  });
});
