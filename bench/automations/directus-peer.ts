import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { databaseUrl } from "../infrastructure";
import { startProcess, waitForHttp, type ManagedProcess } from "../processes";
import type { AutomationBenchContext } from "./run-automation-bench";
import type { EventTarget } from "./event-target";
import { completedRuns, type RunLedger } from "./run-ledger";

/**
 * Directus Flows on the automation benchmark's work, for issue 10's "≥ 5× Directus": an `events`
 * collection whose `items.create` action starts a flow with one Create Data operation copying the
 * item into `copies`, as an owner would click it together (accountability "all", the default: each
 * run is logged in Directus' activity). Directus runs flows in its API process, unqueued.
 *
 * 12.4.0, not the newest 12.4.1: that one needs `@directus/app@18.0.1`, which the npm registry of
 * the machines this runs on does not have. It is installed on first use (about 700 MB) into
 * `$BENCH_PEERS_DIR` (default ~/.cache/flowpoint-bench), never into the project's dependencies.
 */
export const DIRECTUS_VERSION = "12.4.0";

const run = promisify(execFile);

function peersDirectory(): string {
  return process.env.BENCH_PEERS_DIR ?? path.join(os.homedir(), ".cache", "flowpoint-bench");
}

/**
 * Where Directus' CLI is, installing it first when it is not there yet. The install counts once its
 * marker is written, after npm finished: an install cut short (Ctrl-C, a lost registry) is resumed
 * by the next run instead of starting a Directus with half its packages.
 */
async function installedDirectusCli(log: (line: string) => void): Promise<string> {
  const directory = path.join(peersDirectory(), `directus-${DIRECTUS_VERSION}`);
  const cli = path.join(directory, "node_modules", "directus", "cli.js");
  const installed = path.join(directory, "installed-by-flowpoint-bench");
  if (existsSync(installed) && existsSync(cli)) return cli;
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, "package.json"), JSON.stringify({ name: "flowpoint-bench-directus", private: true, dependencies: { directus: DIRECTUS_VERSION } }, null, 2));
  log(`installing directus@${DIRECTUS_VERSION} into ${directory} (first use only; a few minutes)`);
  const started = Date.now();
  await run("npm", ["install", "--no-audit", "--no-fund", "--omit=dev"], { cwd: directory, maxBuffer: 64 * 1024 * 1024 });
  if (!existsSync(cli)) throw new Error(`npm installed directus@${DIRECTUS_VERSION} into ${directory}, but ${cli} is missing`);
  writeFileSync(installed, `${new Date().toISOString()}\n`);
  log(`directus@${DIRECTUS_VERSION} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return cli;
}

/** Directus' configuration: its own database on the benchmark's PostgreSQL, logs at warnings only. */
function directusEnvironment(options: { database: string; port: number; workDir: string; adminToken: string }): NodeJS.ProcessEnv {
  const server = new URL(databaseUrl(options.database));
  const configFile = path.join(options.workDir, "directus.env");
  // Directus reads ./.env unless CONFIG_PATH names another file: an empty one, so that only these settings count.
  writeFileSync(configFile, "");
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    CONFIG_PATH: configFile,
    HOST: "127.0.0.1",
    PORT: String(options.port),
    PUBLIC_URL: `http://127.0.0.1:${options.port}`,
    DB_CLIENT: "pg",
    DB_HOST: server.hostname,
    DB_PORT: server.port || "5432",
    DB_DATABASE: options.database,
    DB_USER: decodeURIComponent(server.username),
    DB_PASSWORD: decodeURIComponent(server.password),
    SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAIL: "bench@example.com",
    ADMIN_PASSWORD: randomBytes(16).toString("hex"),
    ADMIN_TOKEN: options.adminToken,
    // Directus' defaults, spelled out: no response cache, no rate limiter in front of the writes.
    CACHE_ENABLED: "false",
    RATE_LIMITER_ENABLED: "false",
    TELEMETRY: "false",
    // A line per request at the default level (info) would be CPU the app's server does not spend.
    LOG_LEVEL: "warn",
    STORAGE_LOCAL_ROOT: path.join(options.workDir, "directus-uploads"),
    EXTENSIONS_PATH: path.join(options.workDir, "directus-extensions"),
  };
}

async function directusRequest<T>(baseUrl: string, token: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Directus ${method} ${route}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** The benchmark's collections, with Directus' default integer keys, and the flow that copies each new event. */
async function setupDirectusFlow(baseUrl: string, token: string): Promise<void> {
  const integerKey = { field: "id", type: "integer", meta: { hidden: true }, schema: { is_primary_key: true, has_auto_increment: true } };
  await directusRequest(baseUrl, token, "POST", "/collections", {
    collection: "events",
    schema: {},
    meta: {},
    fields: [integerKey, { field: "n", type: "integer", schema: {} }, { field: "label", type: "string", schema: {} }],
  });
  await directusRequest(baseUrl, token, "POST", "/collections", {
    collection: "copies",
    schema: {},
    meta: {},
    fields: [
      integerKey,
      { field: "source", type: "string", schema: { is_indexed: true } },
      { field: "n", type: "integer", schema: {} },
      { field: "label", type: "string", schema: {} },
      // Set by Directus when the Create Data operation stores the copy: the run's start, a few ms late.
      { field: "date_created", type: "timestamp", meta: { special: ["date-created"] }, schema: {} },
    ],
  });
  const flow = await directusRequest<{ id: string }>(baseUrl, token, "POST", "/flows", {
    name: "Copy events",
    status: "active",
    trigger: "event",
    accountability: "all",
    options: { type: "action", scope: ["items.create"], collections: ["events"] },
  });
  const operation = await directusRequest<{ id: string }>(baseUrl, token, "POST", "/operations", {
    flow: flow.id,
    key: "copy",
    name: "Copy",
    type: "item-create",
    position_x: 19,
    position_y: 1,
    options: {
      collection: "copies",
      permissions: "$full",
      emitEvents: false,
      payload: { source: "{{$trigger.key}}", n: "{{$trigger.payload.n}}", label: "{{$trigger.payload.label}}" },
    },
  });
  await directusRequest(baseUrl, token, "PATCH", `/flows/${flow.id}`, { operation: operation.id });
}

/** Keys handed out by a sequence so far (0 before the first). */
const SEQUENCE_USED = (sequence: string) => `(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${sequence})`;

/**
 * Directus keeps no queue to count: its backlog is the events stored and not yet copied, read from
 * the two key sequences (constant time, whatever the tables hold), and its runs are the copies.
 */
export function directusLedger(directusDatabaseUrl: string): RunLedger {
  const pool = new pg.Pool({ connectionString: directusDatabaseUrl, max: 2, application_name: "flowpoint-bench" });
  const backlogQuery = `SELECT ${SEQUENCE_USED("events_id_seq")} - ${SEQUENCE_USED("copies_id_seq")} AS backlog`;
  const backlog = async () => {
    const result = await pool.query<{ backlog: string }>(backlogQuery);
    return Math.max(0, Number(result.rows[0]?.backlog ?? 0));
  };
  return {
    backlog: async () => ({ backlog: await backlog(), delayed: 0, active: 0, failed: 0 }),
    runsInProgress: backlog,
    async runsSince(sinceMs) {
      const result = await pool.query<{ source: string; started_at: Date }>(`SELECT source, date_created AS started_at FROM copies WHERE date_created >= $1`, [new Date(sinceMs)]);
      return completedRuns(result.rows.map((row) => ({ recordId: row.source, startedAt: row.started_at.getTime() })));
    },
    close: () => pool.end(),
  };
}

/**
 * Installs (first use), bootstraps and starts Directus on its own database and builds the flow.
 * Directus is one process serving the writes and running the flows, so it is left unpinned: the
 * scheduler may give it either core. Writes go to `/items/events` with the admin's static token: an
 * admin skips Directus' permission checks. Both favour Directus.
 */
export async function startDirectus(context: AutomationBenchContext, watchExit: (managed: ManagedProcess) => ManagedProcess): Promise<EventTarget> {
  const { log, workDir } = context;
  const cli = await installedDirectusCli(log);
  const database = `${context.options.databasePrefix}_directus_${context.stamp}`;
  context.cleanup.databases.push(database);
  await context.createDatabase(database);
  const port = await context.freePort();
  const adminToken = randomBytes(24).toString("hex");
  const env = directusEnvironment({ database, port, workDir, adminToken });
  await run(process.execPath, [cli, "bootstrap"], { env, cwd: workDir, maxBuffer: 16 * 1024 * 1024 });
  const server = startProcess({
    name: `directus ${DIRECTUS_VERSION}`,
    command: process.execPath,
    args: [cli, "start"],
    env,
    logFile: path.join(workDir, "directus.log"),
    core: null,
  });
  context.cleanup.processes.push(watchExit(server));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/server/ping`, server, 120_000);
  await setupDirectusFlow(baseUrl, adminToken);
  const target: EventTarget = {
    name: "directus",
    baseUrl,
    path: "/items/events",
    headers: () => ({ authorization: `Bearer ${adminToken}` }),
    processes: () => [server],
    ledger: directusLedger(databaseUrl(database)),
  };
  context.cleanup.closers.push(() => target.ledger.close());
  log(`directus ${DIRECTUS_VERSION} listening on port ${port} (pid ${server.pid}, database ${database}): flow "Copy events" (items.create on events → Create Data in copies)`);
  return target;
}
