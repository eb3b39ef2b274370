/**
 * Measures a bulk import through the records API: N records of a 5-field schema (one of them
 * unique) into a PostgreSQL customer database, streamed as NDJSON to
 * `POST /api/projects/:id/records/:schema/import` on the production server's records fast path
 * (server/route-request.ts → server/records-api.ts → the route handler, as `npm start` serves it;
 * no Next build needed). Prints one JSON line: records, seconds, records/s, the answer's counts.
 *
 *   npx tsx bench/import-records.ts [--records 100000] [--server postgres://postgres@127.0.0.1:5432]
 *                                   [--prefix bench_import] [--keep]
 *
 * It creates `<prefix>_platform` and `<prefix>_customer` on that server (dropped afterwards unless
 * --keep) and uses the in-memory key-value store. The NDJSON file is written before the clock
 * starts; the client streams it from disk in this same process (cheap next to the server's work).
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import pg from "pg";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "100000" },
    server: { type: "string", default: "postgres://postgres@127.0.0.1:5432" },
    prefix: { type: "string", default: "bench_import" },
    keep: { type: "boolean", default: false },
  },
});
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1 || records > 1_000_000) throw new Error("--records must be a whole number from 1 to 1000000");
if (!/^[a-z_][a-z0-9_]*$/.test(values.prefix!)) throw new Error("--prefix must be a lowercase SQL identifier");

const serverUrl = new URL(values.server!);
const databaseUrl = (name: string) => Object.assign(new URL(serverUrl.toString()), { pathname: `/${name}` }).toString();
const platformDatabase = `${values.prefix}_platform`;
const customerDatabase = `${values.prefix}_customer`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl("postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function line(index: number): string {
  return JSON.stringify({
    name: `Customer ${index}`,
    email: `customer${index}@example.com`,
    age: 18 + (index % 60),
    status: ["lead", "active", "churned"][index % 3],
    joinedAt: new Date(Date.UTC(2020, 0, 1) + index * 60_000).toISOString(),
  });
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), "flowpoint-import-bench-"));
  for (const name of [platformDatabase, customerDatabase]) {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${name}"`);
  }
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl(platformDatabase),
    ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
    OUTBOUND_ALLOWED_HOSTS: `${serverUrl.hostname}:${serverUrl.port || 5432}`,
    DATA_DIR: workDir,
    AUTOMATION_WORKER: "off",
  });
  for (const name of ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"]) delete process.env[name];

  // Loaded after the environment is set: the configuration is read once.
  const { getRequestListener } = await import("@hono/node-server");
  const { createRequestRouter } = await import("@/server/route-request");
  const { createRecordsApiHandler } = await import("@/server/records-api");
  const { adapterResponseClass } = await import("@/server/adapter-response");
  const { migratePlatformDb, closePlatformDb } = await import("@/lib/platform-db/client");
  const { createUser } = await import("@/lib/accounts/create-user");
  const { createWorkspace } = await import("@/lib/workspaces/create-workspace");
  const { createProject } = await import("@/lib/projects/create-project");
  const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
  const { createSchema } = await import("@/lib/schemas/create-schema");
  const { getProjectRecordStore } = await import("@/lib/projects/get-project-record-store");
  const { closeAllRecordStores } = await import("@/lib/records/get-record-store");
  const { closeKv } = await import("@/lib/kv/get-kv");

  await migratePlatformDb();
  const owner = await createUser({ email: `import-bench-${Date.now()}@example.com`, password: randomBytes(16).toString("hex") });
  const workspace = await createWorkspace({ userId: owner.id, name: "Import bench" });
  const project = await createProject({
    workspaceId: workspace.id,
    actorId: owner.id,
    input: { name: "Import bench", database: { kind: "postgres", url: databaseUrl(customerDatabase) } },
  });
  const store = await getProjectRecordStore({ projectId: project.id });
  await createSchema({
    projectId: project.id,
    store,
    definition: {
      name: "customers",
      kind: "collection",
      fields: [
        { name: "name", type: "string", required: true },
        { name: "email", type: "email", unique: true },
        { name: "age", type: "integer" },
        { name: "status", type: "enum", values: ["lead", "active", "churned"] },
        { name: "joinedAt", type: "datetime" },
      ],
    },
  });
  const { key } = await createApiKey({ projectId: project.id, input: { name: "import bench", permissions: ["records.create", "records.read"] } });

  const file = path.join(workDir, "customers.ndjson");
  writeFileSync(file, Array.from({ length: records }, (_, index) => line(index)).join("\n") + "\n");

  const notFound = (_req: unknown, res: import("node:http").ServerResponse) => {
    res.statusCode = 404;
    res.end();
  };
  const server = createServer(
    createRequestRouter({
      handleInvocation: notFound,
      handleRecordsApi: getRequestListener(createRecordsApiHandler(adapterResponseClass()), { overrideGlobalObjects: false }),
      handleNext: notFound,
      invocationHost: null,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/api/projects/${project.id}/records/customers/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
    body: Readable.toWeb(createReadStream(file, { highWaterMark: 256 * 1024 })) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  const answer = (await response.json()) as { imported?: number; failedCount?: number; error?: string };
  const seconds = (performance.now() - started) / 1000;
  const stored = await store.count("customers");

  process.stdout.write(
    `${JSON.stringify({ records, status: response.status, imported: answer.imported, failedCount: answer.failedCount, error: answer.error, stored, seconds: Number(seconds.toFixed(2)), recordsPerSecond: Math.round(records / seconds) })}\n`,
  );

  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeAllRecordStores();
  await closeKv();
  await closePlatformDb();
  rmSync(workDir, { recursive: true, force: true });
  if (!values.keep) for (const name of [platformDatabase, customerDatabase]) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  if (response.status !== 200 || answer.imported !== records) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
