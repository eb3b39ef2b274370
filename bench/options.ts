import path from "node:path";
import { parseArgs } from "node:util";
import { SERVER_NODE_FLAGS } from "../server/node-flags";

export interface BenchOptions {
  /** Measured seconds per scenario and target. */
  durationSeconds: number;
  /** Unmeasured seconds before each measurement. */
  warmupSeconds: number;
  connections: number;
  /** Measurements per scenario and target, interleaved; the median by requests/s is reported. */
  rounds: number;
  scenarioIds: number[];
  build: boolean;
  /** Exit non-zero when a target is missed. */
  check: boolean;
  soak: boolean;
  soakMinutes: number;
  /** Connections of the unloaded latency runs (p50 targets); 0 = skip them. */
  latencyConnections: number;
  /** Share of the measured peak the soak holds. */
  soakRateShare: number;
  /** Highest requests/s any target is expected to reach; sizes the client IP pools. */
  maxRate: number;
  /** Profile the app (node --cpu-prof) and print where its time goes. */
  cpuProfile: boolean;
  /** Node flags of the app (and its automation worker): npm start's own by default (server/node-flags.ts). */
  appNodeFlags: readonly string[];
  /** Pin the app and the reference to core 0 and the load generator to core 1. */
  pin: boolean;
  output: string;
  /** Keep the databases and Redis keys afterwards (for inspection). */
  keep: boolean;
  /** Set up, start both servers, print their URLs and wait for Ctrl-C instead of measuring. */
  serve: boolean;
  /** Database names start with this (then _platform_<ts>, _customer_<ts>); must end in "bench". */
  databasePrefix: string;
  /** Run the automation benchmark (issue 10) instead of the invocation scenarios. */
  automations: boolean;
  /** Smoke run: a few seconds per rate, coarse steps; the results are marked as smoke. */
  quick: boolean;
  /** Automations: seconds each offered rate is held. */
  stepSeconds: number;
  /** Automations: with --rates, seconds with no load between the steps (0 = none). */
  idleSeconds: number;
  /** Automations: offered rates to hold, in order; null = step up from startRate until the backlog grows. */
  rates: number[] | null;
  startRate: number;
  rateFactor: number;
  /** Automations: bisections between the last flat and the first growing rate. */
  refineSteps: number;
  /** Automations: highest writes/s expected (sizes the pool of write keys, caps the step-up). */
  maxWriteRate: number;
  /** Automations: records API throughput with and without the automation. */
  writeCheck: boolean;
  /** Automations: before the ladders, each --rates rate held with the automation disabled (the records API's own CPU per write at that rate). */
  writesAlone: boolean;
  /** Automations: kill -9 the worker under load. */
  killCheck: boolean;
  killSeconds: number;
  /** Automations: offered rate of the kill check; null = 80 % of the app's sustained rate. */
  killRate: number | null;
  /** Automations: AUTOMATION_LOCK_SECONDS of the app and its worker (how soon a dead worker's runs are re-run). */
  lockSeconds: number;
  /** Automations: run slots per project in the worker (bench/automations/automation-worker.ts); null = the app's default. */
  projectSlots: number | null;
  /** Automations: the app works the queue itself instead of a separate `npm run worker` (no kill check). */
  embeddedWorker: boolean;
  /** Automations: measure the app only (no reference ladder; for quick experiments such as --project-slots). */
  skipReference: boolean;
  /** Automations: also find Directus Flows' sustained rate on the same work (bench/automations/directus-peer.ts). */
  directus: boolean;
  /** Automations: KV_KEY_PREFIX of the app (default fpbench<ts>:); every key under it is deleted afterwards. */
  kvPrefix: string | null;
  /** Run the records-at-scale benchmark (issue 11) with this many tickets instead of the invocation scenarios. */
  records: number | null;
  /** Records: NDJSON lines per import request. */
  importBatch: number;
  /** Records: highest records API requests/s expected (sizes the pool of read keys, 600 calls a minute each). */
  maxApiRate: number;
  /** Records: seed through the record store when the import route is missing (development only). */
  seedDirectly: boolean;
}

/** The app's Node flags as the benchmarks' logs write them. */
export function describeNodeFlags(flags: readonly string[]): string {
  return flags.length === 0 ? "none (Node's defaults)" : flags.join(" ");
}

export const BENCH_HELP = `Usage: npm run bench -- [options]

Runs four scenarios against the production server (npm start) and a plain node:http reference
doing the same work, one after the other on one core, and prints requests/s, p50/p95/p99 and ratios.

  --duration S        measured seconds per scenario and target (default 10)
  --warmup S          warm-up seconds before each measurement (default 3)
  --connections N     concurrent connections (default 50)
  --rounds N          interleaved measurements per scenario and target, median reported (default 1)
  --scenarios LIST    e.g. 1,3 (default 1,2,3,4)
  --build             run npm run build first (otherwise only when .next is missing or older than a bundled source)
  --latency-connections N
                      then measure latency with N connections (default 1; 0 = skip): no queueing, so the
                      p50 targets are judged there (at peak a closed loop has p50 ≈ connections ÷ req/s)
  --check             exit 1 when a target is missed
  --soak              then hold scenario 2 at 70 % of the app's peak and watch resident memory
  --soak-minutes M    soak length (default 5)
  --soak-share F      share of the peak the soak holds (default 0.7)
  --max-rate R        highest expected requests/s, sizes the client IP pools (default 50000)
  --cpu-prof          profile every measured run of both servers (inspector) and print where the time goes
  --no-pin            do not pin processes to cores (taskset)
  --node-flags="F"    Node flags of the app and its worker instead of npm start's (server/node-flags.ts);
                      "" runs them with Node's defaults (A/B of a flag)
  --output FILE       JSON results (default bench/results/latest.json)
  --keep              keep the databases and Redis keys afterwards
  --serve             set up and start both servers, print the scenario URLs, wait for Ctrl-C (no measuring)
  --db-prefix NAME    database name prefix, ending in "bench" (default bench → bench_platform_<ts>, bench_customer_<ts>)

Automations (issue 10): records API write → BullMQ → run with one Create step, against a node:http +
BullMQ reference (bench/reference/automation-reference.ts); results in bench/results/automations.json.

  --automations       run the automation benchmark instead of the scenarios above
  --quick             smoke run: 3 s per rate, doubling rates, 1 s warm-up, 3 s write runs, 8 s kill check
                      (writes bench/results/automations-smoke.json, marked as smoke)
  --step-seconds S    seconds each offered rate is held (default 10)
  --rounds N          the app's and the reference's ladders N times, one after the other, taking turns
                      to go first; the round with the median ratio is reported (default 1)
  --rates LIST        offered rates to hold, e.g. 250,500,1000 (default: step up until the backlog grows)
  --idle-seconds S    with --rates, S seconds with no load before each step after the first: the app idle,
                      as it is during the reference's ladder before the step at the target rate (default 0)
  --start-rate R      first offered rate of the step-up (default 200)
  --rate-factor F     step-up factor (default 1.5)
  --refine N          bisections between the last flat and the first growing rate (default 3)
  --max-write-rate R  highest writes/s expected; sizes the write-key pool (600 calls/min per key) (default 3000)
  --no-write-check    skip the records API throughput with vs without the automation
                      (uses --connections, --warmup, --duration, --rounds)
  --writes-alone      before the ladders, hold each --rates rate with the automation disabled: the
                      records API's own CPU per write at that rate, beside the ladder's with it
  --no-kill           skip the kill -9 of the worker
  --kill-seconds S    length of the kill check (default 20; the kill comes at 40 %, once a run is in progress)
  --kill-rate R       offered rate of the kill check (default: 80 % of the app's sustained rate)
  --lock-seconds S    AUTOMATION_LOCK_SECONDS of the app and worker (default 10)
  --project-slots N   run slots per project in the worker (default: the app's PROJECT_CONCURRENCY)
  --embedded-worker   the app works the queue itself (no separate worker, no kill check)
  --skip-reference    measure the app only (experiments; the ratio target is then not judged)
  --directus          after the rounds, Directus 12.4 Flows' ladder on the same work, for "≥ 5× Directus"
                      (installs directus@12.4.0 from npm into ~/.cache/flowpoint-bench on first use, ~700 MB)
  --kv-prefix P       the app's KV_KEY_PREFIX (default fpinvbench / fpbench / fprecbench + <ts>:), deleted afterwards

Records at scale (issue 11): N tickets imported through the NDJSON import route, then scenarios 1-4 and
five query scenarios against the app, the same-work reference (1-4) and a plain node:http + pg floor
(bench/reference/floor-server.ts); results in bench/results/records-<N>.json.

  --records N         run the records benchmark with N tickets (e.g. 1000, 100000, 1000000)
                      (uses --duration, --warmup, --connections, --rounds, --latency-connections,
                      --scenarios 1-9, --cpu-prof, --serve, --keep, --output, --db-prefix, --kv-prefix)
  --import-batch L    NDJSON lines per import request (default 100000)
  --max-api-rate R    highest records API requests/s expected; sizes the read-key pool (default 3000)
  --seed-directly     seed through the record store when the import route is missing (development only;
                      the results say so)`;

function positiveNumber(name: string, value: string | undefined, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
    throw new Error(`--${name} must be a positive ${integer ? "integer" : "number"}, got "${value}"`);
  }
  return number;
}

/** Parses `npm run bench -- …`; null when help was asked for. */
export function parseBenchOptions(argv: string[]): BenchOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      rounds: { type: "string" },
      scenarios: { type: "string" },
      build: { type: "boolean", default: false },
      check: { type: "boolean", default: false },
      "latency-connections": { type: "string" },
      soak: { type: "boolean", default: false },
      "soak-minutes": { type: "string" },
      "soak-share": { type: "string" },
      "max-rate": { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
      "no-pin": { type: "boolean", default: false },
      "node-flags": { type: "string" },
      output: { type: "string" },
      keep: { type: "boolean", default: false },
      serve: { type: "boolean", default: false },
      "db-prefix": { type: "string" },
      automations: { type: "boolean", default: false },
      "writes-alone": { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
      "step-seconds": { type: "string" },
      rates: { type: "string" },
      "idle-seconds": { type: "string" },
      "start-rate": { type: "string" },
      "rate-factor": { type: "string" },
      refine: { type: "string" },
      "max-write-rate": { type: "string" },
      "no-write-check": { type: "boolean", default: false },
      "no-kill": { type: "boolean", default: false },
      "kill-seconds": { type: "string" },
      "kill-rate": { type: "string" },
      "lock-seconds": { type: "string" },
      "project-slots": { type: "string" },
      "embedded-worker": { type: "boolean", default: false },
      "skip-reference": { type: "boolean", default: false },
      directus: { type: "boolean", default: false },
      "kv-prefix": { type: "string" },
      records: { type: "string" },
      "import-batch": { type: "string" },
      "max-api-rate": { type: "string" },
      "seed-directly": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) return null;

  const records = values.records === undefined ? null : positiveNumber("records", values.records, 0, true);
  if (values["idle-seconds"] && !values.rates) throw new Error("--idle-seconds pauses between the steps of --rates: give them");
  if (values["writes-alone"] && !values.rates) throw new Error("--writes-alone holds the rates of --rates: give them");
  if (records !== null && values.automations) throw new Error("--records and --automations are separate benchmarks: choose one");
  if (records !== null && records < 100) throw new Error("--records must be at least 100 (the selective filter matches 100 records)");
  // The records benchmark adds scenarios 5-9 (bench/records/records-scenarios.ts).
  const lastScenario = records === null ? 4 : 9;
  const scenarioIds = (values.scenarios ?? Array.from({ length: lastScenario }, (_, index) => index + 1).join(","))
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);
  if (scenarioIds.length === 0 || scenarioIds.some((id) => !Number.isInteger(id) || id < 1 || id > lastScenario)) {
    throw new Error(`--scenarios must list scenario numbers 1–${lastScenario}, got "${values.scenarios}"`);
  }
  const latencyConnections = values["latency-connections"] === "0" ? 0 : positiveNumber("latency-connections", values["latency-connections"], 1, true);
  const soakRateShare = positiveNumber("soak-share", values["soak-share"], 0.7);
  if (soakRateShare > 1) throw new Error("--soak-share must be at most 1");

  const quick = values.quick;
  const databasePrefix = values["db-prefix"] ?? "bench";
  if (!/^[a-z0-9_]*bench$/.test(databasePrefix)) throw new Error(`--db-prefix must be lowercase letters, digits or _ ending in "bench", got "${databasePrefix}"`);
  const rates = values.rates ? values.rates.split(",").map((part) => positiveNumber("rates", part.trim(), 0, true)) : null;
  const rateFactor = positiveNumber("rate-factor", values["rate-factor"], quick ? 2 : 1.5);
  if (rateFactor <= 1.05) throw new Error("--rate-factor must be above 1.05");
  const lockSeconds = positiveNumber("lock-seconds", values["lock-seconds"], 10, true);
  if (lockSeconds < 2) throw new Error("--lock-seconds must be at least 2 (AUTOMATION_LOCK_SECONDS)");
  if (values["kv-prefix"] !== undefined && !/^[A-Za-z0-9:_.-]{1,60}$/.test(values["kv-prefix"])) throw new Error("--kv-prefix must be 1-60 of A-Z a-z 0-9 : _ . -");
  const defaults =
    quick && values.automations
      ? { output: "bench/results/automations-smoke.json", duration: 3, warmup: 1 }
      : {
          output: values.automations ? "bench/results/automations.json" : records !== null ? `bench/results/records-${records}.json` : "bench/results/latest.json",
          duration: 10,
          warmup: 3,
        };

  return {
    durationSeconds: positiveNumber("duration", values.duration, defaults.duration),
    warmupSeconds: values.warmup === "0" ? 0 : positiveNumber("warmup", values.warmup, defaults.warmup),
    connections: positiveNumber("connections", values.connections, 50, true),
    rounds: positiveNumber("rounds", values.rounds, 1, true),
    scenarioIds: [...new Set(scenarioIds)].sort(),
    build: values.build,
    check: values.check,
    latencyConnections,
    soak: values.soak,
    soakMinutes: positiveNumber("soak-minutes", values["soak-minutes"], 5),
    soakRateShare,
    maxRate: positiveNumber("max-rate", values["max-rate"], 50_000, true),
    cpuProfile: values["cpu-prof"],
    pin: !values["no-pin"],
    output: path.resolve(values.output ?? defaults.output),
    keep: values.keep,
    serve: values.serve,
    databasePrefix,
    automations: values.automations,
    quick,
    stepSeconds: positiveNumber("step-seconds", values["step-seconds"], quick ? 3 : 10),
    rates,
    idleSeconds: values["idle-seconds"] === "0" ? 0 : positiveNumber("idle-seconds", values["idle-seconds"], 0),
    startRate: positiveNumber("start-rate", values["start-rate"], 200, true),
    rateFactor,
    refineSteps: values.refine === "0" ? 0 : positiveNumber("refine", values.refine, quick ? 0 : 3, true),
    maxWriteRate: positiveNumber("max-write-rate", values["max-write-rate"], 3_000, true),
    writeCheck: !values["no-write-check"],
    writesAlone: values["writes-alone"],
    killCheck: !values["no-kill"],
    killSeconds: positiveNumber("kill-seconds", values["kill-seconds"], quick ? 8 : 20),
    killRate: values["kill-rate"] === undefined ? null : positiveNumber("kill-rate", values["kill-rate"], 0, true),
    lockSeconds,
    projectSlots: values["project-slots"] === undefined ? null : positiveNumber("project-slots", values["project-slots"], 0, true),
    embeddedWorker: values["embedded-worker"],
    skipReference: values["skip-reference"],
    directus: values.directus,
    kvPrefix: values["kv-prefix"] ?? null,
    appNodeFlags: values["node-flags"] === undefined ? SERVER_NODE_FLAGS : values["node-flags"].split(/\s+/).filter(Boolean),
    records,
    importBatch: positiveNumber("import-batch", values["import-batch"], 100_000, true),
    maxApiRate: positiveNumber("max-api-rate", values["max-api-rate"], 3_000, true),
    seedDirectly: values["seed-directly"],
  };
}
