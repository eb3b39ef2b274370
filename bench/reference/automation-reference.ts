/**
 * The automation benchmark's reference (issue 10): the design the app's automation path is measured
 * against, by hand, with nothing else.
 *
 * - `server`: a plain node:http server. `POST /records/events` reads the JSON body, INSERTs the
 *   record (the record store's table layout: `id text PRIMARY KEY, doc jsonb`, an index on
 *   createdAt), enqueues one BullMQ job carrying the record (the job id is the event's, so a job
 *   queued twice runs once) and answers 201 with the record. No authentication, no schema, no
 *   validation, no trigger lookup. `POST /records/events?queue=off` answers after the INSERT and
 *   queues nothing: the write check's measure of what the enqueue costs this design's writes.
 * - `worker`: a BullMQ worker, concurrency 20, that per job notes the start time and INSERTs one row
 *   (`runs`: the source record's id and the start), the counterpart of the app's Create step plus
 *   execution log.
 *
 * Tables live in the customer database's `bench_reference` schema, apart from the app's records.
 * Environment: ROLE via argv[2] (server | worker), PORT (server), CUSTOMER_DATABASE_URL, REDIS_URL,
 * BENCH_REFERENCE_PREFIX (BullMQ key prefix; the benchmark deletes its keys afterwards).
 */
import http from "node:http";
import pg from "pg";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { newId } from "@/lib/ids";
import { SERVER_KEEP_ALIVE_MS } from "@/lib/http/keep-alive";
import { REFERENCE_QUEUE, REFERENCE_SCHEMA } from "../automations/names";
import { readBody } from "./read-body";

const WORKER_CONCURRENCY = 20;
// The app's BullMQ settings for completed and failed jobs (bullmq-automation-queue.ts).
const KEEP_COMPLETED = { age: 3_600, count: 100_000 };
const KEEP_FAILED = { age: 7 * 24 * 3_600, count: 10_000 };

interface ReferenceJob {
  eventId: string;
  trigger: { event: "create"; schema: "events"; record: Record<string, unknown> };
  queuedAt: string;
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const TABLES = ["events", "runs"] as const;

async function createTables(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${REFERENCE_SCHEMA}`);
  for (const table of TABLES) {
    await pool.query(`CREATE TABLE IF NOT EXISTS ${REFERENCE_SCHEMA}.${table} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`);
    await pool.query(`CREATE INDEX IF NOT EXISTS ${table}_created_at ON ${REFERENCE_SCHEMA}.${table} ((doc->>'createdAt') COLLATE "C", id)`);
  }
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function startServer(pool: pg.Pool, connection: Redis, prefix: string): Promise<() => Promise<void>> {
  const queue = new Queue<ReferenceJob>(REFERENCE_QUEUE, { connection, prefix });
  const insert = `INSERT INTO ${REFERENCE_SCHEMA}.events (id, doc) VALUES ($1, $2::jsonb)`;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const [path, query] = (req.url ?? "/").split("?");
    if (path === "/health") return send(res, 200, '{"status":"ok"}');
    if (req.method !== "POST" || path !== "/records/events") return send(res, 404, '{"error":"not found"}');
    const text = await readBody(req);
    if (text === null) return send(res, 413, '{"error":"request body is too large"}');
    let values: Record<string, unknown>;
    try {
      values = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return send(res, 400, '{"error":"request body is not valid JSON"}');
    }
    const now = new Date().toISOString();
    const record = { id: newId("record"), ...values, createdAt: now, updatedAt: now };
    await pool.query(insert, [record.id, JSON.stringify(record)]);
    if (query === "queue=off") return send(res, 201, JSON.stringify(record));
    const eventId = newId("event");
    await queue.add(
      "record",
      { eventId, trigger: { event: "create", schema: "events", record }, queuedAt: new Date().toISOString() },
      { jobId: `record-${eventId}`, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED },
    );
    send(res, 201, JSON.stringify(record));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[automation reference] request failed:", error instanceof Error ? error.message : error);
      if (!res.headersSent) send(res, 500, '{"error":"internal error"}');
    });
  });
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  const port = Number(requiredEnv("PORT"));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  console.log(`automation reference server listening on http://127.0.0.1:${port}`);
  return async () => {
    server.close();
    server.closeIdleConnections();
    await queue.close();
  };
}

function startWorker(pool: pg.Pool, connection: Redis, prefix: string): () => Promise<void> {
  const insert = `INSERT INTO ${REFERENCE_SCHEMA}.runs (id, doc) VALUES ($1, $2::jsonb)`;
  const worker = new Worker<ReferenceJob>(
    REFERENCE_QUEUE,
    async (job) => {
      const startedAt = new Date().toISOString();
      const { record } = job.data.trigger;
      const id = newId("record");
      const doc = { id, sourceId: record.id, n: record.n, label: record.label, startedAt, createdAt: startedAt, updatedAt: startedAt };
      await pool.query(insert, [id, JSON.stringify(doc)]);
    },
    { connection, prefix, concurrency: WORKER_CONCURRENCY },
  );
  worker.on("error", (error) => console.error("[automation reference worker]", error.message));
  console.log(`automation reference worker started (concurrency ${WORKER_CONCURRENCY})`);
  return () => worker.close();
}

async function main(): Promise<void> {
  const role = process.argv[2];
  if (role !== "server" && role !== "worker") throw new Error("usage: tsx bench/reference/automation-reference.ts server|worker");
  // The app's record store and execution logs share one pool of 5 per customer database and process.
  const pool = new pg.Pool({ connectionString: requiredEnv("CUSTOMER_DATABASE_URL"), max: 5, idleTimeoutMillis: 30_000 });
  pool.on("error", (error) => console.error("[automation reference] idle connection failed:", error.message));
  await createTables(pool);
  const connection = new Redis(requiredEnv("REDIS_URL"), { maxRetriesPerRequest: null });
  const prefix = requiredEnv("BENCH_REFERENCE_PREFIX");
  const stop = role === "server" ? await startServer(pool, connection, prefix) : startWorker(pool, connection, prefix);
  const shutdown = () => {
    void stop()
      .catch(() => undefined)
      .finally(() => {
        void pool.end().finally(() => {
          connection.disconnect();
          process.exit(0);
        });
      });
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
