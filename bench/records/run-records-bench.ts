/**
 * `npm run bench -- --records N`: issue 11's records-at-scale benchmark. The production server with a
 * PostgreSQL customer database whose `tickets` collection holds N records, imported through the
 * NDJSON import route; the invocation benchmark's four scenarios (against its same-work reference,
 * bench/reference/server.ts) and five that read the grown collection through a query step and
 * through the records API; every scenario also against the **floor** (bench/reference/floor-server.ts:
 * node:http + pg, the app's own SQL, nothing else). Each at --connections (throughput) and at
 * --latency-connections (unloaded p50); at N ≠ 1,000 the query scenarios are compared with
 * bench/results/records-1000.json (the scale targets).
 */
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ExecutionLogCounter } from "../execution-log-counter";
import { databaseUrl, REDIS_URL } from "../infrastructure";
import { InspectorProfiler } from "../inspector-profiler";
import { clientIpPoolFor } from "../load/client-ips";
import { describeNodeFlags } from "../options";
import { measureOnce, toMeasurement, type LoadSpec, type MeasureContext, type MeasuredTarget, type TargetRun } from "../measure";
import type { BenchModeContext } from "../bench-mode-context";
import { startProcess, waitForHttp } from "../processes";
import { writeReport } from "../report";
import { ownerCount, ownerName } from "./records-fixtures";
import {
  addRecordsUnloaded,
  compareScale,
  formatPlans,
  formatRecordsTable,
  formatRecordsUnloadedTable,
  formatScale,
  formatTargets,
  recordsScenarioReport,
  RECORDS_TARGETS,
  type QueryPlan,
  type RecordsBenchReport,
  type RecordsScenarioReport,
  type TargetMeasurements,
  type TargetName,
} from "./records-report";
import { ownerRotation, RECORDS_SCENARIOS, type RecordsScenario } from "./records-scenarios";
import { appStatements, valuesFor, type QueryName } from "./records-statements";
import { setupRecordsProject, type RecordsBenchProject } from "./setup-records-project";
import { stopActiveImport } from "./stream-import";
import { compiledEntry, type BenchEntry } from "../compiled-entries";

export interface RecordsBenchContext extends BenchModeContext {
  loadCore: number | null;
}

interface Target extends MeasuredTarget {
  name: TargetName;
}

interface Run {
  context: RecordsBenchContext;
  project: RecordsBenchProject;
  targets: Record<TargetName, Target>;
  measure: MeasureContext;
}

function targetsOf(run: Run, scenario: RecordsScenario): Target[] {
  return scenario.hasReference ? [run.targets.app, run.targets.reference, run.targets.floor] : [run.targets.app, run.targets.floor];
}

function scenarioPath(project: RecordsBenchProject, scenario: RecordsScenario, owner: string): string {
  const fill = (query: string) => query.replace("{owner}", encodeURIComponent(owner));
  if (scenario.via === "records API") return `/api/projects/${project.projectId}/records/tickets?${fill(scenario.recordsQuery ?? "")}`;
  const slug = project.endpoints[scenario.endpoint as NonNullable<RecordsScenario["endpoint"]>].slug;
  return `/api/projects/${project.projectId}/fn/${slug}${scenario.endpointQuery ? `?${fill(scenario.endpointQuery)}` : ""}`;
}

/** Read keys in turn across all measurements, so that no key passes its 600 calls a minute. */
function keyRotation(keys: readonly string[]): () => Record<string, string> {
  let next = 0;
  return () => ({ authorization: `Bearer ${keys[next++ % keys.length]}` });
}

function loadSpec(run: Run, scenario: RecordsScenario, target: Target, nextKey: () => Record<string, string>): LoadSpec {
  const owners = scenario.recordsQuery?.includes("{owner}") || scenario.endpointQuery?.includes("{owner}") ? ownerRotation(run.context.options.records ?? 0) : null;
  return {
    path: scenarioPath(run.project, scenario, ownerName(0)),
    method: scenario.method,
    body: scenario.body,
    expectedStatus: scenario.expectedStatus,
    // The floor and the records API write no execution log; cache hits neither.
    writesLogs: target.name !== "floor" && scenario.via === "endpoint" && scenario.endpoint !== "cached",
    ...(owners ? { nextPath: () => scenarioPath(run.project, scenario, owners()) } : {}),
    ...(scenario.via === "records API" ? { nextHeaders: nextKey } : {}),
  };
}

/** Sorted keys all the way down: the servers present the same records with their keys in different orders. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, inner]) => [key, canonical(inner)]),
    );
  return value;
}

/** One call per scenario to every target: the expected status and the same answer (shapes for created records). */
async function checkAnswersAgree(run: Run, scenarios: readonly RecordsScenario[]): Promise<void> {
  const ips = clientIpPoolFor(1_000, 1);
  const key = run.project.readKeys[0] as string;
  for (const scenario of scenarios) {
    const answers: Array<{ target: string; body: string; json: unknown }> = [];
    for (const target of targetsOf(run, scenario)) {
      const call = async () => {
        const response = await fetch(`${target.baseUrl}${scenarioPath(run.project, scenario, ownerName(0))}`, {
          method: scenario.method,
          headers: {
            "x-real-ip": ips.next(),
            ...(scenario.via === "records API" ? { authorization: `Bearer ${key}` } : {}),
            ...(scenario.body ? { "content-type": "application/json" } : {}),
          },
          body: scenario.body ?? undefined,
          signal: AbortSignal.timeout(60_000),
        });
        return { status: response.status, cache: response.headers.get("x-cache"), body: await response.text() };
      };
      let answer = await call();
      if (scenario.endpoint === "cached") answer = await call();
      if (answer.status !== scenario.expectedStatus)
        throw new Error(`scenario ${scenario.id}: the ${target.name} answered ${answer.status} instead of ${scenario.expectedStatus}: ${answer.body.slice(0, 500)}`);
      if (scenario.endpoint === "cached" && target.name !== "floor" && answer.cache !== "hit")
        throw new Error(`scenario ${scenario.id}: the ${target.name} did not answer from its cache on the second call`);
      const json = JSON.parse(answer.body) as unknown;
      answers.push({ target: target.name, body: answer.body, json: scenario.expectedStatus === 201 ? Object.keys(json as object).sort() : canonical(json) });
    }
    const [first, ...others] = answers;
    for (const other of others) {
      if (JSON.stringify(other.json) !== JSON.stringify(first?.json)) {
        throw new Error(
          `scenario ${scenario.id}: the ${first?.target} and the ${other.target} answer differently:\n${first?.target.padEnd(9)} ${first?.body.slice(0, 400)}\n${other.target.padEnd(9)} ${other.body.slice(0, 400)}`,
        );
      }
    }
    const size =
      scenario.expectedStatus !== 200
        ? null
        : Array.isArray(first?.json)
          ? first.json.length
          : Array.isArray((first?.json as { data?: unknown[] })?.data)
            ? (first?.json as { data: unknown[] }).data.length
            : null;
    run.context.log(
      `scenario ${scenario.id}: ${answers.map((answer) => answer.target).join(", ")} answer alike (${scenario.expectedStatus}${size === null ? "" : `, ${size} records`})`,
    );
  }
}

/**
 * After an import the planner needs statistics, and the table the hint bits and visibility map a
 * first VACUUM leaves. The app refreshes the statistics when a large import ends; autovacuum does
 * both within a minute or two. The benchmark notes whether the statistics were refreshed after the
 * import began, runs ANALYZE when they were not, and always VACUUMs, so that every run measures the
 * steady state. Answers what happened.
 */
async function prepareTables(client: pg.Client, importStartedAt: string): Promise<string> {
  const done: string[] = [];
  for (const table of ["tickets", "authors", "inbox"]) {
    const stats = await client.query<{ analyzed: Date | null }>(
      `SELECT greatest(last_analyze, last_autoanalyze) AS analyzed FROM pg_stat_user_tables WHERE schemaname = 'flowpoint_records' AND relname = $1`,
      [table],
    );
    const analyzed = stats.rows[0]?.analyzed ?? null;
    // The small tables are written before the tickets: analyzed at all is enough for them.
    const current = analyzed !== null && (table !== "tickets" || analyzed >= new Date(importStartedAt));
    const started = performance.now();
    await client.query(`VACUUM ${current ? "" : "(ANALYZE) "}"flowpoint_records"."${table}"`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    done.push(`${table} ${current ? `analyzed ${analyzed?.toISOString().slice(11, 19)} (the app or autovacuum), VACUUM` : "not analyzed: VACUUM ANALYZE"} ${seconds} s`);
  }
  return `statistics after the import: ${done.join("; ")}`;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the app's own statements for each query scenario (the floor runs the same). */
async function explainQueries(client: pg.Client): Promise<QueryPlan[]> {
  const queries: Array<[string, QueryName, "find" | "count"]> = [
    ["2: 50 newest tickets", "newestTickets", "find"],
    ["5/6: owner = O, page", "byOwner", "find"],
    ["6: owner = O, capped total", "byOwner", "count"],
    ["7/8: status = open, sort -dueAt, page", "openByDue", "find"],
    ["8: status = open, capped total", "openByDue", "count"],
    ["9: inbox, status = open", "inboxOpen", "find"],
  ];
  const plans: QueryPlan[] = [];
  for (const [label, name, which] of queries) {
    const statement = appStatements(name)[which];
    // Twice: the first run reads from disk into the caches, the second is what a busy server sees.
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, valuesFor(statement, ownerName(0)));
      if (attempt === 0) continue;
      const plan = result.rows.map((row) => row["QUERY PLAN"]);
      const execution = plan.map((line) => /Execution Time: ([\d.]+) ms/.exec(line)?.[1]).find(Boolean);
      plans.push({ query: label, statement: statement.text, plan, executionMs: execution ? Number(execution) : null });
    }
  }
  return plans;
}

async function tableFacts(client: pg.Client): Promise<{ tableMiB: number; indexesMiB: number; indexes: string[] }> {
  const sizes = await client.query<{ table_bytes: string; index_bytes: string }>(
    `SELECT pg_table_size('"flowpoint_records"."tickets"') AS table_bytes, pg_indexes_size('"flowpoint_records"."tickets"') AS index_bytes`,
  );
  const indexes = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'flowpoint_records' AND tablename = 'tickets' ORDER BY indexname`,
  );
  const MiB = 1024 ** 2;
  return {
    tableMiB: Math.round(Number(sizes.rows[0]?.table_bytes ?? 0) / MiB),
    indexesMiB: Math.round(Number(sizes.rows[0]?.index_bytes ?? 0) / MiB),
    indexes: indexes.rows.map((row) => row.indexdef),
  };
}

function startServer(context: RecordsBenchContext, name: TargetName, entry: BenchEntry, port: number, env: NodeJS.ProcessEnv): Target {
  const inspect = context.options.cpuProfile ? ["--inspect=127.0.0.1:0"] : [];
  const managed = startProcess({
    name,
    command: process.execPath,
    // The app as npm start runs it; the reference and the floor with Node's defaults.
    args: [...inspect, ...(name === "app" ? context.options.appNodeFlags : []), compiledEntry(entry)],
    env: { ...env, PORT: String(port) },
    logFile: path.join(context.workDir, `${name}.log`),
    core: context.serverCore,
  });
  context.cleanup.processes.push(managed);
  return { name, process: managed, baseUrl: `http://127.0.0.1:${port}` };
}

async function measureAll(run: Run, scenarios: readonly RecordsScenario[]): Promise<RecordsScenarioReport[]> {
  const { options } = run.context;
  const nextKey = keyRotation(run.project.readKeys);
  const results = new Map<string, TargetRun[]>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const scenario of scenarios) {
      for (const target of targetsOf(run, scenario)) {
        const label = `scenario ${scenario.id}${options.rounds > 1 ? ` round ${round}` : ""} · ${target.name}`;
        const result = await measureOnce(run.measure, target, loadSpec(run, scenario, target, nextKey), {
          label,
          profileName: `scenario-${scenario.id}-${target.name}-round-${round}`,
        });
        results.set(`${scenario.id}:${target.name}`, [...(results.get(`${scenario.id}:${target.name}`) ?? []), result]);
      }
    }
  }
  for (const target of Object.values(run.targets)) target.profiler?.close();
  const measured = (scenario: RecordsScenario, name: TargetName) => {
    const rounds = results.get(`${scenario.id}:${name}`);
    return rounds ? toMeasurement(rounds) : null;
  };
  const reports = scenarios.map((scenario) =>
    recordsScenarioReport(scenario, { app: measured(scenario, "app"), reference: measured(scenario, "reference"), floor: measured(scenario, "floor") } as TargetMeasurements),
  );
  console.log(`\n${formatRecordsTable(reports, options.connections)}\n`);

  const connections = options.latencyConnections;
  if (connections > 0) {
    for (const [index, scenario] of scenarios.entries()) {
      const unloaded: Partial<Record<TargetName, TargetRun>> = {};
      for (const target of targetsOf(run, scenario)) {
        const label = `scenario ${scenario.id} · ${target.name}, ${connections} connection${connections === 1 ? "" : "s"}`;
        unloaded[target.name] = await measureOnce(run.measure, target, loadSpec(run, scenario, target, nextKey), { label, connections });
      }
      const of = (name: TargetName) => (unloaded[name] ? toMeasurement([unloaded[name]]) : null);
      addRecordsUnloaded(reports[index] as RecordsScenarioReport, scenario, connections, { app: of("app"), reference: of("reference"), floor: of("floor") } as TargetMeasurements);
    }
    console.log(`\n${formatRecordsUnloadedTable(reports)}\n`);
  }
  return reports;
}

export async function runRecordsBench(context: RecordsBenchContext): Promise<number> {
  const { options, log, cleanup, workDir } = context;
  const tickets = options.records as number;
  const { platformDatabase, customerDatabase, keyPrefix } = await context.provisionStores("fprecbench");
  cleanup.closers.push(async () => stopActiveImport());
  log(`records benchmark, ${tickets.toLocaleString("en")} tickets: databases ${platformDatabase}, ${customerDatabase}; Redis key prefix ${keyPrefix}; logs in ${workDir}`);

  const [appPort, referencePort, floorPort] = [await context.freePort(), await context.freePort(), await context.freePort()];
  const env: NodeJS.ProcessEnv = { ...context.appEnvironment(appPort, platformDatabase, path.join(workDir, "data")), KV_KEY_PREFIX: keyPrefix };
  const app = startServer(context, "app", "start", appPort, env);
  log(
    `app starting on port ${appPort} (pid ${app.process.pid}${context.serverCore === null ? "" : `, core ${context.serverCore}`}, node flags: ${describeNodeFlags(options.appNodeFlags)})`,
  );
  await waitForHttp(`${app.baseUrl}/api/health`, app.process, 180_000);

  const customerDatabaseUrl = databaseUrl(customerDatabase);
  const project = await setupRecordsProject({
    baseUrl: app.baseUrl,
    env,
    customerDatabaseUrl,
    tickets,
    importBatch: options.importBatch,
    maxApiRate: options.maxApiRate,
    seedDirectly: options.seedDirectly,
    log,
  });

  const admin = new pg.Client({ connectionString: customerDatabaseUrl, application_name: "flowpoint-bench" });
  await admin.connect();
  cleanup.closers.push(() => admin.end().catch(() => undefined));
  const statistics = await prepareTables(admin, project.seeding.startedAt);
  log(statistics);
  const facts = await tableFacts(admin);
  log(
    `tickets: table ${facts.tableMiB} MiB, indexes ${facts.indexesMiB} MiB (${facts.indexes.length}: ${facts.indexes.map((definition) => /INDEX (\S+)/.exec(definition)?.[1]).join(", ")})`,
  );
  const plans = await explainQueries(admin);
  console.log(`\nquery plans (EXPLAIN ANALYZE of the app's statements, second run):\n${formatPlans(plans)}\n`);

  const sharedEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", CUSTOMER_DATABASE_URL: customerDatabaseUrl };
  const reference = startServer(context, "reference", "reference", referencePort, {
    ...sharedEnv,
    REDIS_URL,
    KV_KEY_PREFIX: keyPrefix,
    BENCH_REFERENCE_CONFIG: JSON.stringify({
      projectId: project.projectId,
      endpoints: { cached: project.endpoints.cached, uncached: project.endpoints.uncached, intake: project.endpoints.intake },
    }),
  });
  const slugs = Object.fromEntries(Object.entries(project.endpoints).map(([key, endpoint]) => [key, endpoint.slug]));
  const floor = startServer(context, "floor", "floor", floorPort, {
    ...sharedEnv,
    FLOOR_CONFIG: JSON.stringify({ projectId: project.projectId, slugs }),
  });
  await waitForHttp(`${reference.baseUrl}/health`, reference.process, 60_000);
  await waitForHttp(`${floor.baseUrl}/health`, floor.process, 60_000);
  log(`reference (pid ${reference.process.pid}, port ${referencePort}) and floor (pid ${floor.process.pid}, port ${floorPort}) listening`);

  const logs = await ExecutionLogCounter.connect(customerDatabaseUrl);
  cleanup.closers.push(() => logs.close());
  const targets = { app, reference, floor };
  const run: Run = {
    context,
    project,
    targets,
    measure: { targets: Object.values(targets), options, profileDir: workDir, logs, log },
  };
  const scenarios = RECORDS_SCENARIOS.filter((scenario) => options.scenarioIds.includes(scenario.id));
  await checkAnswersAgree(run, scenarios);

  if (options.serve) {
    for (const scenario of scenarios) {
      const body = scenario.body ? ` -H 'content-type: application/json' -d '${scenario.body}'` : "";
      const auth = scenario.via === "records API" ? ` -H 'authorization: Bearer ${project.readKeys[0]}'` : "";
      for (const target of targetsOf(run, scenario)) {
        console.log(
          `scenario ${scenario.id} ${target.name.padEnd(9)} curl -X ${scenario.method} -H 'x-real-ip: 10.255.0.1'${auth}${body} '${target.baseUrl}${scenarioPath(project, scenario, ownerName(0))}'`,
        );
      }
    }
    log(`serving (customer database ${customerDatabaseUrl}; logs in ${workDir}); Ctrl-C to stop and clean up`);
    await new Promise(() => undefined);
  }
  if (options.cpuProfile) {
    for (const target of Object.values(targets)) target.profiler = await InspectorProfiler.connectFromLog(target.process.logFile);
    context.keepWorkDir();
    log(`profiling every measured run (profiles are kept in ${workDir})`);
  }

  const reports = await measureAll(run, scenarios);
  const scale = compareScale(path.join(path.dirname(options.output), `records-${RECORDS_TARGETS.baselineRecords}.json`), tickets, reports, scenarios);
  if (scale) console.log(`\n${formatScale(scale, tickets)}\n`);
  console.log(`${formatTargets(reports)}\n`);

  const report: RecordsBenchReport = {
    kind: "records",
    date: new Date().toISOString(),
    code: context.code,
    machine: { ...context.machine, loadAverageAtEnd: os.loadavg().map((value) => Math.round(value * 100) / 100) },
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      rounds: options.rounds,
      latencyConnections: options.latencyConnections > 0 ? options.latencyConnections : null,
      pinned: context.pinned,
      appCore: context.serverCore,
      loadGeneratorCore: context.loadCore,
      appNodeFlags: options.appNodeFlags,
      records: tickets,
      importBatch: options.importBatch,
      maxApiRate: options.maxApiRate,
      kvPrefix: keyPrefix,
    },
    records: {
      tickets,
      owners: ownerCount(tickets),
      seeding: project.seeding,
      statistics,
      ticketsTableMiB: facts.tableMiB,
      ticketsIndexesMiB: facts.indexesMiB,
      indexes: facts.indexes,
    },
    plans,
    scenarios: reports,
    scale,
    allTargetsMet: reports.every((scenario) => scenario.targets.every((target) => target.met)) && (scale?.scenarios.every((row) => row.met) ?? true),
    notes: [
      "app = npm start (production build); reference = bench/reference/server.ts (scenarios 1-4: the same Redis calls and SQL by hand); floor = bench/reference/floor-server.ts (node:http + pg, the app's SQL, one statement per answer, no rate limit, log or Redis)",
      "app, reference and floor run one after the other on the same core; autocannon runs on another; PostgreSQL and Redis are not pinned",
      `tickets seeded through the ${project.seeding.through === "import" ? "import route (NDJSON)" : "record store (--seed-directly: the import route was missing; no import figures)"}`,
      "selective scenarios rotate over every owner, one per request; records API calls rotate over the read keys",
      ...(scale
        ? []
        : [`scale targets not judged: ${tickets === RECORDS_TARGETS.baselineRecords ? "this is the 1,000-record baseline" : "no records-1000.json beside the output"}`]),
    ],
  };
  writeReport(options.output, report);
  log(`results written to ${path.relative(process.cwd(), options.output)}`);
  return options.check && !report.allTargetsMet ? 1 : 0;
}
