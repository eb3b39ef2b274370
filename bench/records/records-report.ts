import { existsSync, readFileSync } from "node:fs";
import type { BenchReport, Measurement } from "../report";
import type { ImportStats } from "./setup-records-project";
import type { RecordsScenario } from "./records-scenarios";

/** What `npm run bench -- --records N` writes to bench/results/records-<N>.json. */

/** Issue 11's targets. */
export const RECORDS_TARGETS = {
  /** Scenarios 1-4: app req/s ≥ this share of the same-work reference's… */
  minReferenceRatio: 0.7,
  /** …and unloaded p50 at most this many ms above it. */
  maxReferenceP50DifferenceMs: 0.5,
  /** The simplest read: app req/s ≥ this share of the floor's… */
  minFloorRatio: 0.5,
  /** …and CPU per request at most this many times the floor's. */
  maxFloorCpuFactor: 2.5,
  /** Query scenarios at N records vs 1,000: unloaded p50 at most this many times… */
  maxScaleP50Factor: 2,
  /** …and throughput at least this share. */
  minScaleThroughputShare: 0.75,
  /** The run the scale targets compare with. */
  baselineRecords: 1_000,
} as const;

export type TargetName = "app" | "reference" | "floor";

export interface TargetMeasurements {
  app: Measurement;
  reference: Measurement | null;
  floor: Measurement;
}

export interface RecordsScenarioReport {
  id: number;
  name: string;
  via: RecordsScenario["via"];
  /** At --connections (throughput). */
  peak: TargetMeasurements;
  /** app req/s ÷ reference req/s, app req/s ÷ floor req/s; app CPU/req ÷ reference's, ÷ floor's. */
  ratios: { toReference: number | null; toFloor: number; cpuToReference: number | null; cpuToFloor: number | null };
  /** At --latency-connections (default 1): each request served alone. */
  unloaded?: { connections: number } & TargetMeasurements & { p50ToReferenceMs: number | null; p50ToFloor: number };
  targets: Array<{ name: string; met: boolean; detail: string }>;
  /** Every answer had the expected status (no 429 from a too-small IP or key pool, no errors). */
  cleanAnswers: boolean;
}

export interface ScaleComparison {
  id: number;
  name: string;
  baselineP50Ms: number;
  p50Ms: number;
  p50Factor: number;
  baselineRequestsPerSecond: number;
  requestsPerSecond: number;
  throughputShare: number;
  met: boolean;
}

export interface QueryPlan {
  query: string;
  statement: string;
  /** EXPLAIN (ANALYZE, BUFFERS) lines. */
  plan: string[];
  executionMs: number | null;
}

export interface RecordsBenchReport {
  kind: "records";
  date: string;
  code: BenchReport["code"];
  machine: BenchReport["machine"];
  settings: BenchReport["settings"] & { records: number; importBatch: number; maxApiRate: number; kvPrefix: string };
  records: {
    tickets: number;
    owners: number;
    seeding: ImportStats;
    /** How the planner got statistics after the import. */
    statistics: string;
    ticketsTableMiB: number;
    ticketsIndexesMiB: number;
    indexes: string[];
  };
  plans: QueryPlan[];
  scenarios: RecordsScenarioReport[];
  /** Against bench/results/records-1000.json (absent at 1,000 records or without that file). */
  scale: { baseline: { file: string; date: string; commit: string | null }; scenarios: ScaleComparison[] } | null;
  allTargetsMet: boolean;
  notes: string[];
}

const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? a / b : null);

export function recordsScenarioReport(scenario: RecordsScenario, peak: TargetMeasurements): RecordsScenarioReport {
  const report: RecordsScenarioReport = {
    id: scenario.id,
    name: scenario.name,
    via: scenario.via,
    peak,
    ratios: {
      toReference: peak.reference ? peak.app.requestsPerSecond / peak.reference.requestsPerSecond : null,
      toFloor: peak.app.requestsPerSecond / peak.floor.requestsPerSecond,
      cpuToReference: ratio(peak.app.cpuMsPerRequest, peak.reference?.cpuMsPerRequest),
      cpuToFloor: ratio(peak.app.cpuMsPerRequest, peak.floor.cpuMsPerRequest),
    },
    targets: [],
    cleanAnswers: [peak.app, peak.reference, peak.floor].every((measurement) => !measurement || measurement.failures === 0),
  };
  judge(report, scenario);
  return report;
}

export function addRecordsUnloaded(report: RecordsScenarioReport, scenario: RecordsScenario, connections: number, measured: TargetMeasurements): void {
  report.unloaded = {
    connections,
    ...measured,
    p50ToReferenceMs: measured.reference ? measured.app.latencyMs.p50 - measured.reference.latencyMs.p50 : null,
    p50ToFloor: measured.app.latencyMs.p50 / measured.floor.latencyMs.p50,
  };
  report.cleanAnswers &&= [measured.app, measured.reference, measured.floor].every((measurement) => !measurement || measurement.failures === 0);
  judge(report, scenario);
}

const percent = (value: number | null) => (value === null ? "–" : `${Math.round(value * 100)} %`);
/** Beside a threshold: one decimal, so that 69.6 % does not read as 70 %. */
const precisePercent = (value: number) => `${(value * 100).toFixed(1)} %`;

/** The issue's targets for one scenario (the scale targets are judged across runs, in compareScale). */
function judge(report: RecordsScenarioReport, scenario: RecordsScenario): void {
  const targets: RecordsScenarioReport["targets"] = [];
  if (scenario.hasReference && report.ratios.toReference !== null) {
    targets.push({
      name: `≥ ${RECORDS_TARGETS.minReferenceRatio * 100} % of the reference's req/s`,
      met: report.ratios.toReference >= RECORDS_TARGETS.minReferenceRatio,
      detail: precisePercent(report.ratios.toReference),
    });
    if (report.unloaded?.p50ToReferenceMs !== null && report.unloaded?.p50ToReferenceMs !== undefined) {
      targets.push({
        name: `unloaded p50 ≤ reference + ${RECORDS_TARGETS.maxReferenceP50DifferenceMs} ms`,
        met: report.unloaded.p50ToReferenceMs <= RECORDS_TARGETS.maxReferenceP50DifferenceMs,
        detail: `${report.unloaded.p50ToReferenceMs >= 0 ? "+" : ""}${report.unloaded.p50ToReferenceMs.toFixed(2)} ms`,
      });
    }
  }
  if (scenario.simplestRead) {
    targets.push({
      name: `≥ ${RECORDS_TARGETS.minFloorRatio * 100} % of the floor's req/s`,
      met: report.ratios.toFloor >= RECORDS_TARGETS.minFloorRatio,
      detail: precisePercent(report.ratios.toFloor),
    });
    const cpu = report.ratios.cpuToFloor;
    targets.push({
      name: `CPU/req ≤ ${RECORDS_TARGETS.maxFloorCpuFactor}× the floor's`,
      met: cpu !== null && cpu <= RECORDS_TARGETS.maxFloorCpuFactor,
      detail: cpu === null ? "?" : `${cpu.toFixed(2)}×`,
    });
  }
  targets.push({ name: "clean answers", met: report.cleanAnswers, detail: report.cleanAnswers ? "all expected" : "unexpected statuses" });
  report.targets = targets;
}

/** The scale targets: each record-reading scenario at N records against the same scenario of the 1,000-record run. */
export function compareScale(file: string, tickets: number, scenarios: readonly RecordsScenarioReport[], judged: readonly RecordsScenario[]): RecordsBenchReport["scale"] {
  if (tickets === RECORDS_TARGETS.baselineRecords || !existsSync(file)) return null;
  const baseline = JSON.parse(readFileSync(file, "utf8")) as Partial<RecordsBenchReport>;
  if (baseline.kind !== "records" || !Array.isArray(baseline.scenarios)) return null;
  const comparisons: ScaleComparison[] = [];
  for (const report of scenarios) {
    const scenario = judged.find((candidate) => candidate.id === report.id);
    const before = baseline.scenarios.find((candidate) => candidate.id === report.id);
    if (!scenario?.readsRecords || !before?.unloaded || !report.unloaded) continue;
    const p50Factor = report.unloaded.app.latencyMs.p50 / before.unloaded.app.latencyMs.p50;
    const throughputShare = report.peak.app.requestsPerSecond / before.peak.app.requestsPerSecond;
    comparisons.push({
      id: report.id,
      name: report.name,
      baselineP50Ms: before.unloaded.app.latencyMs.p50,
      p50Ms: report.unloaded.app.latencyMs.p50,
      p50Factor,
      baselineRequestsPerSecond: before.peak.app.requestsPerSecond,
      requestsPerSecond: report.peak.app.requestsPerSecond,
      throughputShare,
      met: p50Factor <= RECORDS_TARGETS.maxScaleP50Factor && throughputShare >= RECORDS_TARGETS.minScaleThroughputShare,
    });
  }
  return { baseline: { file, date: baseline.date ?? "?", commit: baseline.code?.commit ?? null }, scenarios: comparisons };
}

const fixed = (value: number | null | undefined, digits: number) => (value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits));

function table(header: string[], rows: string[][], leftColumns: number): string {
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, index) => (index < leftColumns ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

function targetRows(scenario: RecordsScenarioReport, measured: TargetMeasurements, columns: (name: TargetName, measurement: Measurement) => string[]): string[][] {
  const rows: string[][] = [];
  for (const name of ["app", "reference", "floor"] as const) {
    const measurement = measured[name];
    if (!measurement) continue;
    rows.push([name === "app" ? `${scenario.id}. ${scenario.name}` : "", name, ...columns(name, measurement)]);
  }
  return rows;
}

/** Throughput at --connections: req/s, latency, CPU per request, and the app's ratios to both references. */
export function formatRecordsTable(scenarios: readonly RecordsScenarioReport[], connections: number): string {
  const header = ["scenario", "target", "req/s", "p50 ms", "p95 ms", "p99 ms", "CPU ms/req", "logs lost", "app ÷ ref", "app ÷ floor", "CPU × ref", "CPU × floor"];
  const rows = scenarios.flatMap((scenario) =>
    targetRows(scenario, scenario.peak, (name, measurement) => [
      fixed(measurement.requestsPerSecond, 0),
      fixed(measurement.latencyMs.p50, 2),
      fixed(measurement.latencyMs.p95, 2),
      fixed(measurement.latencyMs.p99, 2),
      fixed(measurement.cpuMsPerRequest, 3),
      measurement.executionLogs ? String(measurement.executionLogs.missing) : "–",
      name === "app" ? percent(scenario.ratios.toReference) : "",
      name === "app" ? percent(scenario.ratios.toFloor) : "",
      name === "app" ? (scenario.ratios.cpuToReference === null ? "–" : `${fixed(scenario.ratios.cpuToReference, 2)}×`) : "",
      name === "app" ? (scenario.ratios.cpuToFloor === null ? "–" : `${fixed(scenario.ratios.cpuToFloor, 2)}×`) : "",
    ]),
  );
  const lines = [
    `throughput, ${connections} connections:`,
    table(header, rows, 2),
    "CPU ms/req: the server's CPU per answer incl. after-response work; logs lost: answers whose execution log never arrived; × ref / × floor: the app's CPU per answer over theirs.",
  ];
  for (const scenario of scenarios.filter((candidate) => !candidate.cleanAnswers)) {
    const statuses = (["app", "reference", "floor"] as const).map((name) => `${name} ${JSON.stringify(scenario.peak[name]?.statuses ?? null)}`).join(", ");
    lines.push(`! scenario ${scenario.id}: unexpected answers — ${statuses}`);
  }
  return lines.join("\n");
}

/** One connection: the path's own latency, without queueing. */
export function formatRecordsUnloadedTable(scenarios: readonly RecordsScenarioReport[]): string {
  const measured = scenarios.filter((scenario) => scenario.unloaded);
  const first = measured[0]?.unloaded;
  if (!first) return "";
  const header = ["scenario", "target", "req/s", "p50 ms", "p95 ms", "p99 ms", "CPU ms/req", "p50 − ref", "p50 ÷ floor"];
  const rows = measured.flatMap((scenario) => {
    const unloaded = scenario.unloaded as NonNullable<RecordsScenarioReport["unloaded"]>;
    return targetRows(scenario, unloaded, (name, measurement) => [
      fixed(measurement.requestsPerSecond, 0),
      fixed(measurement.latencyMs.p50, 2),
      fixed(measurement.latencyMs.p95, 2),
      fixed(measurement.latencyMs.p99, 2),
      fixed(measurement.cpuMsPerRequest, 3),
      name === "app" && unloaded.p50ToReferenceMs !== null ? `${unloaded.p50ToReferenceMs >= 0 ? "+" : ""}${fixed(unloaded.p50ToReferenceMs, 2)} ms` : "",
      name === "app" ? `${fixed(unloaded.p50ToFloor, 2)}×` : "",
    ]);
  });
  return [`unloaded latency, ${first.connections} connection${first.connections === 1 ? "" : "s"}:`, table(header, rows, 2)].join("\n");
}

export function formatScale(scale: NonNullable<RecordsBenchReport["scale"]>, tickets: number): string {
  const header = ["scenario", `p50 @1k`, `p50 @${tickets.toLocaleString("en")}`, "×", "req/s @1k", `req/s @${tickets.toLocaleString("en")}`, "share", "target"];
  const rows = scale.scenarios.map((row) => [
    `${row.id}. ${row.name}`,
    `${fixed(row.baselineP50Ms, 2)} ms`,
    `${fixed(row.p50Ms, 2)} ms`,
    `${fixed(row.p50Factor, 2)}×`,
    fixed(row.baselineRequestsPerSecond, 0),
    fixed(row.requestsPerSecond, 0),
    percent(row.throughputShare),
    row.met ? "ok" : "MISS",
  ]);
  return [
    `scale: against ${scale.baseline.file} (${scale.baseline.date}, commit ${scale.baseline.commit ?? "?"}); target p50 ≤ ${RECORDS_TARGETS.maxScaleP50Factor}× and req/s ≥ ${RECORDS_TARGETS.minScaleThroughputShare * 100} %:`,
    table(header, rows, 1),
  ].join("\n");
}

export function formatTargets(scenarios: readonly RecordsScenarioReport[]): string {
  const lines = ["targets:"];
  for (const scenario of scenarios) {
    for (const target of scenario.targets) {
      if (target.name === "clean answers" && target.met) continue;
      lines.push(`  ${target.met ? "ok  " : "MISS"} scenario ${scenario.id}: ${target.name} — ${target.detail}`);
    }
  }
  return lines.join("\n");
}

export function formatPlans(plans: readonly QueryPlan[]): string {
  return plans
    .map((plan) => {
      // The plan's node lines, without the per-node buffer and timing details.
      const nodes = plan.plan.filter(
        (line) =>
          /^\s*(->\s*)?[A-Z][A-Za-z ]+(\s+on\s+|\s+using\s+|\s+\(|$)/.test(line) &&
          !/^\s*(Planning|Execution|Buffers|Sort Key|Presorted|Filter|Index Cond|Rows Removed|Heap Fetches|Sort Method|Full-sort|Pre-sorted)/.test(line.replace(/^\s*->\s*/, "")),
      );
      return `${plan.query}: ${fixed(plan.executionMs, 2)} ms\n${nodes.map((line) => `    ${line.replace(/\s+\(cost=[^)]*\)/, "").trimEnd()}`).join("\n")}`;
    })
    .join("\n");
}
