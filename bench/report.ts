import os from "node:os";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { LoadResult } from "./load/run-load";
import type { RoundTripCost } from "./round-trip-probe";
import { MAX_RSS_DRIFT, MIN_THROUGHPUT_RATIO, type Scenario } from "./scenarios";

/** How the after-response execution logs kept up with the answers of one measured run. */
export interface ExecutionLogLag {
  /** Logs that reached the database while the run lasted (the rest were queued in the server). */
  writtenDuringRun: number;
  /** Seconds after the run until the last queued log arrived. */
  catchUpSeconds: number;
  /** Answers whose log never arrived (the app gives up on a log after pg-pool's 5 s connection wait). */
  missing: number;
}

export interface Measurement {
  requestsPerSecond: number;
  /** The server process's CPU time (user + system, including after-response work) per answered request. */
  cpuMsPerRequest: number | null;
  /** CPU share of its core autocannon used (near 1: the load generator, not the server, set the pace). */
  loadGeneratorCpuShare: number;
  /** Null for cache hits, which write no log. */
  executionLogs: ExecutionLogLag | null;
  latencyMs: LoadResult["latencyMs"];
  responses: number;
  failures: number;
  statuses: Record<string, number>;
  /** Requests/s of every round (the reported one is the median). */
  roundsRequestsPerSecond: number[];
}

export interface ScenarioReport {
  id: number;
  name: string;
  app: Measurement;
  reference: Measurement;
  /** app req/s ÷ reference req/s */
  throughputRatio: number;
  /** reference CPU per request ÷ app CPU per request: the throughput ratio a quiet core would show. */
  cpuEfficiencyRatio: number | null;
  /** app p50 − reference p50 at peak, ms (at saturation this mostly mirrors the throughput ratio: p50 ≈ connections ÷ req/s) */
  p50DifferenceMs: number;
  /** Few connections (default one): each request is served alone, so latency is the path's own, without queueing. */
  unloaded?: { connections: number; app: Measurement; reference: Measurement; p50DifferenceMs: number };
  targets: {
    throughput: { minRatio: number; met: boolean };
    /** Judged on the unloaded run when it was measured, else at peak. */
    p50?: { maxDifferenceMs: number; basis: "unloaded" | "peak"; met: boolean };
    /** Every answer had the expected status (no 429s from a too-small IP pool, no errors). */
    cleanAnswers: boolean;
  };
}

export interface SoakReport {
  minutes: number;
  targetRate: number;
  achievedRate: number;
  latencyMs: LoadResult["latencyMs"];
  failures: number;
  /** [seconds since start, RSS MiB] */
  samples: Array<[number, number]>;
  warmupSeconds: number;
  /** afterWarmup/atEnd: means of a window (a minute, or a fifth of a shorter soak); floor…: the windows' minimums. */
  rssMiB: { first: number; afterWarmup: number; atEnd: number; floorAfterWarmup: number; floorAtEnd: number; last: number; max: number; min: number };
  /** |atEnd − afterWarmup| ÷ afterWarmup */
  drift: number;
  flat: boolean;
}

export interface BenchReport {
  date: string;
  /** What was measured: the checked-out commit (others' uncommitted work may be in the tree) and the .next build. */
  code: { commit: string | null; buildId: string | null };
  machine: {
    cpu: string;
    cores: number;
    memoryGiB: number;
    node: string;
    os: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
    /** One message to another process and its answer, measured at the start (bench/round-trip-probe.ts); absent in reports before 2026-12-07. */
    roundTrip?: RoundTripCost;
  };
  settings: {
    durationSeconds: number;
    warmupSeconds: number;
    connections: number;
    rounds: number;
    /** Connections of the unloaded latency runs (null: not measured). */
    latencyConnections: number | null;
    pinned: boolean;
    appCore: number | null;
    loadGeneratorCore: number | null;
    /** Node flags the app ran with (npm start's unless --node-flags). */
    appNodeFlags: readonly string[];
  };
  scenarios: ScenarioReport[];
  soak?: SoakReport;
  allTargetsMet: boolean;
  notes: string[];
}

export function codeInfo(): BenchReport["code"] {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  let buildId: string | null = null;
  try {
    buildId = readFileSync(".next/BUILD_ID", "utf8").trim();
  } catch {
    // no build
  }
  return { commit: commit.status === 0 ? commit.stdout.trim() : null, buildId };
}

export function machineInfo(): Omit<BenchReport["machine"], "loadAverageAtEnd" | "roundTrip"> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

export function scenarioReport(scenario: Scenario, app: Measurement, reference: Measurement): ScenarioReport {
  const throughputRatio = app.requestsPerSecond / reference.requestsPerSecond;
  const p50DifferenceMs = app.latencyMs.p50 - reference.latencyMs.p50;
  const cpuEfficiencyRatio = app.cpuMsPerRequest && reference.cpuMsPerRequest ? reference.cpuMsPerRequest / app.cpuMsPerRequest : null;
  return {
    id: scenario.id,
    name: scenario.name,
    app,
    reference,
    throughputRatio,
    cpuEfficiencyRatio,
    p50DifferenceMs,
    targets: {
      throughput: { minRatio: MIN_THROUGHPUT_RATIO, met: throughputRatio >= MIN_THROUGHPUT_RATIO },
      ...(scenario.p50BudgetMs === null ? {} : { p50: { maxDifferenceMs: scenario.p50BudgetMs, basis: "peak" as const, met: p50DifferenceMs <= scenario.p50BudgetMs } }),
      cleanAnswers: app.failures === 0 && reference.failures === 0,
    },
  };
}

/** Adds the unloaded measurement; the p50 target is then judged on it. */
export function addUnloaded(report: ScenarioReport, connections: number, app: Measurement, reference: Measurement): void {
  const p50DifferenceMs = app.latencyMs.p50 - reference.latencyMs.p50;
  report.unloaded = { connections, app, reference, p50DifferenceMs };
  if (report.targets.p50) report.targets.p50 = { ...report.targets.p50, basis: "unloaded", met: p50DifferenceMs <= report.targets.p50.maxDifferenceMs };
  report.targets.cleanAnswers &&= app.failures === 0 && reference.failures === 0;
}

export function scenarioMet(report: ScenarioReport): boolean {
  return report.targets.throughput.met && (report.targets.p50?.met ?? true) && report.targets.cleanAnswers;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const signed = (value: number) => `${value >= 0 ? "+" : ""}${fixed(value, 2)}`;

function pad(cells: string[], widths: number[]): string {
  return cells.map((cell, index) => (index < 2 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join("  ");
}

/** The results table for the terminal (and the README). */
export function formatTable(scenarios: readonly ScenarioReport[]): string {
  const header = ["scenario", "target", "req/s", "p50 ms", "p95 ms", "p99 ms", "CPU ms/req", "logs late", "logs lost", "ratio", "p50 diff"];
  const rows: string[][] = [];
  for (const scenario of scenarios) {
    const mark = (met: boolean | undefined) => (met === undefined ? "" : met ? " ok" : " MISS");
    const row = (target: string, measurement: Measurement, ratio: string, diff: string, cpu: string) => [
      target === "app" ? `${scenario.id}. ${scenario.name}` : "",
      target,
      fixed(measurement.requestsPerSecond, 0),
      fixed(measurement.latencyMs.p50, 2),
      fixed(measurement.latencyMs.p95, 2),
      fixed(measurement.latencyMs.p99, 2),
      cpu,
      measurement.executionLogs ? `${fixed(measurement.executionLogs.catchUpSeconds, 1)} s` : "–",
      measurement.executionLogs ? String(measurement.executionLogs.missing) : "–",
      ratio,
      diff,
    ];
    rows.push(
      row(
        "app",
        scenario.app,
        `${fixed(scenario.throughputRatio * 100, 0)} %${mark(scenario.targets.throughput.met)}`,
        `${signed(scenario.p50DifferenceMs)} ms${scenario.targets.p50?.basis === "peak" ? mark(scenario.targets.p50.met) : ""}`,
        `${fixed(scenario.app.cpuMsPerRequest ?? Number.NaN, 3)}${scenario.cpuEfficiencyRatio === null ? "" : ` (${fixed(scenario.cpuEfficiencyRatio * 100, 0)} %)`}`,
      ),
    );
    rows.push(row("reference", scenario.reference, "", "", fixed(scenario.reference.cpuMsPerRequest ?? Number.NaN, 3)));
  }
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index]?.length ?? 0)));
  const lines = [pad(header, widths), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map((row) => pad(row, widths))];
  lines.push(
    "CPU ms/req: the server's CPU per answer incl. after-response work (app: % of the reference's efficiency); logs late: seconds after the run until the last execution log was stored; logs lost: never stored.",
  );
  const failures = scenarios.filter((scenario) => !scenario.targets.cleanAnswers);
  for (const scenario of failures) {
    lines.push(`! scenario ${scenario.id}: unexpected answers — app ${JSON.stringify(scenario.app.statuses)}, reference ${JSON.stringify(scenario.reference.statuses)}`);
  }
  return lines.join("\n");
}

/** Latency with few connections, no queueing (where the p50 targets are judged). */
export function formatUnloadedTable(scenarios: readonly ScenarioReport[]): string {
  const measured = scenarios.filter((scenario) => scenario.unloaded);
  const first = measured[0]?.unloaded;
  if (!first) return "";
  const header = ["scenario", "app req/s", "ref req/s", "app p50", "ref p50", "p50 diff", "app p95", "ref p95", "app p99", "ref p99"];
  const rows = measured.map((scenario) => {
    const rate = scenario.unloaded as NonNullable<ScenarioReport["unloaded"]>;
    const p50 = scenario.targets.p50;
    return [
      `${scenario.id}. ${scenario.name}`,
      fixed(rate.app.requestsPerSecond, 0),
      fixed(rate.reference.requestsPerSecond, 0),
      fixed(rate.app.latencyMs.p50, 2),
      fixed(rate.reference.latencyMs.p50, 2),
      `${signed(rate.p50DifferenceMs)} ms${p50 ? (p50.met ? " ok" : " MISS") : ""}`,
      fixed(rate.app.latencyMs.p95, 2),
      fixed(rate.reference.latencyMs.p95, 2),
      fixed(rate.app.latencyMs.p99, 2),
      fixed(rate.reference.latencyMs.p99, 2),
    ];
  });
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join("  ");
  const title = `unloaded latency, ${first.connections} connection${first.connections === 1 ? "" : "s"} (ms):`;
  return [title, line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

export function formatSoak(soak: SoakReport): string {
  const { rssMiB } = soak;
  return [
    `soak: ${soak.minutes} min at ${soak.targetRate} req/s (achieved ${fixed(soak.achievedRate, 0)} req/s, ${soak.failures} failures; p50 ${fixed(soak.latencyMs.p50, 2)} ms, p99 ${fixed(soak.latencyMs.p99, 2)} ms — autocannon sends each second's quota in a burst)`,
    `      RSS MiB (sampled every second): mean of the ${soak.warmupSeconds} s after warm-up ${fixed(rssMiB.afterWarmup, 0)} (floor ${fixed(rssMiB.floorAfterWarmup, 0)}), ` +
      `mean of the last ${soak.warmupSeconds} s ${fixed(rssMiB.atEnd, 0)} (floor ${fixed(rssMiB.floorAtEnd, 0)}); overall min ${fixed(rssMiB.min, 0)}, max ${fixed(rssMiB.max, 0)}`,
    `      drift ${fixed(soak.drift * 100, 1)} % → ${soak.flat ? `flat (within ±${MAX_RSS_DRIFT * 100} %)` : `NOT flat (over ±${MAX_RSS_DRIFT * 100} %)`}`,
  ].join("\n");
}

export function writeReport(file: string, report: object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
