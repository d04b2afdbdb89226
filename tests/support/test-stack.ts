// A local stack on a fresh database for one test file: embedded PGlite in memory, or, when
// TEST_DATABASE_URL names a PostgreSQL server (CI runs the suite against PostgreSQL 15 too), a new
// database there that is dropped afterwards.
import pg from "pg";
import { startLocalStack, type LocalStack } from "../../supabase/local/server.ts";

type Options = Omit<NonNullable<Parameters<typeof startLocalStack>[0]>, "memory" | "databaseUrl" | "dataDir" | "port">;

export async function startTestStack(options: Options = {}): Promise<LocalStack> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return startLocalStack({ port: 0, memory: true, ...options });

  const name = `test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  await server.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dropDatabase = async () => {
    await server.query(`drop database if exists ${name} with (force)`);
    await server.end();
  };
  try {
    const local = await startLocalStack({ port: 0, dataDir: null, databaseUrl: url.toString(), ...options });
    return {
      ...local,
      async close() {
        await local.close();
        await dropDatabase();
      },
    };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}
