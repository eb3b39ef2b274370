/**
 * `npm run bench -- --automations`: issue 10's automation benchmark. Record-change events end to end
 * (records API write → BullMQ job → run with one Create step → execution log) against a reference of
 * the same design by hand (bench/reference/automation-reference.ts: node:http + BullMQ, one row per
 * job). Per target, offered rates are stepped up to find the sustained rate — the highest at which
 * the backlog (writes answered − runs completed) stays flat — with the delay from each write's
 * answer to its run's start, Node CPU per event, lost and twice-run events; then the records API's
 * own write throughput with and without the automation, and a kill -9 of the app's worker under load.
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  commandTicks,
  cpuTicks,
  machineBusyShare,
  machineCpuTicks,
  startProcess,
  tailOfLog,
  ticksBetween,
  waitForCommandIdle,
  waitForHttp,
  waitForIdle,
  type ManagedProcess,
} from "../processes";
import { compiledEntry } from "../compiled-entries";
import { databaseUrl, REDIS_URL } from "../infrastructure";
import type { BenchModeContext } from "../bench-mode-context";
import { InspectorProfiler } from "../inspector-profiler";
import { describeNodeFlags } from "../options";
import { formatCpuProfileSummary, summarizeCpuProfile, type CpuProfileSummary } from "../summarize-cpu-profile";
import { writeReport } from "../report";
import {
  AUTOMATION_TARGETS,
  formatAutomationSummary,
  formatLadder,
  type AutomationBenchReport,
  type DelaySummary,
  type KillCheck,
  type RateStep,
  type ReferenceWriteThroughput,
  type TargetLadder,
  type WriteLoadSummary,
  type WritesAlone,
  type WriteThroughput,
} from "./automation-report";
import { directusTarget, ladderRound, medianLadderRound, targetRateOf, type LadderRound } from "./ladder-rounds";
import { REFERENCE_QUEUE } from "./names";
import { DIRECTUS_VERSION, startDirectus } from "./directus-peer";
import type { EventTarget } from "./event-target";
import { appLedger, referenceLedger, type LoggedRun } from "./run-ledger";
import { eventBody, setupAutomationProject, type AutomationBenchProject } from "./setup-automation-project";
import { percentile, runWriteLoad, type WriteLoadOptions, type WriteLoadResult } from "./write-load";
import { formatWriteOverhead, type ProfiledWrites } from "./write-overhead";

const CLOCK_TICKS_PER_SECOND = 100;
const SAMPLE_EVERY_MS = 250;
/** A flat backlog may grow by at most this share of the events offered in the steady window… */
const FLAT_GROWTH_SHARE = 0.02;
/** …or this many events, whichever is more (noise at low rates). */
const FLAT_GROWTH_FLOOR = 20;
/** The write path must answer at least this share of the offered rate for the step to count. */
const MIN_ANSWERED_SHARE = 0.95;
/** The step-down stops here. */
const MIN_RATE = 20;
/** Directus' ladder starts here (the issue measured it at 105–170 events/s). */
const DIRECTUS_START_RATE = 60;

export interface AutomationBenchContext extends BenchModeContext {
  workerCore: number | null;
}

function sortedDelays(values: number[]): DelaySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN };
}

/** Least-squares slope of [seconds, value] samples. */
function slope(samples: ReadonlyArray<[number, number]>): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const meanX = samples.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = samples.reduce((sum, [, y]) => sum + y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of samples) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

/** CPU ticks of each process (server first, then the worker), or null when one is gone. */
function processTicks(processes: readonly ManagedProcess[]): number[] | null {
  const ticks: number[] = [];
  for (const managed of processes) {
    const value = cpuTicks(managed.pid);
    if (value === null) return null;
    ticks.push(value);
  }
  return ticks;
}

const exitedProcesses = new WeakSet<ManagedProcess>();
/** Processes the benchmark means to stop (the kill check's victim): their exit is no failure. */
const expectedExits = new WeakSet<ManagedProcess>();

function watchExit(managed: ManagedProcess): ManagedProcess {
  void managed.exited.then(() => exitedProcesses.add(managed));
  return managed;
}

/** Fails at once when a server or worker died on its own, instead of waiting for a drain that cannot come. */
function assertAlive(target: EventTarget): void {
  for (const managed of target.processes()) {
    if (exitedProcesses.has(managed) && !expectedExits.has(managed)) {
      throw new Error(`${managed.name} (pid ${managed.pid}) exited; log ${managed.logFile}:\n${tailOfLog(managed.logFile, 15)}`);
    }
  }
}

/** Waits until the target's queue is empty (every answered write's run has finished). */
async function waitForDrain(target: EventTarget, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  let emptySamples = 0;
  while (Date.now() < deadline) {
    assertAlive(target);
    const { backlog } = await target.ledger.backlog();
    emptySamples = backlog === 0 ? emptySamples + 1 : 0;
    if (emptySamples >= 2) return true;
    await sleep(100);
  }
  return false;
}

const DATABASE_COMMAND = "postgres";
const REDIS_COMMAND = "redis-server";

/** PostgreSQL's and Redis's CPU ticks from here on (every database and key prefix on them): call the answer to read them. */
function startSharedServiceTicks(): () => { databaseTicks: number; redisTicks: number } {
  const database = commandTicks(DATABASE_COMMAND);
  const redis = commandTicks(REDIS_COMMAND);
  return () => ({ databaseTicks: ticksBetween(database, commandTicks(DATABASE_COMMAND)), redisTicks: ticksBetween(redis, commandTicks(REDIS_COMMAND)) });
}

/**
 * Before a step: every target's queue drained and its processes idle, and PostgreSQL quiet too, so
 * that what the previous step left it to do (vacuum, checkpoints) is not measured in this one.
 */
async function settle(targets: readonly EventTarget[]): Promise<void> {
  for (const target of targets) await waitForDrain(target, 120_000);
  await Promise.all(targets.flatMap((target) => target.processes().map((managed) => waitForIdle(managed.pid))));
  if (!(await waitForCommandIdle(DATABASE_COMMAND))) console.warn("[bench] PostgreSQL did not go quiet within 30 s before the step");
}

interface StepOutcome {
  load: WriteLoadResult;
  runs: LoggedRun[];
  copiesPerRecord: Map<string, number>;
  /** [seconds since the load started, queue backlog, slot-delayed jobs, writes in flight] */
  samples: Array<[number, number, number, number]>;
  /** CPU ticks per process (server, worker) over the step and its drain. */
  ticks: number[] | null;
  /** CPU ticks of PostgreSQL's processes and of Redis's over the same time (every database and key prefix on them). */
  databaseTicks: number;
  redisTicks: number;
  /** The share of the machine's CPU time busy while the writes were sent (every process, the load's own included). */
  machineBusy: number | null;
  drained: boolean;
}

/** Holds `rate` writes/s for `seconds` while sampling the backlog; waits for the drain; reads the runs back. */
async function holdRate(target: EventTarget, rate: number, seconds: number, drainMaxMs: number, during?: (load: { startedAt: number }) => void): Promise<StepOutcome> {
  const samples: Array<[number, number, number, number]> = [];
  const progress = { inFlight: 0 };
  const ticksBefore = processTicks(target.processes());
  const sharedServiceTicks = startSharedServiceTicks();
  const since = Date.now() - 1_000;
  let sampling = true;
  const loadStartedAt = Date.now();
  const sampler = (async () => {
    while (sampling) {
      const at = Date.now();
      const counts = await target.ledger.backlog().catch(() => null);
      if (counts) samples.push([(at - loadStartedAt) / 1000, counts.backlog, counts.delayed, progress.inFlight]);
      await sleep(Math.max(0, SAMPLE_EVERY_MS - (Date.now() - at)));
    }
  })();
  during?.({ startedAt: loadStartedAt });
  const machineBefore = machineCpuTicks();
  const load = await runWriteLoad({ baseUrl: target.baseUrl, path: target.path, durationSeconds: seconds, rate, headers: target.headers, body: eventBody, progress });
  const machineBusy = machineBusyShare(machineBefore, machineCpuTicks());
  sampling = false;
  await sampler;
  const drained = await waitForDrain(target, drainMaxMs);
  await Promise.all(target.processes().map((managed) => waitForIdle(managed.pid, 10_000)));
  const ticksAfter = processTicks(target.processes());
  const { databaseTicks, redisTicks } = sharedServiceTicks();
  const { runs, copiesPerRecord } = await target.ledger.runsSince(since);
  return {
    load,
    runs,
    copiesPerRecord,
    samples,
    ticks: ticksBefore && ticksAfter && ticksBefore.length === ticksAfter.length ? ticksAfter.map((after, index) => after - (ticksBefore[index] as number)) : null,
    databaseTicks,
    redisTicks,
    machineBusy,
    drained,
  };
}

/** Runs of this step's events, by record. */
function runsByRecord(load: WriteLoadResult, runs: readonly LoggedRun[]): Map<string, LoggedRun[]> {
  const byRecord = new Map<string, LoggedRun[]>();
  for (const run of runs) {
    if (!load.answeredAt.has(run.recordId)) continue;
    const list = byRecord.get(run.recordId);
    if (list) list.push(run);
    else byRecord.set(run.recordId, [run]);
  }
  return byRecord;
}

function summarizeStep(rate: number, seconds: number, outcome: StepOutcome): RateStep {
  const { load, samples } = outcome;
  const byRecord = runsByRecord(load, outcome.runs);
  // The steady window leaves out the first second (or quarter of a short step): the backlog's ramp.
  const windowStart = load.startedAt + Math.min(1_000, (seconds * 1000) / 4);
  const windowSeconds = (load.endedAt - windowStart) / 1000;
  let endedInWindow = 0;
  let runCount = 0;
  let unsuccessfulRuns = 0;
  let ranTwice = 0;
  let lost = 0;
  let lastEnd = load.endedAt;
  const delays: number[] = [];
  for (const [recordId, answeredAt] of load.answeredAt) {
    const runs = byRecord.get(recordId) ?? [];
    runCount += runs.length;
    if (runs.length > 1 || (outcome.copiesPerRecord.get(recordId) ?? 0) > 1) ranTwice++;
    if (!runs.some((run) => run.outcome === "completed")) lost++;
    let first: LoggedRun | null = null;
    for (const run of runs) {
      if (run.outcome !== "completed") unsuccessfulRuns++;
      if (run.endedAt >= windowStart && run.endedAt <= load.endedAt) endedInWindow++;
      if (run.endedAt > lastEnd) lastEnd = run.endedAt;
      if (!first || run.startedAt < first.startedAt) first = run;
    }
    if (first) delays.push(first.startedAt - answeredAt);
  }
  // Events offered and not yet run: queued (answered, not run) plus writes not yet answered, so that a
  // write path that falls behind shows as a growing backlog too.
  const steady = samples.filter(([at]) => at * 1000 >= windowStart - load.startedAt).map(([at, backlog, , inFlight]) => [at, backlog + inFlight] as [number, number]);
  const backlogSlopePerSecond = slope(steady);
  // The first sample holding the most of column `column` (none when it stayed 0): when in the step the queue or the writes in flight peaked.
  const peakOf = (column: 1 | 3) => samples.reduce<(typeof samples)[number] | null>((peak, sample) => (sample[column] > (peak?.[column] ?? 0) ? sample : peak), null);
  const atSeconds = (sample: (typeof samples)[number] | null) => (sample ? Math.round(sample[0] * 10) / 10 : null);
  const peakBacklog = peakOf(1);
  const peakInFlight = peakOf(3);
  const growth = backlogSlopePerSecond * windowSeconds;
  const offeredInWindow = rate * windowSeconds;
  const answeredEnough = load.writesPerSecond >= rate * MIN_ANSWERED_SHARE && load.skipped === 0;
  return {
    offeredRate: rate,
    seconds,
    writesPerSecond: load.writesPerSecond,
    eventsPerSecond: windowSeconds > 0 ? endedInWindow / windowSeconds : Number.NaN,
    backlogSlopePerSecond,
    backlogAtEnd: samples[samples.length - 1]?.[1] ?? 0,
    backlogMax: peakBacklog?.[1] ?? 0,
    backlogMaxAtSeconds: atSeconds(peakBacklog),
    inFlightMax: peakInFlight?.[3] ?? 0,
    inFlightMaxAtSeconds: atSeconds(peakInFlight),
    slotDelayedMax: Math.max(0, ...samples.map(([, , delayed]) => delayed)),
    flat: answeredEnough && outcome.drained && growth <= Math.max(FLAT_GROWTH_SHARE * offeredInWindow, FLAT_GROWTH_FLOOR),
    delayMs: sortedDelays(delays),
    writeLatencyMs: load.latencyMs,
    cpuMsPerEvent: cpuMsPer(
      outcome.ticks?.reduce((sum, ticks) => sum + ticks, 0),
      runCount,
    ),
    cpuMsPerEventServer: cpuMsPer(outcome.ticks?.[0], runCount),
    cpuMsPerEventWorker: cpuMsPer(outcome.ticks?.[1], runCount),
    cpuMsPerEventDatabase: cpuMsPer(outcome.databaseTicks, runCount),
    cpuMsPerEventRedis: cpuMsPer(outcome.redisTicks, runCount),
    machineBusy: outcome.machineBusy,
    drainSeconds: Math.max(0, (lastEnd - load.endedAt) / 1000),
    answered: load.answeredAt.size,
    lost,
    ranTwice,
    unsuccessfulRuns,
    writeFailures: load.failures,
    statuses: load.statuses,
    skipped: load.skipped,
  };
}

function describeStep(target: EventTarget, step: RateStep): string {
  return (
    `${target.name} @ ${step.offeredRate}/s: ${step.writesPerSecond.toFixed(0)} writes/s, ${step.eventsPerSecond.toFixed(0)} events/s, ` +
    `backlog ${step.backlogSlopePerSecond >= 0 ? "+" : ""}${step.backlogSlopePerSecond.toFixed(1)}/s (queue max ${step.backlogMax}${step.backlogMaxAtSeconds === null ? "" : ` at ${step.backlogMaxAtSeconds.toFixed(1)} s`}, slot-delayed max ${step.slotDelayedMax}, writes in flight max ${step.inFlightMax}${step.inFlightMaxAtSeconds === null ? "" : ` at ${step.inFlightMaxAtSeconds.toFixed(1)} s`}) → ${step.flat ? "flat" : "NOT flat"}; ` +
    `delay p50 ${step.delayMs.p50.toFixed(1)} / p95 ${step.delayMs.p95.toFixed(1)} / p99 ${step.delayMs.p99.toFixed(1)} ms; ` +
    `CPU ${step.cpuMsPerEvent === null ? "?" : step.cpuMsPerEvent.toFixed(3)} ms/event (server ${step.cpuMsPerEventServer?.toFixed(3) ?? "?"} + worker ${step.cpuMsPerEventWorker?.toFixed(3) ?? "–"}; ` +
    `PostgreSQL ${step.cpuMsPerEventDatabase?.toFixed(3) ?? "?"}, Redis ${step.cpuMsPerEventRedis?.toFixed(3) ?? "?"}), machine ${step.machineBusy === null ? "?" : (step.machineBusy * 100).toFixed(0)} % busy; ` +
    `lost ${step.lost}, twice ${step.ranTwice}, drained in ${step.drainSeconds.toFixed(1)} s` +
    (step.writeFailures > 0 ? `; ${step.writeFailures} failed writes ${JSON.stringify(step.statuses)}` : "") +
    (step.skipped > 0 ? `; ${step.skipped} writes skipped (too many unanswered)` : "")
  );
}

/** One step: `rate` writes a second for a step's length, once every target is idle, then its drain. */
async function measureStep(
  context: AutomationBenchContext,
  target: EventTarget,
  others: readonly EventTarget[],
  rate: number,
  profilers: readonly InspectorProfiler[] | null = null,
  label = "ladder",
): Promise<RateStep> {
  const { options, log } = context;
  await settle([target, ...others]);
  for (const profiler of profilers ?? []) await profiler.start();
  const outcome = await holdRate(target, rate, options.stepSeconds, Math.max(60_000, options.stepSeconds * 6_000));
  if (profilers) await saveProfiles(context, profilers, target.processes(), `${label}-${rate}`);
  const step = summarizeStep(rate, options.stepSeconds, outcome);
  log(`${label === "ladder" ? "" : `${label}: `}${describeStep(target, step)}`);
  return step;
}

/**
 * Steps the offered rate up until the backlog grows, then narrows the bracket: the sustained rate
 * is the highest offered rate with a flat backlog. With --rates, exactly those rates, in order.
 */
async function findSustainedRate(
  context: AutomationBenchContext,
  target: EventTarget,
  others: readonly EventTarget[],
  profilers: readonly InspectorProfiler[] | null = null,
  ladder: { startRate: number; rates: number[] | null } = context.options,
): Promise<TargetLadder> {
  const { options } = context;
  const steps: RateStep[] = [];
  const measure = async (rate: number): Promise<RateStep> => {
    const step = await measureStep(context, target, others, rate, profilers);
    steps.push(step);
    return step;
  };

  if (ladder.rates) {
    for (const [index, rate] of ladder.rates.entries()) {
      if (index > 0 && options.idleSeconds > 0) {
        context.log(`idle for ${options.idleSeconds} s before the step at ${rate}/s (--idle-seconds)`);
        await sleep(options.idleSeconds * 1000);
      }
      await measure(rate);
    }
  } else {
    let lastFlat: number | null = null;
    let firstGrowing: number | null = null;
    const next = (rate: number, factor: number) => Math.max(MIN_RATE, Math.round((rate * factor) / 10) * 10);
    let rate = ladder.startRate;
    // Up from the start rate while the backlog stays flat; down from it when it does not.
    const goingUp = (await measure(rate)).flat;
    if (goingUp) lastFlat = rate;
    else firstGrowing = rate;
    while (goingUp ? rate < options.maxWriteRate : rate > MIN_RATE) {
      rate = goingUp ? Math.min(options.maxWriteRate, next(rate, options.rateFactor)) : next(rate, 1 / options.rateFactor);
      const step = await measure(rate);
      if (step.flat) lastFlat = rate;
      else firstGrowing = rate;
      if (goingUp !== step.flat) break;
    }
    for (let round = 0; round < options.refineSteps && firstGrowing !== null; round++) {
      const low = lastFlat ?? 0;
      const middle = Math.round((low + firstGrowing) / 2 / 10) * 10;
      if (middle <= low || middle >= firstGrowing) break;
      if ((await measure(middle)).flat) lastFlat = middle;
      else firstGrowing = middle;
    }
  }
  const flatSteps = steps.filter((step) => step.flat);
  const atSustained = flatSteps.reduce<RateStep | null>((best, step) => (!best || step.offeredRate > best.offeredRate ? step : best), null);
  return {
    target: target.name,
    steps,
    sustainedRate: atSustained?.offeredRate ?? null,
    atSustained,
    peakEventsPerSecond: Math.max(0, ...steps.map((step) => (Number.isFinite(step.eventsPerSecond) ? step.eventsPerSecond : 0))),
  };
}

/** SIGSTOPs (or SIGCONTs) the target's worker processes: they hold no job when the target is idle. */
function signalWorkers(app: EventTarget, signal: "SIGSTOP" | "SIGCONT"): void {
  for (const managed of app.processes().slice(1)) process.kill(managed.pid, signal);
}

/** A closed-loop write load, with the CPU the server spent per write answered meanwhile. */
type MeasuredWrites = WriteLoadResult & {
  serverCpuMsPerWrite: number | null;
  /** PostgreSQL's and Redis's CPU per write over the same run, and the machine's busy share. */
  databaseCpuMsPerWrite: number | null;
  redisCpuMsPerWrite: number | null;
  machineBusy: number | null;
  /** Every process's CPU per write (the load generator's too): on two shared cores, what the write rate follows. */
  machineCpuMsPerWrite: number | null;
};

/** A write load, with the CPU the server, PostgreSQL and Redis spent per write answered meanwhile. */
async function measureWrites(serverPid: number, load: WriteLoadOptions): Promise<MeasuredWrites> {
  const serverTicksBefore = cpuTicks(serverPid);
  const sharedServiceTicks = startSharedServiceTicks();
  const machineBefore = machineCpuTicks();
  const written = await runWriteLoad(load);
  const machineAfter = machineCpuTicks();
  const serverTicksAfter = cpuTicks(serverPid);
  const serverTicks = serverTicksBefore === null || serverTicksAfter === null ? null : serverTicksAfter - serverTicksBefore;
  const writeCount = written.answeredAt.size;
  const { databaseTicks, redisTicks } = sharedServiceTicks();
  return {
    ...written,
    serverCpuMsPerWrite: cpuMsPer(serverTicks, writeCount),
    databaseCpuMsPerWrite: cpuMsPer(databaseTicks, writeCount),
    redisCpuMsPerWrite: cpuMsPer(redisTicks, writeCount),
    machineBusy: machineBusyShare(machineBefore, machineAfter),
    machineCpuMsPerWrite: machineBefore && machineAfter ? cpuMsPer(machineAfter.busy - machineBefore.busy, writeCount) : null,
  };
}

/**
 * --writes-alone: each --rates rate held open loop with the automation disabled, so the server's
 * CPU per write at a ladder's rate splits into the records API's own and what the automation adds
 * (the ladder's step at the same rate). Closed-loop figures do not tell it: at peak, writes share
 * wake-ups, statements and round trips that at a moderate rate each pays alone.
 */
async function measureWritesAlone(context: AutomationBenchContext, app: EventTarget, project: AutomationBenchProject): Promise<WritesAlone[]> {
  const { options, log } = context;
  const measured: WritesAlone[] = [];
  await project.setAutomationEnabled(false);
  try {
    for (const rate of options.rates ?? []) {
      await settle([app]);
      const load = await measureWrites(app.processes()[0]!.pid, {
        baseUrl: app.baseUrl,
        path: app.path,
        rate,
        durationSeconds: options.stepSeconds,
        headers: app.headers,
        body: eventBody,
      });
      const alone: WritesAlone = {
        offeredRate: rate,
        writesPerSecond: load.writesPerSecond,
        p50Ms: load.latencyMs.p50,
        p99Ms: load.latencyMs.p99,
        maxMs: load.latencyMs.max,
        serverCpuMsPerWrite: load.serverCpuMsPerWrite,
        databaseCpuMsPerWrite: load.databaseCpuMsPerWrite,
        redisCpuMsPerWrite: load.redisCpuMsPerWrite,
        machineBusy: load.machineBusy,
        failures: load.failures,
      };
      measured.push(alone);
      log(
        `records API writes alone (automation disabled) @ ${rate}/s: ${alone.writesPerSecond.toFixed(0)} writes/s, p50 ${alone.p50Ms.toFixed(1)} ms, p99 ${alone.p99Ms.toFixed(1)} ms, max ${alone.maxMs.toFixed(1)} ms, ` +
          `CPU ms/write: server ${alone.serverCpuMsPerWrite?.toFixed(3) ?? "?"}, PostgreSQL ${alone.databaseCpuMsPerWrite?.toFixed(3) ?? "?"}, Redis ${alone.redisCpuMsPerWrite?.toFixed(3) ?? "?"}, ` +
          `machine ${alone.machineBusy === null ? "?" : Math.round(alone.machineBusy * 100)} % busy${alone.failures > 0 ? `, ${alone.failures} failed ${JSON.stringify(load.statuses)}` : ""}`,
      );
    }
  } finally {
    await project.setAutomationEnabled(true);
  }
  return measured;
}

/** Milliseconds of CPU per item from clock ticks; null when either is unknown. */
function cpuMsPer(ticks: number | null | undefined, count: number): number | null {
  return ticks !== null && ticks !== undefined && count > 0 ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND / count : null;
}

/**
 * The records API's own peak (closed loop), `rounds` times interleaved: with the automation off; on,
 * with the worker paused (SIGSTOP) so that the figure is the write path's own cost — planning, the
 * outbox entry, the queueing — and its runs drained afterwards; and on with the worker running
 * beside it, which on this 2-core machine also takes the runs' CPU from the server, PostgreSQL and
 * Redis (a deployment that scales them apart with `npm run worker` does not). The target is judged
 * on the second; the third is reported. Then, with a reference, the same for its design
 * (measureReferenceWrites).
 */
async function measureWriteThroughput(
  context: AutomationBenchContext,
  app: EventTarget,
  project: AutomationBenchProject,
  profilers: InspectorProfiler[] | null,
  reference: EventTarget | null,
): Promise<WriteThroughput> {
  const { options, log } = context;
  const serverPid = app.processes()[0]!.pid;
  const modes = ["without", "with", "alongside"] as const;
  const rounds: Record<(typeof modes)[number], MeasuredWrites[]> = { without: [], with: [], alongside: [] };
  const labels = { without: "without the automation", with: "with the automation, worker paused", alongside: "with the automation, worker running" };
  let drainSeconds = 0;
  // The server alone, without the automation and with it (worker paused): what a queued event costs a write.
  const serverProfiles: { without?: ProfiledWrites; with?: ProfiledWrites } = {};
  for (let round = 1; round <= options.rounds; round++) {
    // Odd rounds go without → with → alongside and even rounds back, so that a machine drifting
    // through the run (it slows as its tables grow, or as its host gets busier) favours no mode.
    for (const mode of round % 2 === 1 ? modes : [...modes].reverse()) {
      await project.setAutomationEnabled(mode !== "without");
      await settle([app]);
      if (mode === "with") signalWorkers(app, "SIGSTOP");
      let load: MeasuredWrites;
      // Round 1 of each mode is profiled: the server alone while the worker is paused (a stopped
      // process cannot answer its inspector), the server and the worker when they run side by side.
      const profiled = round === 1 && profilers ? (mode === "alongside" ? profilers : profilers.slice(0, 1)) : null;
      try {
        const closedLoop = { baseUrl: app.baseUrl, path: app.path, connections: options.connections, headers: app.headers, body: eventBody };
        if (options.warmupSeconds > 0) {
          await runWriteLoad({ ...closedLoop, durationSeconds: options.warmupSeconds });
          if (mode !== "with") await settle([app]);
        }
        for (const profiler of profiled ?? []) await profiler.start();
        load = await measureWrites(serverPid, { ...closedLoop, durationSeconds: options.durationSeconds });
      } finally {
        if (mode === "with") signalWorkers(app, "SIGCONT");
      }
      const drainStarted = Date.now();
      await waitForDrain(app, 600_000);
      if (profiled) {
        const [server] = await saveProfiles(context, profiled, app.processes(), `records-api-writes-${mode}-automation`);
        if (server && mode !== "alongside") serverProfiles[mode] = { summary: server, writes: load.answeredAt.size };
      }
      if (mode === "alongside") drainSeconds = Math.max(drainSeconds, (Date.now() - drainStarted) / 1000);
      rounds[mode].push(load);
      log(
        `records API writes ${labels[mode]}${options.rounds > 1 ? ` (round ${round})` : ""}: ${describeWrites(load)}` +
          (mode === "without" ? "" : ` (its runs drained ${((Date.now() - drainStarted) / 1000).toFixed(1)} s after the load)`),
      );
    }
  }
  if (serverProfiles.without && serverProfiles.with) console.log(`\n${formatWriteOverhead(serverProfiles.without, serverProfiles.with)}\n`);
  const without = summarizeWriteRounds(rounds.without);
  const withAutomation = summarizeWriteRounds(rounds.with);
  const alongside = { ...summarizeWriteRounds(rounds.alongside), drainSeconds };
  const ratio = withAutomation.writesPerSecond / without.writesPerSecond;
  const referenceWrites = reference ? await measureReferenceWrites(context, reference) : null;
  return {
    connections: options.connections,
    seconds: options.durationSeconds,
    withoutAutomation: without,
    withAutomation,
    withWorkerAlongside: alongside,
    ratio,
    ratioWithWorkerAlongside: alongside.writesPerSecond / without.writesPerSecond,
    met: ratio >= AUTOMATION_TARGETS.minWriteThroughputRatio,
    reference: referenceWrites,
  };
}

/** A closed loop's rate, latencies and CPU per write, as the write checks log each round. */
function describeWrites(load: MeasuredWrites): string {
  return (
    `${load.writesPerSecond.toFixed(0)} writes/s, p50 ${load.latencyMs.p50.toFixed(1)} ms, p99 ${load.latencyMs.p99.toFixed(1)} ms, ` +
    `CPU ms/write: server ${load.serverCpuMsPerWrite?.toFixed(3) ?? "?"}, PostgreSQL ${load.databaseCpuMsPerWrite?.toFixed(3) ?? "?"}, Redis ${load.redisCpuMsPerWrite?.toFixed(3) ?? "?"}, ` +
    `machine ${load.machineCpuMsPerWrite?.toFixed(3) ?? "?"} (${load.machineBusy === null ? "?" : Math.round(load.machineBusy * 100)} % busy)` +
    (load.failures > 0 ? `, ${load.failures} failed ${JSON.stringify(load.statuses)}` : "")
  );
}

/** The round whose write rate is the median (of an even number, the lower middle one), as the report shows it. */
function summarizeWriteRounds(loads: readonly MeasuredWrites[]): WriteLoadSummary {
  const rates = loads.map((load) => load.writesPerSecond);
  const median = [...rates].sort((a, b) => a - b)[Math.floor((rates.length - 1) / 2)];
  const chosen = loads.find((load) => load.writesPerSecond === median) as MeasuredWrites;
  return {
    writesPerSecond: chosen.writesPerSecond,
    p50Ms: chosen.latencyMs.p50,
    p99Ms: chosen.latencyMs.p99,
    serverCpuMsPerWrite: chosen.serverCpuMsPerWrite,
    databaseCpuMsPerWrite: chosen.databaseCpuMsPerWrite,
    redisCpuMsPerWrite: chosen.redisCpuMsPerWrite,
    machineCpuMsPerWrite: chosen.machineCpuMsPerWrite,
    failures: loads.reduce((sum, load) => sum + load.failures, 0),
    rounds: rates.map(Math.round),
  };
}

/**
 * The reference design's writes with ÷ without its enqueue, in the same closed loop and rounds as
 * the app's write check: `?queue=off` answers after the INSERT; otherwise every write also adds its
 * BullMQ job, the reference's worker paused (and its jobs drained afterwards). What queueing an
 * event before the answer costs the writes of a design with nothing else in its way, beside the
 * app's figure, which also pays the outbox entry. Reported, not judged.
 */
async function measureReferenceWrites(context: AutomationBenchContext, reference: EventTarget): Promise<ReferenceWriteThroughput> {
  const { options, log } = context;
  const serverPid = reference.processes()[0]!.pid;
  const modes = ["without", "with"] as const;
  const rounds: Record<(typeof modes)[number], MeasuredWrites[]> = { without: [], with: [] };
  for (let round = 1; round <= options.rounds; round++) {
    for (const mode of round % 2 === 1 ? modes : [...modes].reverse()) {
      await settle([reference]);
      const closedLoop = {
        baseUrl: reference.baseUrl,
        path: mode === "without" ? `${reference.path}?queue=off` : reference.path,
        connections: options.connections,
        headers: reference.headers,
        body: eventBody,
      };
      if (mode === "with") signalWorkers(reference, "SIGSTOP");
      let load: MeasuredWrites;
      try {
        if (options.warmupSeconds > 0) await runWriteLoad({ ...closedLoop, durationSeconds: options.warmupSeconds });
        load = await measureWrites(serverPid, { ...closedLoop, durationSeconds: options.durationSeconds });
      } finally {
        if (mode === "with") signalWorkers(reference, "SIGCONT");
      }
      await waitForDrain(reference, 600_000);
      rounds[mode].push(load);
      log(
        `reference writes ${mode === "without" ? "without its enqueue" : "with its enqueue, worker paused"}${options.rounds > 1 ? ` (round ${round})` : ""}: ${describeWrites(load)}`,
      );
    }
  }
  const withoutQueue = summarizeWriteRounds(rounds.without);
  const withQueue = summarizeWriteRounds(rounds.with);
  return { withoutQueue, withQueue, ratio: withQueue.writesPerSecond / withoutQueue.writesPerSecond };
}

async function connectProfilers(context: AutomationBenchContext, processes: readonly ManagedProcess[]): Promise<InspectorProfiler[]> {
  const profilers: InspectorProfiler[] = [];
  for (const managed of processes) profilers.push(await InspectorProfiler.connectFromLog(managed.logFile));
  context.log(
    `profiling the app's ${processes.map((managed) => managed.name).join(" and ")} during the write check (round 1 of each mode) and each step of its ladder (profiles kept in ${context.workDir})`,
  );
  context.keepWorkDir();
  return profilers;
}

/** Stops and saves the profiles, prints their summaries and answers them (the server's first). */
async function saveProfiles(
  context: AutomationBenchContext,
  profilers: readonly InspectorProfiler[],
  processes: readonly ManagedProcess[],
  label: string,
): Promise<CpuProfileSummary[]> {
  const summaries: CpuProfileSummary[] = [];
  for (const [index, profiler] of profilers.entries()) {
    const profile = await profiler.stop();
    const name = index === 0 ? "server" : "worker";
    const file = path.join(context.workDir, `${label}-${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const summary = summarizeCpuProfile(profile, `CPU profile of the app's ${processes[index]?.name ?? name}, ${label} (${file})`, 25);
    console.log(`\n${formatCpuProfileSummary(summary, 20)}\n`);
    summaries.push(summary);
  }
  return summaries;
}

/**
 * Under load, SIGKILLs the app's worker process and starts a new one at once: every answered write
 * must still get its run; runs the dead worker held are re-run once their lock lapses, logged with
 * afterInterruption and retryOf; nothing else runs twice.
 */
async function killWorkerUnderLoad(
  context: AutomationBenchContext,
  app: EventTarget,
  worker: { current: ManagedProcess; start: () => ManagedProcess },
  rate: number,
): Promise<KillCheck> {
  const { options, log } = context;
  await settle([app]);
  const seconds = options.killSeconds;
  const killAfterMs = Math.round(seconds * 400);
  let killedAt = 0;
  let killTimer: NodeJS.Timeout | undefined;
  let killedAfterMs = 0;
  log(`kill check: ${rate} writes/s for ${seconds} s, SIGKILL to the worker (pid ${worker.current.pid}) after ${(killAfterMs / 1000).toFixed(1)} s, a new worker at once`);
  let loadStartedAt = 0;
  const outcome = await holdRate(app, rate, seconds, options.lockSeconds * 3_000 + 120_000, (load) => {
    loadStartedAt = load.startedAt;
    killTimer = setTimeout(async () => {
      // Kills while a run is in progress, so that there is one to re-run (waits at most 3 s for one).
      const waitUntil = Date.now() + 3_000;
      while (Date.now() < waitUntil && (await app.ledger.runsInProgress().catch(() => 0)) === 0) await sleep(1);
      const victim = worker.current;
      expectedExits.add(victim);
      killedAt = Date.now();
      killedAfterMs = killedAt - loadStartedAt;
      try {
        process.kill(victim.pid, "SIGKILL");
      } catch {
        // already gone
      }
      worker.current = worker.start();
      log(`worker pid ${victim.pid} killed (SIGKILL); new worker pid ${worker.current.pid}`);
    }, killAfterMs);
  });
  clearTimeout(killTimer);
  const { load } = outcome;
  const byRecord = runsByRecord(load, outcome.runs);
  let lost = 0;
  let ranTwice = 0;
  let ranTwiceWithoutInterruption = 0;
  let copiedTwice = 0;
  let interruptedRuns = 0;
  let interruptedRunsWithRetryOf = 0;
  let lastEnd = load.endedAt;
  const startsAfterKill: number[] = [];
  for (const recordId of load.answeredAt.keys()) {
    const runs = byRecord.get(recordId) ?? [];
    if (!runs.some((run) => run.outcome === "completed")) lost++;
    if (runs.length > 1) {
      ranTwice++;
      if (!runs.some((run) => run.afterInterruption)) ranTwiceWithoutInterruption++;
    }
    if ((outcome.copiesPerRecord.get(recordId) ?? 0) > 1) copiedTwice++;
    for (const run of runs) {
      if (run.afterInterruption) {
        interruptedRuns++;
        if (run.retryOf) interruptedRunsWithRetryOf++;
      }
      if (run.startedAt >= killedAt) startsAfterKill.push(run.startedAt);
      if (run.endedAt > lastEnd) lastEnd = run.endedAt;
    }
  }
  startsAfterKill.sort((a, b) => a - b);
  let longestPause = 0;
  let previous = killedAt;
  for (const start of startsAfterKill) {
    longestPause = Math.max(longestPause, start - previous);
    previous = start;
  }
  const met = killedAt > 0 && lost === 0 && outcome.drained && interruptedRuns === interruptedRunsWithRetryOf && ranTwiceWithoutInterruption === 0;
  const note =
    killedAt === 0
      ? "the worker was not killed (the load ended first)"
      : interruptedRuns === 0
        ? "no run was in flight at the kill: nothing to re-run (inconclusive for the afterInterruption log; run it again)"
        : "";
  return {
    offeredRate: rate,
    seconds,
    killedAfterSeconds: killedAfterMs / 1000,
    lockSeconds: options.lockSeconds,
    answered: load.answeredAt.size,
    lost,
    interruptedRuns,
    interruptedRunsWithRetryOf,
    ranTwice,
    ranTwiceWithoutInterruption,
    copiedTwice,
    longestPauseSeconds: longestPause / 1000,
    drainSeconds: Math.max(0, (lastEnd - load.endedAt) / 1000),
    met: met && interruptedRuns > 0,
    note,
  };
}

/** The reference's server and worker (bench/reference/automation-reference.ts), pinned like the app's. */
async function startReference(
  context: AutomationBenchContext,
  { customerDatabaseUrl, referencePort, referencePrefix }: { customerDatabaseUrl: string; referencePort: number; referencePrefix: string },
): Promise<EventTarget> {
  const { workDir } = context;
  const referenceEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    REDIS_URL,
    CUSTOMER_DATABASE_URL: customerDatabaseUrl,
    BENCH_REFERENCE_PREFIX: referencePrefix,
  };
  const referenceServer = startProcess({
    name: "automation reference server",
    command: process.execPath,
    args: [compiledEntry("automation-reference"), "server"],
    env: { ...referenceEnv, PORT: String(referencePort) },
    logFile: path.join(workDir, "reference-server.log"),
    core: context.serverCore,
  });
  context.cleanup.processes.push(watchExit(referenceServer));
  const referenceBaseUrl = `http://127.0.0.1:${referencePort}`;
  await waitForHttp(`${referenceBaseUrl}/health`, referenceServer, 60_000);
  const referenceWorker = startProcess({
    name: "automation reference worker",
    command: process.execPath,
    args: [compiledEntry("automation-reference"), "worker"],
    env: referenceEnv,
    logFile: path.join(workDir, "reference-worker.log"),
    core: context.workerCore,
  });
  context.cleanup.processes.push(watchExit(referenceWorker));
  const referenceTarget: EventTarget = {
    name: "reference",
    baseUrl: referenceBaseUrl,
    path: "/records/events",
    headers: () => ({}),
    processes: () => [referenceServer, referenceWorker],
    ledger: referenceLedger({ redisUrl: REDIS_URL, prefix: referencePrefix, queue: REFERENCE_QUEUE, customerDatabaseUrl }),
  };
  context.cleanup.closers.push(() => referenceTarget.ledger.close());
  context.log(`reference listening on port ${referencePort} (server pid ${referenceServer.pid}, worker pid ${referenceWorker.pid})`);
  return referenceTarget;
}

export async function runAutomationBench(context: AutomationBenchContext): Promise<number> {
  const { options, log, cleanup, workDir } = context;
  const { platformDatabase, customerDatabase, keyPrefix } = await context.provisionStores("fpbench");
  log(`databases ${platformDatabase}, ${customerDatabase} created; Redis key prefix ${keyPrefix}; logs in ${workDir}`);

  const [appPort, referencePort] = [await context.freePort(), await context.freePort()];
  const separateWorker = !options.embeddedWorker;
  const env: NodeJS.ProcessEnv = {
    ...context.appEnvironment(appPort, platformDatabase, path.join(workDir, "data")),
    KV_KEY_PREFIX: keyPrefix,
    AUTOMATION_WORKER: separateWorker ? "off" : "on",
    AUTOMATION_LOCK_SECONDS: String(options.lockSeconds),
  };
  // With --cpu-prof the app and its first worker open an inspector; round 1 of each write check mode and each step of the app's ladder are profiled.
  const inspect = options.cpuProfile ? ["--inspect=127.0.0.1:0"] : [];
  const app = startProcess({
    name: "app (npm start)",
    command: process.execPath,
    args: [...inspect, ...options.appNodeFlags, compiledEntry("start")],
    env,
    logFile: path.join(workDir, "app.log"),
    core: context.serverCore,
  });
  cleanup.processes.push(watchExit(app));
  log(
    `app starting on port ${appPort} (pid ${app.pid}, AUTOMATION_WORKER=${env.AUTOMATION_WORKER}, AUTOMATION_LOCK_SECONDS=${options.lockSeconds}, node flags: ${describeNodeFlags(options.appNodeFlags)})`,
  );
  const appBaseUrl = `http://127.0.0.1:${appPort}`;
  await waitForHttp(`${appBaseUrl}/api/health`, app, 180_000);

  let workerCount = 0;
  const startWorker = (): ManagedProcess => {
    workerCount++;
    const managed = startProcess({
      name: `worker ${workerCount}`,
      command: process.execPath,
      args: [...(workerCount === 1 ? inspect : []), ...options.appNodeFlags, compiledEntry(options.projectSlots === null ? "worker" : "automation-worker")],
      env: { ...env, AUTOMATION_WORKER: "on", ...(options.projectSlots === null ? {} : { BENCH_PROJECT_SLOTS: String(options.projectSlots) }) },
      logFile: path.join(workDir, `worker-${workerCount}.log`),
      core: context.workerCore,
    });
    cleanup.processes.push(managed);
    return watchExit(managed);
  };
  const worker = separateWorker ? { current: startWorker(), start: startWorker } : null;
  if (worker)
    log(`worker started (pid ${worker.current.pid}: ${options.projectSlots === null ? "npm run worker" : `bench worker with ${options.projectSlots} slots per project`})`);

  const customerDatabaseUrl = databaseUrl(customerDatabase);
  const project = await setupAutomationProject({ baseUrl: appBaseUrl, env, customerDatabaseUrl, maxWriteRate: options.maxWriteRate, log });
  let keyIndex = 0;
  const appTarget: EventTarget = {
    name: "app",
    baseUrl: appBaseUrl,
    path: `/api/projects/${project.projectId}/records/events`,
    headers: () => ({ authorization: `Bearer ${project.writeKeys[keyIndex++ % project.writeKeys.length]}` }),
    processes: () => (worker ? [app, worker.current] : [app]),
    ledger: appLedger({ redisUrl: REDIS_URL, keyPrefix, customerDatabaseUrl, projectId: project.projectId, automationId: project.automationId }),
  };
  cleanup.closers.push(() => appTarget.ledger.close());

  const referenceTarget = options.skipReference ? null : await startReference(context, { customerDatabaseUrl, referencePort, referencePrefix: `${keyPrefix}refbull` });
  const allTargets: EventTarget[] = referenceTarget ? [appTarget, referenceTarget] : [appTarget];

  // Compiles the hot paths before anything is measured. Without the write check, which loads the
  // app for 40 s or more before the first step, a few seconds at the start rate left the first step
  // measuring a cold app (1,020 events/s right after 3 s at 200: delay p50 0.12-2.2 s in 17 runs,
  // the same rate held again mostly 1-5 ms): then the warm-up holds the first rate for a whole step, uncounted.
  await project.setAutomationEnabled(true);
  const warmRate = options.writeCheck ? options.startRate : (options.rates?.[0] ?? options.startRate);
  const warmSeconds = Math.max(3, options.warmupSeconds, options.writeCheck ? 0 : options.stepSeconds);
  for (const target of allTargets) {
    await settle([target]);
    await holdRate(target, warmRate, warmSeconds, 120_000);
  }
  log(`warmed up at ${warmRate} writes/s for ${warmSeconds} s`);

  const profilers = options.cpuProfile ? await connectProfilers(context, appTarget.processes()) : null;
  const writes = options.writeCheck ? await measureWriteThroughput(context, appTarget, project, profilers, referenceTarget) : null;
  const writesAlone = options.writesAlone ? await measureWritesAlone(context, appTarget, project) : null;
  await project.setAutomationEnabled(true);

  // The two ladders of a round run one after the other, the first in turn, so that a machine whose speed
  // drifts (the reference's sustained rate fell from 680 to 480 between two runs ten minutes apart) moves
  // both sides of a round's ratio alike. Profiled steps spend CPU on the profiler too: only the app's
  // ladder of round 1 is profiled, and its delays and rates are not the code's own.
  const noReference: TargetLadder = { target: "reference", steps: [], sustainedRate: null, atSustained: null, peakEventsPerSecond: 0 };
  const rounds: LadderRound[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const label = options.rounds > 1 ? ` (round ${round} of ${options.rounds})` : "";
    const measureApp = async () => {
      const ladder = await findSustainedRate(context, appTarget, allTargets.slice(1), round === 1 ? profilers : null);
      if (round === 1) for (const profiler of profilers ?? []) profiler.close();
      console.log(`\n${formatLadder(ladder)}${label}\n`);
      return ladder;
    };
    const measureReference = async () => {
      if (!referenceTarget) return noReference;
      const ladder = await findSustainedRate(context, referenceTarget, [appTarget]);
      console.log(`\n${formatLadder(ladder)}${label}\n`);
      return ladder;
    };
    let app: TargetLadder;
    let reference: TargetLadder;
    const appFirst = round % 2 === 1;
    if (appFirst) {
      app = await measureApp();
      reference = await measureReference();
    } else {
      reference = await measureReference();
      app = await measureApp();
    }
    // The delay targets hold "at that rate": the least the app must sustain, half the reference's
    // sustained rate. Measured in a step of its own, since the ladders' steps rarely fall on it.
    const targetRate = targetRateOf(reference);
    const atTargetRate = targetRate === null ? null : await measureStep(context, appTarget, allTargets.slice(1), targetRate, null, "at the target rate");
    rounds.push(ladderRound(round, app, reference, appFirst ? "app" : "reference", atTargetRate));
  }
  const reported = medianLadderRound(rounds);
  const { app: appLadder, reference: referenceLadder, appAtTargetRate } = reported;

  let directusLadder: TargetLadder | null = null;
  if (options.directus) {
    // After the rounds, once: Directus is an order of magnitude slower, so its own ladder starts lower.
    const directus = await startDirectus(context, watchExit);
    await settle([...allTargets, directus]);
    await holdRate(directus, DIRECTUS_START_RATE, Math.max(3, options.warmupSeconds), 120_000);
    directusLadder = await findSustainedRate(context, directus, allTargets, null, { startRate: DIRECTUS_START_RATE, rates: null });
    console.log(`\n${formatLadder(directusLadder)}\n`);
    allTargets.push(directus);
  }

  let kill: KillCheck | null = null;
  if (options.killCheck && worker) {
    // Near the sustained rate, so that the worker is likely to hold runs when it dies.
    const rate = options.killRate ?? Math.max(50, Math.round(((appLadder.sustainedRate ?? options.startRate) * 0.8) / 10) * 10);
    await settle(allTargets);
    kill = await killWorkerUnderLoad(context, appTarget, worker, rate);
  } else if (options.killCheck) {
    log("kill check skipped: the app works the queue itself (--embedded-worker), so a kill -9 would hit the server");
  }

  const allSteps = rounds.flatMap((round) => [...round.app.steps, ...round.reference.steps]);
  const lost = allSteps.reduce((sum, step) => sum + step.lost, 0);
  const ranTwice = allSteps.reduce((sum, step) => sum + step.ranTwice, 0);
  const sustainedRatio = reported.ratio;
  const delay = appAtTargetRate?.flat ? appAtTargetRate.delayMs : null;
  const report: AutomationBenchReport = {
    date: new Date().toISOString(),
    smoke: options.quick,
    code: context.code,
    machine: { ...context.machine, loadAverageAtEnd: [] },
    settings: {
      stepSeconds: options.stepSeconds,
      rates: options.rates ?? "adaptive",
      projectSlots: options.projectSlots ?? "default",
      appWorker: separateWorker ? "separate" : "embedded",
      lockSeconds: options.lockSeconds,
      pinned: context.pinned,
      writeKeys: project.writeKeys.length,
      // Anything preloaded into every process (a workaround, a profiler) shows here.
      nodeOptions: process.env.NODE_OPTIONS ?? null,
      appNodeFlags: options.appNodeFlags,
    },
    app: appLadder,
    reference: referenceLadder,
    directus: directusLadder,
    appAtTargetRate,
    ladderRounds: rounds.map(({ app: _app, reference: _reference, appAtTargetRate: _atTargetRate, ...round }) => round),
    judgedLadderRound: reported.round,
    writes,
    writesAlone,
    kill,
    targets: {
      sustainedRatio: { value: sustainedRatio, min: AUTOMATION_TARGETS.minSustainedRatio, met: sustainedRatio !== null && sustainedRatio >= AUTOMATION_TARGETS.minSustainedRatio },
      delayP50: {
        valueMs: appAtTargetRate?.delayMs.p50 ?? null,
        max: AUTOMATION_TARGETS.maxDelayP50Ms,
        offeredRate: appAtTargetRate?.offeredRate ?? null,
        met: delay !== null && delay.p50 <= AUTOMATION_TARGETS.maxDelayP50Ms,
      },
      delayP99: {
        valueMs: appAtTargetRate?.delayMs.p99 ?? null,
        max: AUTOMATION_TARGETS.maxDelayP99Ms,
        offeredRate: appAtTargetRate?.offeredRate ?? null,
        met: delay !== null && delay.p99 <= AUTOMATION_TARGETS.maxDelayP99Ms,
      },
      noneLost: { lost, met: lost === 0 },
      noneRanTwice: { ranTwice, met: ranTwice === 0 },
      writeThroughput: writes ? { ratio: writes.ratio, min: AUTOMATION_TARGETS.minWriteThroughputRatio, met: writes.met } : null,
      killSurvived: kill ? { met: kill.met } : null,
      directus: directusLadder ? directusTarget(appLadder.sustainedRate, directusLadder.sustainedRate) : "not measured",
    },
    allTargetsMet: false,
    notes: [
      "app = npm start (AUTOMATION_WORKER=off) + one worker process (scripts/worker.ts), with REDIS_URL (BullMQ) and a customer PostgreSQL database; reference = bench/reference/automation-reference.ts (node:http + BullMQ, a worker of concurrency 20 inserting one row per job)",
      "event = POST /records/events answered 201 → its run (one Create step copying the record) logged in _executions; delay = the log's startedAt − the time the 201 was read by the load generator (same machine clock)",
      "delay targets: judged in a step of their own after each round's ladders, at the least rate the app must sustain (the reference's sustained rate × 0.5, rounded up to 10/s), and met only if the backlog stayed flat there; the delays at the app's own sustained rate are reported beside them",
      "sustained rate = the highest offered rate (open loop, spread evenly) whose backlog (BullMQ waiting + active + delayed: writes answered − runs completed) grew by at most 2 % of the events offered in the step, with ≥ 95 % of writes answered",
      `servers on core ${context.serverCore ?? "any"}, workers and the load generator on core ${context.workerCore ?? "any"}; PostgreSQL and Redis unpinned`,
      "records API write throughput: closed loop, the automation disabled (a disabled automation is not in the runtime's record-trigger map: the write path is the one with none configured) vs enabled",
      ...(directusLadder
        ? [
            `directus = Directus ${DIRECTUS_VERSION} (one process, unpinned, its own database on the same PostgreSQL, LOG_LEVEL=warn), a flow on items.create of events with one Create Data operation into copies (accountability "all"); writes = POST /items/events with the admin's static token; delay = the copy's date_created − the time the answer was read; measured once, after the rounds`,
          ]
        : []),
    ],
  };
  const targetList = Object.values(report.targets).filter((target): target is { met: boolean } => typeof target === "object" && target !== null);
  report.allTargetsMet = targetList.every((target) => target.met);
  report.machine.loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);
  console.log(`\n${formatAutomationSummary(report)}\n`);
  writeReport(options.output, report);
  log(`results written to ${path.relative(process.cwd(), options.output)}${report.smoke ? " (smoke run)" : ""}`);
  return options.check && !report.allTargetsMet ? 1 : 0;
}
