import { writeKeysFor } from "../automations/setup-automation-project";
import { createProjectWithKey, ManagementApi, runJsonCommand, type BenchEndpoint } from "../setup-project";
import {
  authorRecord,
  inboxRecord,
  INBOX_RECORDS,
  RECORDS_AUTHORS,
  RECORDS_ENDPOINTS,
  RECORDS_SCHEMAS,
  recordLines,
  ticketRecord,
  type RecordsEndpointKey,
} from "./records-fixtures";
import { ImportRouteMissing, streamImport, type StreamedImport } from "./stream-import";

/**
 * Sets the records benchmark's project up through the product: the command line (owner, workspace,
 * project on the customer database, an API key), the management API (schemas, endpoints), the
 * NDJSON import route for the records (authors, inbox, then N tickets in requests of `importBatch`
 * lines), and a pool of read keys for the records API scenarios.
 */

export interface ImportStats {
  /** "import": the import route; "record store": --seed-directly (no import figures). */
  through: "import" | "record store";
  tickets: number;
  /** When the tickets' first line was sent (statistics refreshed after this are the import's). */
  startedAt: string;
  requests: number;
  /** NDJSON bytes sent (0 for the record store). */
  bytes: number;
  seconds: number;
  recordsPerSecond: number;
  /** Per request: lines and seconds. */
  batches: Array<{ lines: number; seconds: number }>;
}

export interface RecordsBenchProject {
  projectId: string;
  key: { id: string; key: string };
  endpoints: Record<RecordsEndpointKey, BenchEndpoint>;
  /** records.read keys, rotated one per records API request (600 calls a minute each). */
  readKeys: string[];
  keyIds: string[];
  seeding: ImportStats;
}

function checkImported(label: string, expected: number, result: StreamedImport): void {
  const failed = result.answer.failedCount ?? result.answer.failed.length;
  if (result.answer.imported !== expected || failed > 0) {
    throw new Error(`${label}: ${result.answer.imported} of ${expected} lines imported, ${failed} failed: ${JSON.stringify(result.answer.failed.slice(0, 3))}`);
  }
}

async function seedThroughImport(options: {
  api: ManagementApi;
  baseUrl: string;
  projectId: string;
  key: string;
  tickets: number;
  importBatch: number;
  log: (line: string) => void;
}): Promise<ImportStats> {
  const { api, log } = options;
  const importLines = (schema: string, lines: Iterable<string>) => streamImport({ baseUrl: options.baseUrl, projectId: options.projectId, schema, key: options.key, lines });

  checkImported("authors", RECORDS_AUTHORS, await importLines("authors", recordLines(0, RECORDS_AUTHORS, authorRecord)));
  const listed = await api.request("GET", `/records/authors?perPage=${RECORDS_AUTHORS}&sort=createdAt,id`);
  const authorIds = ((listed.json as { data?: Array<{ id: string }> } | null)?.data ?? []).map((author) => author.id);
  if (authorIds.length !== RECORDS_AUTHORS)
    throw new Error(`GET /records/authors answered ${listed.status} with ${authorIds.length} authors instead of ${RECORDS_AUTHORS}: ${listed.text.slice(0, 300)}`);
  checkImported("inbox", INBOX_RECORDS, await importLines("inbox", recordLines(0, INBOX_RECORDS, inboxRecord)));
  log(`${RECORDS_AUTHORS} authors and ${INBOX_RECORDS} inbox records imported`);

  const batches: ImportStats["batches"] = [];
  let bytes = 0;
  const startedAt = new Date().toISOString();
  const started = performance.now();
  for (let from = 0; from < options.tickets; from += options.importBatch) {
    const to = Math.min(options.tickets, from + options.importBatch);
    const result = await importLines(
      "tickets",
      recordLines(from, to, (index) => ticketRecord(index, options.tickets, authorIds)),
    );
    checkImported(`tickets ${from + 1}-${to}`, to - from, result);
    batches.push({ lines: result.lines, seconds: Math.round(result.seconds * 100) / 100 });
    bytes += result.bytes;
    const elapsed = (performance.now() - started) / 1000;
    log(
      `tickets imported: ${to.toLocaleString("en")} of ${options.tickets.toLocaleString("en")} ` +
        `(this request ${result.lines.toLocaleString("en")} lines, ${(result.bytes / 1024 ** 2).toFixed(1)} MiB in ${result.seconds.toFixed(1)} s = ${Math.round(result.lines / result.seconds).toLocaleString("en")}/s; ` +
        `overall ${Math.round(to / elapsed).toLocaleString("en")}/s)`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    through: "import",
    tickets: options.tickets,
    startedAt,
    requests: batches.length,
    bytes,
    seconds: Math.round(seconds * 100) / 100,
    recordsPerSecond: Math.round(options.tickets / seconds),
    batches,
  };
}

export async function setupRecordsProject(options: {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  customerDatabaseUrl: string;
  tickets: number;
  importBatch: number;
  maxApiRate: number;
  seedDirectly: boolean;
  log: (line: string) => void;
}): Promise<RecordsBenchProject> {
  const { env, log } = options;
  const { projectId, key } = await createProjectWithKey({
    env,
    customerDatabaseUrl: options.customerDatabaseUrl,
    label: "Bench records",
    keyName: "bench records",
    permissions: "schemas.write,records.create,records.read,endpoints.create,endpoints.update,endpoints.read",
    log,
  });
  const api = new ManagementApi(options.baseUrl, projectId, key.key);
  for (const schema of RECORDS_SCHEMAS) await api.create("/schemas", schema);
  log(`schemas ${RECORDS_SCHEMAS.map((schema) => schema.name).join(", ")} created (tickets: owner, status, priority, dueAt indexed)`);

  let seeding: ImportStats;
  try {
    seeding = await seedThroughImport({ api, baseUrl: options.baseUrl, projectId, key: key.key, tickets: options.tickets, importBatch: options.importBatch, log });
  } catch (error) {
    if (!(error instanceof ImportRouteMissing)) throw error;
    if (!options.seedDirectly)
      throw new Error(
        `${error.message}. Build the app with the import route (npm run bench -- --records N --build), or pass --seed-directly to seed through the record store (development only).`,
      );
    log(`${error.message}: seeding through the record store (--seed-directly; bench/records/seed-directly.ts)`);
    const startedAt = new Date().toISOString();
    const seeded = await runJsonCommand<{ tickets: number; seconds: number }>(
      "bench/records/seed-directly.ts",
      process.execPath,
      ["--import", "tsx", "bench/records/seed-directly.ts", projectId, String(options.tickets)],
      env,
    );
    seeding = {
      through: "record store",
      tickets: seeded.tickets,
      startedAt,
      requests: 0,
      bytes: 0,
      seconds: Math.round(seeded.seconds * 100) / 100,
      recordsPerSecond: Math.round(seeded.tickets / seeded.seconds),
      batches: [],
    };
  }
  log(`${options.tickets.toLocaleString("en")} tickets seeded through the ${seeding.through} in ${seeding.seconds} s (${seeding.recordsPerSecond.toLocaleString("en")} records/s)`);

  const endpoints = {} as Record<RecordsEndpointKey, BenchEndpoint>;
  for (const [name, definition] of Object.entries(RECORDS_ENDPOINTS) as [RecordsEndpointKey, unknown][]) {
    const created = await api.create<{ id: string; slug: string; version?: number }>("/endpoints", definition);
    endpoints[name] = { id: created.id, slug: created.slug, version: created.version ?? 1 };
  }
  log(
    `endpoints ${Object.values(endpoints)
      .map((endpoint) => endpoint.slug)
      .join(", ")} created`,
  );

  const count = writeKeysFor(options.maxApiRate);
  const { keys } = await runJsonCommand<{ keys: Array<{ id: string; key: string }> }>(
    "bench/automations/create-api-keys.ts",
    process.execPath,
    ["--import", "tsx", "bench/automations/create-api-keys.ts", projectId, String(count), "records.read"],
    env,
  );
  log(`${keys.length} read keys created (600 calls a minute each; enough for ${options.maxApiRate} records API requests/s)`);
  return { projectId, key, endpoints, readKeys: keys.map((created) => created.key), keyIds: [key.id, ...keys.map((created) => created.id)], seeding };
}
