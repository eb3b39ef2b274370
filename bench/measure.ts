import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ExecutionLogCounter } from "./execution-log-counter";
import type { InspectorProfiler } from "./inspector-profiler";
import { clientIpPoolFor } from "./load/client-ips";
import { runLoad, type LoadResult } from "./load/run-load";
import { cpuTicks, waitForIdle, type ManagedProcess } from "./processes";
import type { ExecutionLogLag, Measurement } from "./report";
import { formatCpuProfileSummary, summarizeCpuProfile } from "./summarize-cpu-profile";

/**
 * One warmed-up, closed-loop measurement of one server (autocannon in this process), shared by the
 * invocation benchmark and the records benchmark: requests/s, latency percentiles, the server's CPU
 * per answer including its after-response work, and how its execution logs kept up.
 */

/** USER_HZ: /proc/<pid>/stat counts CPU time in these (100 on Linux unless built otherwise). */
const CLOCK_TICKS_PER_SECOND = 100;

export interface MeasuredTarget {
  name: string;
  process: ManagedProcess;
  baseUrl: string;
  /** Set with --cpu-prof: profiles each measured run. */
  profiler?: InspectorProfiler;
}

/** What the load generator sends. */
export interface LoadSpec {
  path: string;
  method: "GET" | "POST";
  body: string | null;
  /** Every answer must have this status; anything else counts as a failure. */
  expectedStatus: number;
  /** Whether each answer writes an execution log (cache hits, records API calls and the floor write none). */
  writesLogs: boolean;
  /** Per request: the path to send instead of `path` (rotating query values). */
  nextPath?: () => string;
  /** Per request: extra headers (rotating API keys). */
  nextHeaders?: () => Record<string, string>;
}

export interface MeasureContext {
  /** Every server of the run: all must be idle before a measurement starts. */
  targets: readonly MeasuredTarget[];
  options: { warmupSeconds: number; durationSeconds: number; connections: number; maxRate: number };
  profileDir: string;
  logs: ExecutionLogCounter;
  log: (line: string) => void;
}

export type TargetRun = LoadResult & { cpuMsPerRequest: number | null; executionLogs: ExecutionLogLag | null; loadGeneratorCpuShare: number };

/**
 * Waits until no server is busy and the execution logs have stopped arriving: the servers share a
 * core, PostgreSQL and Redis, so one target's after-response work must not slow the next.
 */
export async function settle(context: MeasureContext): Promise<{ count: number; lastChangeAt: number }> {
  const [logs] = await Promise.all([context.logs.waitUntilSettled(), ...context.targets.map((candidate) => waitForIdle(candidate.process.pid))]);
  if (!logs.settled) context.log("execution logs were still arriving after 2 minutes; measuring anyway");
  await Promise.all(context.targets.map((candidate) => waitForIdle(candidate.process.pid)));
  return logs;
}

/** One warmed-up measurement of one load against one target (profiled when a profiler is attached and profileName is set). */
export async function measureOnce(
  context: MeasureContext,
  target: MeasuredTarget,
  spec: LoadSpec,
  run: { label: string; connections?: number; profileName?: string },
): Promise<TargetRun> {
  const { options, log } = context;
  await settle(context);
  const clientIps = clientIpPoolFor(options.maxRate, options.warmupSeconds + options.durationSeconds);
  const loadOptions = {
    baseUrl: target.baseUrl,
    path: spec.path,
    method: spec.method,
    body: spec.body,
    connections: run.connections ?? options.connections,
    clientIps,
    expectedStatus: spec.expectedStatus,
    ...(spec.nextPath ? { nextPath: spec.nextPath } : {}),
    ...(spec.nextHeaders ? { nextHeaders: spec.nextHeaders } : {}),
  };
  if (options.warmupSeconds > 0) {
    log(`${run.label}: warm-up ${options.warmupSeconds} s`);
    await runLoad({ ...loadOptions, durationSeconds: options.warmupSeconds });
    await settle(context);
  }
  const logsBefore = await context.logs.count();
  const profiler = run.profileName ? target.profiler : undefined;
  await profiler?.start();
  const ticksBefore = cpuTicks(target.process.pid);
  const generatorBefore = process.cpuUsage();
  const load = await runLoad({ ...loadOptions, durationSeconds: options.durationSeconds });
  const generatorCpu = process.cpuUsage(generatorBefore);
  // Near 1, autocannon (this process, one core) and not the server set the pace.
  const loadGeneratorCpuShare = Math.round(((generatorCpu.user + generatorCpu.system) / 1e6 / load.durationSeconds) * 100) / 100;
  const runEndedAt = Date.now();
  const logsAtEnd = await context.logs.count();
  // CPU the server spent on these requests, including their after-response work (execution logs):
  // unlike requests/s it does not depend on how much of the core other processes took.
  const caughtUp = await settle(context);
  const ticksAfter = cpuTicks(target.process.pid);
  const cpuMsPerRequest = ticksBefore !== null && ticksAfter !== null && load.responses > 0 ? ((ticksAfter - ticksBefore) * 1000) / CLOCK_TICKS_PER_SECOND / load.responses : null;
  const executionLogs: ExecutionLogLag | null = spec.writesLogs
    ? {
        writtenDuringRun: logsAtEnd - logsBefore,
        catchUpSeconds: Math.round(Math.max(0, caughtUp.lastChangeAt - runEndedAt) / 100) / 10,
        missing: Math.max(0, load.responses - (caughtUp.count - logsBefore)),
      }
    : null;
  const result: TargetRun = { ...load, cpuMsPerRequest, executionLogs, loadGeneratorCpuShare };
  if (profiler && run.profileName) {
    const profile = await profiler.stop();
    const file = path.join(context.profileDir, `${run.profileName}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const summary = summarizeCpuProfile(profile, `CPU profile of the ${target.name}, ${run.label} (${file})`, target.name === "app" ? 25 : 12);
    console.log(`\n${formatCpuProfileSummary(summary, target.name === "app" ? 20 : 10)}\n`);
  }
  const { p50, p95, p99 } = result.latencyMs;
  log(
    `${run.label}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, ` +
      `CPU ${cpuMsPerRequest === null ? "?" : cpuMsPerRequest.toFixed(3)} ms/request` +
      (executionLogs
        ? `, execution logs: ${Math.round((executionLogs.writtenDuringRun / Math.max(1, load.responses)) * 100)} % written during the run, caught up ${executionLogs.catchUpSeconds} s later, ${executionLogs.missing} missing`
        : "") +
      `${result.failures > 0 ? `, ${result.failures} unexpected answers ${JSON.stringify(result.statuses)}` : ""} (${clientIps.size} client IPs, load generator ${Math.round(loadGeneratorCpuShare * 100)} % of its core)` +
      (loadGeneratorCpuShare > 0.9 ? " — the load generator may be the limit here" : ""),
  );
  return result;
}

/** The median round by requests/s (failures summed over all rounds). */
export function toMeasurement(rounds: readonly TargetRun[]): Measurement {
  const sorted = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as TargetRun;
  return {
    requestsPerSecond: median.requestsPerSecond,
    cpuMsPerRequest: median.cpuMsPerRequest,
    executionLogs: median.executionLogs,
    loadGeneratorCpuShare: median.loadGeneratorCpuShare,
    latencyMs: median.latencyMs,
    responses: median.responses,
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    statuses: median.statuses,
    roundsRequestsPerSecond: rounds.map((round) => Math.round(round.requestsPerSecond)),
  };
}
