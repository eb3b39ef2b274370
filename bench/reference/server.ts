/**
 * The benchmark's reference: a plain node:http server doing by hand what the app's invocation core
 * does for the four benchmark endpoints (bench/fixtures.ts), with the same drivers and the same
 * round trips, and nothing else: no framework, no definitions, no validation layers.
 *
 * Per call, like lib/endpoints/invoke/invoke-endpoint.ts:
 * - one Redis GET of the project generation key (lib/projects/project-generation.ts);
 * - the rate limit: the sliding window's script as the app runs it (one EVALSHA of the same Lua
 *   script, same key layout, lib/kv/redis/redis-sliding-window-rate-limiter.ts) over ioredis, keyed by
 *   the client IP from x-real-ip, 60 a minute;
 * - cached GET: one Redis GET of the cached answer (a miss runs the work and SETs it with PX);
 * - uncached GET: the record store's page query and one findByIds for the expanded relation (the
 *   SQL of lib/records/postgres), the JMESPath transform compiled once, JSON out;
 * - POST intake: the body read (≤ 100 KB) and parsed, the condition, and for a valid submission the
 *   record INSERT, through the app's own write batcher (lib/batching/write-batcher.ts) as the record
 *   store sends it: alone while fewer than four statements of the table run, else one multi-row INSERT;
 * - after the response: the execution log, written as lib/flow/execution-log/log-write-queue.ts
 *   writes it: one multi-row INSERT (at most 200 entries) at a time, the entries of one turn together,
 *   so that the logs are stored as the calls are answered and not after the measured window.
 *
 * Configuration (environment): PORT, REDIS_URL, CUSTOMER_DATABASE_URL, BENCH_REFERENCE_CONFIG
 * (JSON: {projectId, endpoints: {cached|uncached|intake: {id, slug}}}), KV_KEY_PREFIX (the app's,
 * default "fp:").
 */
import http from "node:http";
import pg from "pg";
import { Redis } from "ioredis";
import { compile, TreeInterpreter, type JSONValue } from "@jmespath-community/jmespath";
import { SLIDING_WINDOW_SCRIPT } from "@/lib/kv/redis/redis-sliding-window-rate-limiter";
import { newId } from "@/lib/ids";
import { SERVER_KEEP_ALIVE_MS } from "@/lib/http/keep-alive";
import { createWriteBatcher, RECORD_INSERT_BATCHING } from "@/lib/batching/write-batcher";
import { CACHE_SECONDS, PAGE_SIZE, TICKETS_TRANSFORM, type EndpointKey } from "../fixtures";
import { insertManyStatementText, insertStatementText } from "../records/records-statements";
import { readBody } from "./read-body";

interface ReferenceConfig {
  projectId: string;
  endpoints: Record<EndpointKey, { id: string; slug: string }>;
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const config = JSON.parse(requiredEnv("BENCH_REFERENCE_CONFIG")) as ReferenceConfig;
const port = Number(requiredEnv("PORT"));

const redis = new Redis(requiredEnv("REDIS_URL"), { maxRetriesPerRequest: 0 });
/** The app's key prefix (KV_KEY_PREFIX), so that both use the same keys. */
const KEY_PREFIX = process.env.KV_KEY_PREFIX || "fp:";
const pool = new pg.Pool({ connectionString: requiredEnv("CUSTOMER_DATABASE_URL"), max: 5, idleTimeoutMillis: 30_000 });
pool.on("error", (error) => console.error("[reference] idle connection failed:", error.message));

const RATE_LIMIT = 60;
const WINDOW_MS = 60_000;
redis.defineCommand("slidingWindow", { numberOfKeys: 2, lua: SLIDING_WINDOW_SCRIPT });
const scripts = redis as Redis & { slidingWindow(...args: Array<string | number>): Promise<[number, number]> };

/** The app's sliding window (two buckets, keys `<prefix>rl:<windowMs>:<key>:<bucket>`), one EVALSHA. */
async function rateLimit(key: string): Promise<{ success: boolean; remaining: number; reset: number }> {
  const now = Date.now();
  const bucket = Math.floor(now / WINDOW_MS);
  const identifier = `${KEY_PREFIX}rl:${WINDOW_MS}:${key}`;
  const [remaining] = await scripts.slidingWindow(`${identifier}:${bucket}`, `${identifier}:${bucket - 1}`, RATE_LIMIT, now, WINDOW_MS, 1);
  return { success: remaining >= 0, remaining, reset: (bucket + 1) * WINDOW_MS };
}

const transform = compile(TICKETS_TRANSFORM);
const GENERATION_KEY = `${KEY_PREFIX}c:prj-gen:${config.projectId}`;
const CACHE_KEY = `${KEY_PREFIX}c:resp:${config.endpoints.cached.id}:ref:`;
const JSON_TYPE = "application/json; charset=utf-8";
const PREVIEW_MAX_CHARS = 2_000;

// The statements lib/records/postgres/sql-record-store.ts issues for these calls.
const PAGE_SQL = `SELECT doc FROM "flowpoint_records"."tickets" WHERE TRUE ORDER BY (doc->>'createdAt') COLLATE "C" DESC, id DESC LIMIT $1`;
const BY_IDS_SQL = `SELECT doc FROM "flowpoint_records"."authors" WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))`;
const INSERT_SUBMISSION_SQL = insertStatementText("submissions");
const INSERT_SUBMISSIONS_SQL = insertManyStatementText("submissions");
const INSERT_EXECUTIONS_SQL = insertManyStatementText("_executions");
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Headers = Record<string, string>;
type Doc = Record<string, unknown>;

interface StepLog {
  index: number;
  name: string | null;
  type: string;
  status: string;
  durationMs: number;
  output: unknown;
}

const routes = new Map<string, { key: EndpointKey; id: string; slug: string; method: string }>();
for (const [key, endpoint] of Object.entries(config.endpoints) as [EndpointKey, { id: string; slug: string }][]) {
  const method = key === "intake" ? "POST" : "GET";
  routes.set(`${method} /api/projects/${config.projectId}/fn/${endpoint.slug}`, { key, ...endpoint, method });
}

function send(res: http.ServerResponse, status: number, headers: Headers, body: string): void {
  res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function clientIp(req: http.IncomingMessage): string {
  const header = req.headers["x-real-ip"];
  const value = Array.isArray(header) ? header.join(",") : header;
  return value?.split(",").pop()?.trim() || req.socket.remoteAddress || "unknown";
}

function preview(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = JSON.stringify(value);
  return text.length > PREVIEW_MAX_CHARS ? text.slice(0, PREVIEW_MAX_CHARS) : text;
}

/** The execution log, written after the response like the app's waitUntil. */
function writeLog(
  route: { id: string; slug: string; method: string },
  executionId: string,
  startedAt: Date,
  started: number,
  outcome: string,
  status: number,
  steps: StepLog[],
  body: unknown,
): void {
  const now = new Date().toISOString();
  const entry = {
    id: executionId,
    source: "endpoint",
    endpointId: route.id,
    automationId: null,
    method: route.method,
    slug: route.slug,
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - started,
    outcome,
    httpStatus: status,
    error: null,
    steps: steps.map(({ output, ...step }) => ({
      ...step,
      error: outcome === "stopped" && step.status === "stopped" ? "condition not met" : null,
      outputPreview: preview(output),
    })),
    request: { query: {}, body: preview(body) },
    createdAt: now,
    updatedAt: now,
  };
  void logInserts.add("_executions", entry).catch((error: Error) => console.error("[reference] execution logs failed:", error.message));
}

const submissionInserts = createWriteBatcher<Doc>({
  ...RECORD_INSERT_BATCHING,
  runAlone: async (record) => void (await pool.query(INSERT_SUBMISSION_SQL, [record.id, JSON.stringify(record)])),
  runBatch: async (records) => void (await pool.query(INSERT_SUBMISSIONS_SQL, [JSON.stringify(records)])),
  // The reference answers 500 to any failed insert; no per-record answers to tell apart.
  failsEveryItem: () => true,
});

// One batch at a time, the entries of a turn together, always the insertMany statement: the app's log queue.
const insertLogs = async (entries: readonly Doc[]) => void (await pool.query(INSERT_EXECUTIONS_SQL, [JSON.stringify(entries)]));
const logInserts = createWriteBatcher<Doc>({ runAlone: (entry) => insertLogs([entry]), runBatch: insertLogs, failsEveryItem: () => true, maxInFlight: 1 });

async function ticketsList(): Promise<{ list: unknown; steps: StepLog[] }> {
  const queryStarted = performance.now();
  const page = await pool.query<{ doc: Doc }>(PAGE_SQL, [PAGE_SIZE]);
  const tickets = page.rows.map((row) => row.doc);
  const authorIds = [...new Set(tickets.map((ticket) => ticket.author).filter((id): id is string => typeof id === "string"))];
  const byId = new Map<string, Doc>();
  if (authorIds.length > 0) {
    const authors = await pool.query<{ doc: Doc }>(BY_IDS_SQL, [JSON.stringify(authorIds)]);
    for (const row of authors.rows) byId.set(row.doc.id as string, row.doc);
  }
  const expanded = tickets.map((ticket) => ({ ...ticket, expand: { author: typeof ticket.author === "string" ? (byId.get(ticket.author) ?? null) : null } }));
  const transformStarted = performance.now();
  const context = { body: {}, query: {}, user: null, trigger: {}, steps: { tickets: expanded } };
  const list = TreeInterpreter.search(transform, context as unknown as JSONValue);
  const done = performance.now();
  return {
    list,
    steps: [
      { index: 0, name: "tickets", type: "query", status: "ok", durationMs: transformStarted - queryStarted, output: expanded },
      { index: 1, name: "list", type: "transform", status: "ok", durationMs: done - transformStarted, output: list },
    ],
  };
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (path === "/health") return send(res, 200, { "content-type": JSON_TYPE }, '{"status":"ok"}');
  const route = routes.get(`${req.method} ${path}`);
  if (!route) return send(res, 404, { "content-type": JSON_TYPE }, '{"error":"not found"}');

  await redis.get(GENERATION_KEY);
  const limit = await rateLimit(`inv:${route.id}:ip:${clientIp(req)}`);
  const headers: Headers = {
    "x-ratelimit-limit": String(RATE_LIMIT),
    "x-ratelimit-remaining": String(Math.max(0, limit.remaining)),
    "x-ratelimit-reset": String(Math.ceil(limit.reset / 1000)),
  };
  if (!limit.success) {
    return send(
      res,
      429,
      { ...headers, "content-type": JSON_TYPE, "retry-after": String(Math.max(1, Math.ceil((limit.reset - Date.now()) / 1000))) },
      '{"error":"rate limit exceeded"}',
    );
  }

  const executionId = newId("execution");
  const startedAt = new Date();
  const started = performance.now();

  if (route.key === "cached") {
    const cacheControl = `public, max-age=${CACHE_SECONDS}`;
    const raw = await redis.get(CACHE_KEY);
    if (raw !== null) {
      // The app's entry format (lib/endpoints/invoke/response-cache.ts): a JSON head line, then the body.
      const split = raw.indexOf("\n");
      const cached = JSON.parse(raw.slice(0, split)) as { status: number; contentType: string; headers: Headers };
      return send(res, cached.status, { ...cached.headers, ...headers, "cache-control": cacheControl, "x-cache": "hit", "content-type": cached.contentType }, raw.slice(split + 1));
    }
    const { list, steps } = await ticketsList();
    const body = JSON.stringify(list);
    await redis.set(CACHE_KEY, `${JSON.stringify({ status: 200, contentType: JSON_TYPE, headers: {} })}\n${body}`, "PX", CACHE_SECONDS * 1000);
    send(res, 200, { ...headers, "x-execution-id": executionId, "cache-control": cacheControl, "x-cache": "miss", "content-type": JSON_TYPE }, body);
    return writeLog(route, executionId, startedAt, started, "completed", 200, steps, {});
  }

  if (route.key === "uncached") {
    const { list, steps } = await ticketsList();
    send(res, 200, { "cache-control": "no-store", ...headers, "x-execution-id": executionId, "content-type": JSON_TYPE }, JSON.stringify(list));
    return writeLog(route, executionId, startedAt, started, "completed", 200, steps, {});
  }

  const text = await readBody(req);
  if (text === null) return send(res, 413, { ...headers, "content-type": JSON_TYPE }, '{"error":"request body is too large"}');
  let body: Doc;
  try {
    body = text === "" ? {} : (JSON.parse(text) as Doc);
  } catch {
    return send(res, 400, { ...headers, "content-type": JSON_TYPE }, '{"error":"request body is not valid JSON"}');
  }
  const conditionStarted = performance.now();
  if (body.email === undefined || body.email === null || body.name === undefined || body.name === null) {
    const steps: StepLog[] = [
      { index: 0, name: null, type: "condition", status: "stopped", durationMs: performance.now() - conditionStarted, output: null },
      { index: 1, name: "created", type: "create", status: "skipped", durationMs: 0, output: null },
    ];
    send(res, 422, { "cache-control": "no-store", ...headers, "x-execution-id": executionId, "content-type": JSON_TYPE }, '{"error":"condition not met"}');
    return writeLog(route, executionId, startedAt, started, "stopped", 422, steps, body);
  }
  const createStarted = performance.now();
  const { name, email, message } = body;
  if (typeof name !== "string" || typeof email !== "string" || !EMAIL.test(email) || (message !== undefined && typeof message !== "string")) {
    return send(res, 500, { ...headers, "content-type": JSON_TYPE }, JSON.stringify({ error: "endpoint execution failed", executionId }));
  }
  const now = new Date().toISOString();
  const record = { id: newId("record"), name, email, ...(message === undefined ? {} : { message }), createdAt: now, updatedAt: now };
  await submissionInserts.add("submissions", record);
  const steps: StepLog[] = [
    { index: 0, name: null, type: "condition", status: "ok", durationMs: createStarted - conditionStarted, output: null },
    { index: 1, name: "created", type: "create", status: "ok", durationMs: performance.now() - createStarted, output: record },
  ];
  send(res, 201, { "cache-control": "no-store", ...headers, "x-execution-id": executionId, "content-type": JSON_TYPE }, JSON.stringify(record));
  writeLog(route, executionId, startedAt, started, "completed", 201, steps, body);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error("[reference] request failed:", error instanceof Error ? error.message : error);
    if (!res.headersSent) send(res, 500, { "content-type": JSON_TYPE }, '{"error":"internal error"}');
  });
});
server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
server.listen(port, "127.0.0.1", () => console.log(`reference listening on http://127.0.0.1:${port}`));

const shutdown = () => {
  server.close();
  server.closeIdleConnections();
  // Let the last execution-log inserts finish before the pool closes.
  setTimeout(() => {
    void pool.end().finally(() => {
      redis.disconnect();
      process.exit(0);
    });
  }, 500);
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
