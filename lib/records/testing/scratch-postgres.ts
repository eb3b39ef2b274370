import { randomBytes } from "node:crypto";
import pg from "pg";

/** A freshly created database on the server of `serverUrl`, for one test file; drop() removes it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function runAdmin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await runAdmin(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => runAdmin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
