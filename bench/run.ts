/**
 * `npm run bench`: the invocation benchmark of issue 6. Starts the production server (npm start on a
 * production build) and a plain node:http reference doing the same work (bench/reference/server.ts),
 * both pinned to core 0 and measured one after the other, with autocannon pinned to core 1; reports
 * requests/s, p50/p95/p99 and the ratios to the reference; optionally soaks the app and watches its
 * resident memory. See bench/options.ts for the flags (`npm run bench -- --help`). With --automations it
 * runs issue 10's automation benchmark instead (bench/automations/run-automation-bench.ts), with
 * --records N issue 11's records-at-scale benchmark (bench/records/run-records-bench.ts).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { clientIpPoolFor } from "./load/client-ips";
import { stopActiveLoad } from "./load/run-load";
import { measureOnce, toMeasurement, type LoadSpec, type MeasureContext, type MeasuredTarget, type TargetRun } from "./measure";
import { stopWriteLoad } from "./automations/write-load";
import { BENCH_HELP, describeNodeFlags, parseBenchOptions, type BenchOptions } from "./options";
import { hasTaskset, killAllProcessesNow, pinSelf, startProcess, stopProcess, tailOfLog, waitForHttp, waitForIdle, type ManagedProcess } from "./processes";
import { checkServers, createDatabase, databaseUrl, deleteRedisKeys, dropDatabase, postgresServerHost, REDIS_URL } from "./infrastructure";
import {
  addUnloaded,
  codeInfo,
  formatUnloadedTable,
  formatSoak,
  formatTable,
  machineInfo,
  scenarioMet,
  scenarioReport,
  writeReport,
  type BenchReport,
  type Measurement,
  type ScenarioReport,
} from "./report";
import { SCENARIOS, type Scenario } from "./scenarios";
import { setupBenchProject, type BenchProject } from "./setup-project";
import { runSoak } from "./soak";
import { InspectorProfiler } from "./inspector-profiler";
import { ExecutionLogCounter } from "./execution-log-counter";
import { runAutomationBench } from "./automations/run-automation-bench";
import { measureRoundTripCost } from "./round-trip-probe";
import type { BenchModeContext, BenchStores } from "./bench-mode-context";
import { runRecordsBench } from "./records/run-records-bench";
import { compileBenchEntries, compiledEntry } from "./compiled-entries";
import { staleBuildReason } from "./stale-build";

const SERVER_CORE = 0;
const LOAD_CORE = 1;
const startedAt = Date.now();

function log(line: string): void {
  console.log(`[bench +${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${line}`);
}

interface Target extends MeasuredTarget {
  name: "app" | "reference";
}

/** Everything that must be undone, whatever happens. */
const cleanupState: {
  databases: string[];
  redisPatterns: string[];
  processes: ManagedProcess[];
  closers: Array<() => Promise<void>>;
  workDir: string | null;
  keep: boolean;
} = {
  closers: [],
  databases: [],
  redisPatterns: [],
  processes: [],
  workDir: null,
  keep: false,
};
let cleanupRunning: Promise<void> | null = null;

function cleanup(): Promise<void> {
  cleanupRunning ??= (async () => {
    stopActiveLoad();
    stopWriteLoad();
    await Promise.allSettled(cleanupState.closers.map((close) => close()));
    await Promise.allSettled(cleanupState.processes.map((managed) => stopProcess(managed)));
    killAllProcessesNow();
    if (cleanupState.keep) {
      log(`kept databases ${cleanupState.databases.join(", ") || "(none)"} and the Redis keys (--keep)`);
      return;
    }
    for (const name of cleanupState.databases) {
      await dropDatabase(name).catch((error: unknown) => log(`could not drop ${name}: ${error instanceof Error ? error.message : String(error)}`));
    }
    if (cleanupState.redisPatterns.length > 0) {
      const deleted = await deleteRedisKeys(cleanupState.redisPatterns).catch(() => -1);
      if (deleted >= 0) log(`dropped ${cleanupState.databases.length} databases, deleted ${deleted} Redis keys`);
    }
  })();
  return cleanupRunning;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

function build(logFile: string): Promise<void> {
  log(`building: npm run build (output in ${logFile})`);
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `npm run build > "${logFile}" 2>&1`], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`npm run build failed (exit ${code}):\n${tailOfLog(logFile, 40)}`))));
  });
}

function appEnvironment(port: number, platformDatabase: string, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: databaseUrl(platformDatabase),
    REDIS_URL,
    ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    APP_URL: `http://127.0.0.1:${port}`,
    TRUSTED_PROXY: "x-real-ip",
    // The customer databases live on the bench's PostgreSQL server (BENCH_POSTGRES_URL may move it).
    OUTBOUND_ALLOWED_HOSTS: postgresServerHost(),
    DATA_DIR: dataDir,
  };
  for (const name of ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "MONGODB_URL", "SMTP_URL", "RESEND_API_KEY"]) delete env[name];
  return env;
}

function invocationPath(project: BenchProject, scenario: Scenario): string {
  return `/api/projects/${project.projectId}/fn/${project.endpoints[scenario.endpoint].slug}`;
}

interface Probe {
  status: number;
  headers: Headers;
  body: string;
}

async function probe(target: Target, project: BenchProject, scenario: Scenario, ip: string): Promise<Probe> {
  const response = await fetch(`${target.baseUrl}${invocationPath(project, scenario)}`, {
    method: scenario.method,
    headers: { "x-real-ip": ip, ...(scenario.body ? { "content-type": "application/json" } : {}) },
    body: scenario.body ?? undefined,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** One call per scenario to both: same statuses, same answers (shapes for created records). */
async function checkAnswersAgree(targets: readonly Target[], project: BenchProject, scenarios: readonly Scenario[]): Promise<void> {
  const ips = clientIpPoolFor(100, 1);
  for (const scenario of scenarios) {
    const answers: Probe[] = [];
    for (const target of targets) {
      let answer = await probe(target, project, scenario, ips.next());
      if (scenario.endpoint === "cached") answer = await probe(target, project, scenario, ips.next());
      if (answer.status !== scenario.expectedStatus) {
        throw new Error(`scenario ${scenario.id}: ${target.name} answered ${answer.status} instead of ${scenario.expectedStatus}: ${answer.body.slice(0, 500)}`);
      }
      if (scenario.endpoint === "cached" && answer.headers.get("x-cache") !== "hit") {
        throw new Error(`scenario ${scenario.id}: ${target.name} did not answer from its cache on the second call`);
      }
      answers.push(answer);
    }
    const [app, reference] = answers.map((answer) => JSON.parse(answer.body) as unknown);
    const comparable = (value: unknown) => (scenario.expectedStatus === 201 ? Object.keys(value as object).sort() : value); // created records differ by id and time only
    if (JSON.stringify(comparable(app)) !== JSON.stringify(comparable(reference))) {
      throw new Error(
        `scenario ${scenario.id}: the app and the reference answer differently:\napp       ${answers[0]?.body.slice(0, 300)}\nreference ${answers[1]?.body.slice(0, 300)}`,
      );
    }
  }
  log(`answers agree: ${scenarios.map((scenario) => `scenario ${scenario.id} ${scenario.expectedStatus}`).join(", ")} (app and reference)`);
}

interface RunContext extends MeasureContext {
  targets: readonly Target[];
  project: BenchProject;
  options: BenchOptions;
}

/** One warmed-up measurement of one scenario against one target (profiled when a profiler is attached). */
function measureScenario(context: RunContext, target: Target, scenario: Scenario, run: { label: string; connections?: number; profileName?: string }): Promise<TargetRun> {
  const load: LoadSpec = {
    path: invocationPath(context.project, scenario),
    method: scenario.method,
    body: scenario.body,
    expectedStatus: scenario.expectedStatus,
    // Cache hits run no flow and write no log.
    writesLogs: scenario.endpoint !== "cached",
  };
  return measureOnce(context, target, load, run);
}

/** Peak throughput: every scenario against both targets, interleaved, `rounds` times; the median round is reported. */
async function measurePeaks(context: RunContext, scenarios: readonly Scenario[]): Promise<ScenarioReport[]> {
  const { options } = context;
  const results = new Map<string, TargetRun[]>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const scenario of scenarios) {
      for (const target of context.targets) {
        const label = `scenario ${scenario.id}${options.rounds > 1 ? ` round ${round}` : ""} · ${target.name}`;
        const result = await measureScenario(context, target, scenario, { label, profileName: `scenario-${scenario.id}-${target.name}-round-${round}` });
        const key = `${scenario.id}:${target.name}`;
        results.set(key, [...(results.get(key) ?? []), result]);
      }
    }
  }
  return scenarios.map((scenario) =>
    scenarioReport(scenario, toMeasurement(results.get(`${scenario.id}:app`) ?? []), toMeasurement(results.get(`${scenario.id}:reference`) ?? [])),
  );
}

/**
 * Latency without queueing: few connections (default one), so each request is served on its own.
 * At peak a closed loop of N connections has p50 ≈ N ÷ req/s, so a p50 comparison there only
 * repeats the throughput ratio.
 */
async function measureUnloaded(context: RunContext, scenarios: readonly Scenario[], reports: readonly ScenarioReport[]): Promise<void> {
  const connections = context.options.latencyConnections;
  for (const report of reports) {
    const scenario = scenarios.find((candidate) => candidate.id === report.id) as Scenario;
    const measured: Measurement[] = [];
    for (const target of context.targets) {
      const label = `scenario ${scenario.id} · ${target.name}, ${connections} connection${connections === 1 ? "" : "s"}`;
      measured.push(toMeasurement([await measureScenario(context, target, scenario, { label, connections })]));
    }
    addUnloaded(report, connections, measured[0] as Measurement, measured[1] as Measurement);
  }
}

async function main(): Promise<number> {
  const options = parseBenchOptions(process.argv.slice(2));
  if (!options) {
    console.log(BENCH_HELP);
    return 0;
  }
  cleanupState.keep = options.keep;
  const machine = { ...machineInfo(), roundTrip: await measureRoundTripCost() };
  log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverageAtStart.join(" ")}`);
  log(`a message to another process and back: ${machine.roundTrip.wallMicros.toFixed(0)} µs, CPU ${machine.roundTrip.cpuMicros.toFixed(0)} µs (both processes; loopback TCP)`);
  await checkServers();

  const workDir = mkdtempSync(path.join(os.tmpdir(), "flowpoint-bench-"));
  cleanupState.workDir = workDir;
  const staleBuild = options.build ? "--build" : staleBuildReason(process.cwd());
  if (staleBuild) {
    log(`a production build is needed: ${staleBuild}`);
    await build(path.join(workDir, "build.log"));
  }
  await compileBenchEntries();
  const code = codeInfo();

  let pinned = options.pin;
  if (pinned && (machine.cores < 2 || !hasTaskset())) {
    log(machine.cores < 2 ? "only one core: not pinning" : "taskset (util-linux) is missing: not pinning");
    pinned = false;
  }
  if (pinned) pinSelf(LOAD_CORE);
  const serverCore = pinned ? SERVER_CORE : null;

  const stamp = `${Date.now()}`;
  const provisionStores = async (keyPrefixStem: string): Promise<BenchStores> => {
    const platformDatabase = `${options.databasePrefix}_platform_${stamp}`;
    const customerDatabase = `${options.databasePrefix}_customer_${stamp}`;
    cleanupState.databases.push(platformDatabase);
    await createDatabase(platformDatabase);
    cleanupState.databases.push(customerDatabase);
    await createDatabase(customerDatabase);
    const keyPrefix = options.kvPrefix ?? `${keyPrefixStem}${stamp}:`;
    cleanupState.redisPatterns.push(`${keyPrefix}*`);
    return { platformDatabase, customerDatabase, keyPrefix };
  };
  const modeContext: BenchModeContext = {
    options,
    log,
    cleanup: cleanupState,
    workDir,
    pinned,
    serverCore,
    machine,
    code,
    stamp,
    appEnvironment,
    freePort,
    createDatabase,
    provisionStores,
    keepWorkDir: () => (keepWorkDir = true),
  };
  if (options.automations) {
    // Servers on one core; workers beside the load generator on the other, the same for both targets.
    return runAutomationBench({ ...modeContext, workerCore: pinned ? LOAD_CORE : null });
  }
  if (options.records !== null) {
    return runRecordsBench({ ...modeContext, loadCore: pinned ? LOAD_CORE : null });
  }
  const { platformDatabase, customerDatabase, keyPrefix } = await provisionStores("fpinvbench");
  log(`databases ${platformDatabase}, ${customerDatabase} created; Redis key prefix ${keyPrefix}; logs in ${workDir}`);

  const [appPort, referencePort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { ...appEnvironment(appPort, platformDatabase, path.join(workDir, "data")), KV_KEY_PREFIX: keyPrefix };
  // With --cpu-prof both servers open an inspector on a random local port; measured runs are profiled through it.
  const inspect = options.cpuProfile ? ["--inspect=127.0.0.1:0"] : [];
  const app = startProcess({
    name: "app (npm start)",
    command: process.execPath,
    args: [...inspect, ...options.appNodeFlags, compiledEntry("start")],
    env,
    logFile: path.join(workDir, "app.log"),
    core: serverCore,
  });
  cleanupState.processes.push(app);
  log(`app starting on port ${appPort} (pid ${app.pid}${serverCore === null ? "" : `, core ${serverCore}`}, node flags: ${describeNodeFlags(options.appNodeFlags)})`);
  const appTarget: Target = { name: "app", process: app, baseUrl: `http://127.0.0.1:${appPort}` };
  await waitForHttp(`${appTarget.baseUrl}/api/health`, app, 180_000);
  log("app healthy (/api/health)");

  const customerDatabaseUrl = databaseUrl(customerDatabase);
  const project = await setupBenchProject({ baseUrl: appTarget.baseUrl, env, customerDatabaseUrl, log });
  const endpointIds = Object.values(project.endpoints).map((endpoint) => endpoint.id);
  cleanupState.redisPatterns.push(
    ...endpointIds.flatMap((id) => [`fp:rl:*:inv:${id}:*`, `fp:c:resp:${id}:*`]),
    `fp:c:prj-gen:${project.projectId}`,
    `fp:rl:*:mgmt:key:${project.apiKeyId}:*`,
    `*${project.projectId}*`,
  );

  const reference = startProcess({
    name: "reference",
    command: process.execPath,
    args: [...inspect, compiledEntry("reference")],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(referencePort),
      REDIS_URL,
      CUSTOMER_DATABASE_URL: customerDatabaseUrl,
      BENCH_REFERENCE_CONFIG: JSON.stringify({ projectId: project.projectId, endpoints: project.endpoints }),
    },
    logFile: path.join(workDir, "reference.log"),
    core: serverCore,
  });
  cleanupState.processes.push(reference);
  const referenceTarget: Target = { name: "reference", process: reference, baseUrl: `http://127.0.0.1:${referencePort}` };
  await waitForHttp(`${referenceTarget.baseUrl}/health`, reference, 60_000);
  log(`reference listening on port ${referencePort} (pid ${reference.pid})`);

  const scenarioIds = new Set(options.scenarioIds);
  if (options.soak && !scenarioIds.has(2)) {
    log("the soak runs at a share of scenario 2's peak: measuring scenario 2 too");
    scenarioIds.add(2);
  }
  const scenarios = SCENARIOS.filter((scenario) => scenarioIds.has(scenario.id));
  const targets = [appTarget, referenceTarget];
  await checkAnswersAgree(targets, project, scenarios);
  if (options.serve) {
    for (const scenario of scenarios) {
      const body = scenario.body ? ` -H 'content-type: application/json' -d '${scenario.body}'` : "";
      for (const target of targets)
        console.log(
          `scenario ${scenario.id} ${target.name.padEnd(9)} curl -X ${scenario.method} -H 'x-real-ip: 10.255.0.1'${body} ${target.baseUrl}${invocationPath(project, scenario)}`,
        );
    }
    log(`serving: app pid ${app.pid}, reference pid ${reference.pid}, logs in ${workDir}; Ctrl-C to stop and clean up`);
    await new Promise(() => undefined);
  }
  if (options.cpuProfile) {
    for (const target of targets) target.profiler = await InspectorProfiler.connectFromLog(target.process.logFile);
    keepWorkDir = true;
    log(`profiling every measured run (profiles are kept in ${workDir})`);
  }

  const logs = await ExecutionLogCounter.connect(customerDatabaseUrl);
  cleanupState.closers.push(() => logs.close());
  const context: RunContext = { targets, project, options, profileDir: workDir, logs, log };
  const reports = await measurePeaks(context, scenarios);
  for (const target of targets) target.profiler?.close();
  console.log(`\n${formatTable(reports)}\n`);
  if (options.latencyConnections > 0) {
    await measureUnloaded(context, scenarios, reports);
    console.log(`\n${formatUnloadedTable(reports)}\n`);
  }

  const report: BenchReport = {
    date: new Date().toISOString(),
    code,
    machine: { ...machine, loadAverageAtEnd: [] },
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      rounds: options.rounds,
      latencyConnections: options.latencyConnections > 0 ? options.latencyConnections : null,
      pinned,
      appCore: serverCore,
      loadGeneratorCore: pinned ? LOAD_CORE : null,
      appNodeFlags: options.appNodeFlags,
    },
    scenarios: reports,
    allTargetsMet: reports.every(scenarioMet),
    notes: [
      `app = npm start (${["node", ...options.appNodeFlags, compiledEntry("start")].join(" ")}, production build); reference = bench/reference/server.ts (plain node:http, same queries and Redis calls)`,
      "app and reference run one after the other on the same core; autocannon runs on another; PostgreSQL and Redis are not pinned",
      `seed records written through the ${project.seededThrough === "api" ? "records API" : "record services (records API route missing)"}`,
    ],
  };

  if (options.soak) {
    const uncached = reports.find((candidate) => candidate.id === 2) as ScenarioReport;
    const rate = Math.max(1, Math.round(uncached.app.requestsPerSecond * options.soakRateShare));
    await waitForIdle(app.pid);
    log(
      `soak: scenario 2 at ${rate} req/s (${Math.round(options.soakRateShare * 100)} % of the app's ${uncached.app.requestsPerSecond.toFixed(0)}) for ${options.soakMinutes} min`,
    );
    const scenario = SCENARIOS.find((candidate) => candidate.id === 2) as Scenario;
    report.soak = await runSoak({
      baseUrl: appTarget.baseUrl,
      path: invocationPath(project, scenario),
      scenario,
      rate,
      minutes: options.soakMinutes,
      connections: options.connections,
      pid: app.pid,
      log,
    });
    report.allTargetsMet &&= report.soak.flat;
    console.log(`\n${formatSoak(report.soak)}\n`);
  }

  report.machine.loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);
  writeReport(options.output, report);
  log(`results written to ${path.relative(process.cwd(), options.output)}`);

  if (!report.allTargetsMet)
    log(
      `targets missed: ${
        reports
          .filter((candidate) => !scenarioMet(candidate))
          .map((candidate) => `scenario ${candidate.id}`)
          .join(", ") || ""
      }${report.soak && !report.soak.flat ? " soak" : ""}`,
    );
  return options.check && !report.allTargetsMet ? 1 : 0;
}

let interrupted = false;
/** The CPU profile stays for a closer look (Chrome DevTools, speedscope). */
let keepWorkDir = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) {
      killAllProcessesNow();
      process.exit(130);
    }
    interrupted = true;
    log(`${signal}: stopping and cleaning up (again to stop at once)`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", killAllProcessesNow);

main()
  .then(async (code) => {
    await cleanup();
    if (cleanupState.workDir && code === 0 && !cleanupState.keep && !keepWorkDir) rmSync(cleanupState.workDir, { recursive: true, force: true });
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(`[bench] failed: ${error instanceof Error ? error.message : String(error)}`);
    if (cleanupState.workDir) console.error(`[bench] logs kept in ${cleanupState.workDir}`);
    await cleanup();
    process.exit(1);
  });
