/**
 * The records benchmark's second reference, the **floor**: a plain node:http + pg server that gives
 * each scenario's answer with at most one SQL statement and nothing else — no rate limit, no
 * execution log, no definitions, no validation, no Redis. Its statements are the record store's own
 * (bench/records/records-statements.ts builds them with lib/records/postgres), so the same indexes
 * and plans serve both; the records API's page and capped total are folded into one statement.
 *
 * Routes (the app's paths, so the load generator sends the same requests):
 * - GET fn/<cached>: the answer of fn/<uncached>, computed on the first call and kept in memory
 *   (the least a cached answer costs);
 * - GET fn/<uncached>: the 50 newest tickets with their author's name (one statement with a join),
 *   shaped as the endpoint's transform shapes them;
 * - POST fn/<intake>: the body read and checked; 422, or one INSERT → 201 with the record;
 * - GET fn/<byOwner>?owner=O, fn/<openByDue>, fn/<inboxOpen>: the page, as stored;
 * - GET records/tickets?filter[owner]=O&perPage=100 and ?filter[status]=open&sort=-dueAt&perPage=50:
 *   `{data, meta: {page, perPage, total[, totalCapped]}}` like the records API.
 *
 * Configuration (environment): PORT, CUSTOMER_DATABASE_URL, FLOOR_CONFIG (JSON: {projectId, slugs:
 * {cached, uncached, intake, byOwner, openByDue, inboxOpen}}).
 */
import http from "node:http";
import pg from "pg";
import { newId } from "@/lib/ids";
import { SERVER_KEEP_ALIVE_MS } from "@/lib/http/keep-alive";
import { LIST_QUERY_LIMITS } from "@/lib/records-service/parse-list-query";
import { SELECTIVE_LIMIT, UNSELECTIVE_LIMIT } from "../records/records-fixtures";
import { insertStatementText, newestTicketsWithAuthorStatement, pageStatement, pageWithTotalStatement, valuesFor, type Statement } from "../records/records-statements";
import { readBody } from "./read-body";

interface FloorConfig {
  projectId: string;
  slugs: Record<"cached" | "uncached" | "intake" | "byOwner" | "openByDue" | "inboxOpen", string>;
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const config = JSON.parse(requiredEnv("FLOOR_CONFIG")) as FloorConfig;
const port = Number(requiredEnv("PORT"));
// The same pool size as the app's per-project pool.
const pool = new pg.Pool({ connectionString: requiredEnv("CUSTOMER_DATABASE_URL"), max: 5, idleTimeoutMillis: 30_000 });
pool.on("error", (error) => console.error("[floor] idle connection failed:", error.message));

const JSON_TYPE = "application/json; charset=utf-8";
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
type Doc = Record<string, unknown>;

const NEWEST_WITH_AUTHOR = newestTicketsWithAuthorStatement();
const BY_OWNER = pageStatement("byOwner");
const OPEN_BY_PRIORITY = pageStatement("openByDue");
const INBOX_OPEN = pageStatement("inboxOpen");
const BY_OWNER_WITH_TOTAL = pageWithTotalStatement("byOwner");
const OPEN_BY_PRIORITY_WITH_TOTAL = pageWithTotalStatement("openByDue");
const INSERT_SUBMISSION = insertStatementText("submissions");

const fnPrefix = `/api/projects/${config.projectId}/fn/`;
const recordsPath = `/api/projects/${config.projectId}/records/tickets`;
let cachedAnswer: string | null = null;

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function rows(statement: Statement, requestValue?: string): Promise<Doc[]> {
  return (await pool.query<Doc>(statement.text, valuesFor(statement, requestValue))).rows;
}

async function page(statement: Statement, requestValue?: string): Promise<string> {
  return JSON.stringify((await rows(statement, requestValue)).map((row) => row.doc));
}

async function pageWithTotal(statement: Statement, perPage: number, requestValue?: string): Promise<string> {
  const found = await rows(statement, requestValue);
  const total = Number(found[0]?.total ?? 0);
  const meta = total > LIST_QUERY_LIMITS.maxTotal ? { page: 1, perPage, total: LIST_QUERY_LIMITS.maxTotal, totalCapped: true } : { page: 1, perPage, total };
  return JSON.stringify({ data: found.map((row) => row.doc), meta });
}

/** Scenario 2's answer: what the endpoint's transform makes of the page with `author` expanded. */
async function newestTickets(): Promise<string> {
  const found = await rows(NEWEST_WITH_AUTHOR);
  return JSON.stringify(
    found.map((row) => {
      const doc = row.doc as Doc;
      return { id: doc.id, title: doc.title ?? null, status: doc.status ?? null, priority: doc.priority ?? null, author: row.name ?? null };
    }),
  );
}

async function intake(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const text = await readBody(req);
  if (text === null) return send(res, 413, '{"error":"request body is too large"}');
  let body: Doc;
  try {
    body = text === "" ? {} : (JSON.parse(text) as Doc);
  } catch {
    return send(res, 400, '{"error":"request body is not valid JSON"}');
  }
  const { name, email, message } = body;
  if (email === undefined || email === null || name === undefined || name === null) return send(res, 422, '{"error":"condition not met"}');
  if (typeof name !== "string" || typeof email !== "string" || !EMAIL.test(email) || (message !== undefined && typeof message !== "string")) {
    return send(res, 500, '{"error":"endpoint execution failed"}');
  }
  const now = new Date().toISOString();
  const record = { id: newId("record"), name, email, ...(message === undefined ? {} : { message }), createdAt: now, updatedAt: now };
  const json = JSON.stringify(record);
  await pool.query(INSERT_SUBMISSION, [record.id, json]);
  send(res, 201, json);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://floor");
  const path = url.pathname;
  if (path === "/health") return send(res, 200, '{"status":"ok"}');
  if (path.startsWith(fnPrefix)) {
    const slug = path.slice(fnPrefix.length);
    const { slugs } = config;
    if (req.method === "POST" && slug === slugs.intake) return intake(req, res);
    if (req.method === "GET") {
      if (slug === slugs.cached) {
        cachedAnswer ??= await newestTickets();
        return send(res, 200, cachedAnswer);
      }
      if (slug === slugs.uncached) return send(res, 200, await newestTickets());
      if (slug === slugs.byOwner) return send(res, 200, await page(BY_OWNER, url.searchParams.get("owner") ?? ""));
      if (slug === slugs.openByDue) return send(res, 200, await page(OPEN_BY_PRIORITY));
      if (slug === slugs.inboxOpen) return send(res, 200, await page(INBOX_OPEN));
    }
  }
  if (req.method === "GET" && path === recordsPath) {
    const owner = url.searchParams.get("filter[owner]");
    if (owner !== null) return send(res, 200, await pageWithTotal(BY_OWNER_WITH_TOTAL, SELECTIVE_LIMIT, owner));
    if (url.searchParams.get("filter[status]") === "open") return send(res, 200, await pageWithTotal(OPEN_BY_PRIORITY_WITH_TOTAL, UNSELECTIVE_LIMIT));
  }
  send(res, 404, '{"error":"not found"}');
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error("[floor] request failed:", error instanceof Error ? error.message : error);
    if (!res.headersSent) send(res, 500, '{"error":"internal error"}');
  });
});
server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
server.listen(port, "127.0.0.1", () => console.log(`floor listening on http://127.0.0.1:${port}`));

const shutdown = () => {
  server.close();
  server.closeIdleConnections();
  void pool.end().finally(() => process.exit(0));
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
