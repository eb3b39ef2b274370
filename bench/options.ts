import path from "node:path";
import { parseArgs } from "node:util";

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
  /** Pin the app and the reference to core 0 and the load generator to core 1. */
  pin: boolean;
  output: string;
  /** Keep the databases and Redis keys afterwards (for inspection). */
  keep: boolean;
  /** Set up, start both servers, print their URLs and wait for Ctrl-C instead of measuring. */
  serve: boolean;
}

export const BENCH_HELP = `Usage: npm run bench -- [options]

Runs four scenarios against the production server (npm start) and a plain node:http reference
doing the same work, one after the other on one core, and prints requests/s, p50/p95/p99 and ratios.

  --duration S        measured seconds per scenario and target (default 10)
  --warmup S          warm-up seconds before each measurement (default 3)
  --connections N     concurrent connections (default 50)
  --rounds N          interleaved measurements per scenario and target, median reported (default 1)
  --scenarios LIST    e.g. 1,3 (default 1,2,3,4)
  --build             run npm run build first (otherwise only when .next is missing)
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
  --output FILE       JSON results (default bench/results/latest.json)
  --keep              keep the databases and Redis keys afterwards
  --serve             set up and start both servers, print the scenario URLs, wait for Ctrl-C (no measuring)`;

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
      output: { type: "string" },
      keep: { type: "boolean", default: false },
      serve: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) return null;

  const scenarioIds = (values.scenarios ?? "1,2,3,4")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);
  if (scenarioIds.length === 0 || scenarioIds.some((id) => ![1, 2, 3, 4].includes(id))) {
    throw new Error(`--scenarios must list scenario numbers 1–4, got "${values.scenarios}"`);
  }
  const latencyConnections = values["latency-connections"] === "0" ? 0 : positiveNumber("latency-connections", values["latency-connections"], 1, true);
  const soakRateShare = positiveNumber("soak-share", values["soak-share"], 0.7);
  if (soakRateShare > 1) throw new Error("--soak-share must be at most 1");

  return {
    durationSeconds: positiveNumber("duration", values.duration, 10),
    warmupSeconds: values.warmup === "0" ? 0 : positiveNumber("warmup", values.warmup, 3),
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
    output: path.resolve(values.output ?? "bench/results/latest.json"),
    keep: values.keep,
    serve: values.serve,
  };
}
