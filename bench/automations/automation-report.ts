import type { BenchReport } from "../report";

/** Issue 10's targets for the automation path. */
export const AUTOMATION_TARGETS = {
  /** The app's sustained events/s ÷ the BullMQ reference's. */
  minSustainedRatio: 0.5,
  /**
   * Delay from the write's answer to the run's start "at that rate": at the least sustained rate the
   * app must reach (the reference's × minSustainedRatio, targetRateOf), in a step of its own.
   */
  maxDelayP50Ms: 30,
  maxDelayP99Ms: 100,
  /** Records API write throughput with the automation ÷ without any. */
  minWriteThroughputRatio: 0.85,
  /** The app's sustained events/s ÷ Directus Flows' on the same work (--directus). */
  minDirectusMultiple: 5,
} as const;

export interface DelaySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** One offered rate held for a while against one target. */
export interface RateStep {
  offeredRate: number;
  seconds: number;
  /** 201 answers per second (below the offered rate: the write path itself could not keep up). */
  writesPerSecond: number;
  /** Runs that ended within the step's steady window, per second. */
  eventsPerSecond: number;
  /**
   * Growth over the steady window, events per second, of the backlog: writes answered − runs completed
   * (the queue), plus writes sent and not yet answered (a write path falling behind).
   */
  backlogSlopePerSecond: number;
  /** The queue alone (BullMQ waiting + active + delayed). */
  backlogAtEnd: number;
  backlogMax: number;
  /** When the queue peaked, in seconds since the step's load started (null when it stayed empty). */
  backlogMaxAtSeconds: number | null;
  /** Most writes sent and not yet answered at once… */
  inFlightMax: number;
  /** …and when, in seconds since the step's load started (null when none waited): where a slow spell fell. */
  inFlightMaxAtSeconds: number | null;
  /** Most jobs the app had put back for a moment at once because the project's run slots were full. */
  slotDelayedMax: number;
  flat: boolean;
  /** Delay from each write's answer to its run's start, ms (negative: the run started before the answer arrived). */
  delayMs: DelaySummary;
  writeLatencyMs: { p50: number; p95: number; p99: number };
  /** Node CPU (server + worker processes, /proc/<pid>/stat) per event, ms, including the drain after the step. */
  cpuMsPerEvent: number | null;
  /** The same, of the process answering the writes (app: npm start; reference: its server)… */
  cpuMsPerEventServer: number | null;
  /** …and of the worker process (null when the app works the queue itself). */
  cpuMsPerEventWorker: number | null;
  /** CPU of PostgreSQL's processes per event over the same time (a floor: a backend that ended meanwhile is missed)… */
  cpuMsPerEventDatabase: number | null;
  /** …and of Redis's. */
  cpuMsPerEventRedis: number | null;
  /**
   * The share of the machine's CPU time busy while the writes were sent, every process counted (the
   * load generator's too): near 1, the cores are the limit and delays grow from waiting for them.
   */
  machineBusy: number | null;
  /** Seconds after the step until the last run had finished. */
  drainSeconds: number;
  answered: number;
  /** Answered writes whose run never completed. */
  lost: number;
  /** Events that ran more than once. */
  ranTwice: number;
  /** Runs that did not complete (failed or stopped). */
  unsuccessfulRuns: number;
  writeFailures: number;
  statuses: Record<string, number>;
  /** Writes the open-loop generator skipped because too many were unanswered. */
  skipped: number;
}

export interface TargetLadder {
  target: "app" | "reference" | "directus";
  steps: RateStep[];
  /** The highest offered rate whose backlog stayed flat (null: none did). */
  sustainedRate: number | null;
  /** Events/s completed at that rate, and its delays. */
  atSustained: RateStep | null;
  /** The most events/s completed in any step (at full load, with a growing backlog). */
  peakEventsPerSecond: number;
}

/** One round of the two ladders, as the report keeps it (the ladders themselves only for the reported round). */
export interface LadderRoundSummary {
  round: number;
  /** Which ladder ran first (they alternate from round to round). */
  first: "app" | "reference";
  appSustained: number | null;
  referenceSustained: number | null;
  /** App ÷ reference sustained rate of this round (null without a reference). */
  ratio: number | null;
  /** Delays at the app's sustained rate in this round (reported; the targets are judged at atTargetRate). */
  delayP50Ms: number | null;
  delayP99Ms: number | null;
  /** The app's step at the target rate (half the reference's sustained rate), measured after both ladders. */
  atTargetRate: { offeredRate: number; flat: boolean; delayP50Ms: number; delayP99Ms: number } | null;
}

export interface WriteLoadSummary {
  writesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's CPU per write answered, in the round chosen (the server is pinned to one core; PostgreSQL and Redis are not). */
  serverCpuMsPerWrite: number | null;
  /** PostgreSQL's and Redis's CPU per write in the same round (they are not pinned: they run on either core). */
  databaseCpuMsPerWrite: number | null;
  redisCpuMsPerWrite: number | null;
  /**
   * Every process's CPU per write in the same round, the load generator's included. The server,
   * PostgreSQL, Redis and the load share the machine's two cores, which run 80–90 % busy in both modes
   * of this closed loop, so with ÷ without follows the ratio of these (without ÷ with) more closely
   * than the server's own (bench/README.md, 2026-12-06 (AMD)).
   */
  machineCpuMsPerWrite: number | null;
  failures: number;
  rounds: number[];
}

/** --writes-alone: one offered rate held open loop with the automation disabled. */
export type WritesAlone = Pick<WriteLoadSummary, "writesPerSecond" | "p50Ms" | "p99Ms" | "serverCpuMsPerWrite" | "databaseCpuMsPerWrite" | "redisCpuMsPerWrite" | "failures"> & {
  offeredRate: number;
  /** The slowest answer: a stall of the write path (a reload that calls wait for) shows here first. */
  maxMs: number;
  machineBusy: number | null;
};

export interface WriteThroughput {
  connections: number;
  seconds: number;
  withoutAutomation: WriteLoadSummary;
  /** The automation on, its worker paused: the write path's own cost (the target). */
  withAutomation: WriteLoadSummary;
  /** The automation on, its worker running on the same machine. */
  withWorkerAlongside: WriteLoadSummary & { drainSeconds: number };
  ratio: number;
  ratioWithWorkerAlongside: number;
  met: boolean;
  /** The reference design's own with ÷ without (reported, not judged); null without a reference. Absent in reports before 2026-12-07. */
  reference?: ReferenceWriteThroughput | null;
}

/** The reference server's writes with its BullMQ add after the INSERT ÷ without it (`?queue=off`), its worker paused. */
export interface ReferenceWriteThroughput {
  withoutQueue: WriteLoadSummary;
  withQueue: WriteLoadSummary;
  ratio: number;
}

export interface KillCheck {
  offeredRate: number;
  seconds: number;
  /** Seconds into the load when the worker got SIGKILL; a new worker was started at once. */
  killedAfterSeconds: number;
  lockSeconds: number;
  answered: number;
  lost: number;
  /** Runs logged with afterInterruption: true (each with retryOf set). */
  interruptedRuns: number;
  interruptedRunsWithRetryOf: number;
  /** Events with more than one run: only interrupted ones may have (at-least-once). */
  ranTwice: number;
  ranTwiceWithoutInterruption: number;
  /** Events with more than one copy (a Create step that ran before the kill and again after it). */
  copiedTwice: number;
  /** Longest stretch without a run starting, after the kill (the stalled lock and the dead worker's run slots). */
  longestPauseSeconds: number;
  drainSeconds: number;
  met: boolean;
  note: string;
}

export interface AutomationBenchReport {
  date: string;
  /** A --quick smoke run: seconds per rate, not a measurement. */
  smoke: boolean;
  code: BenchReport["code"];
  machine: BenchReport["machine"];
  settings: {
    stepSeconds: number;
    rates: number[] | "adaptive";
    projectSlots: number | "default";
    appWorker: "separate" | "embedded";
    lockSeconds: number;
    pinned: boolean;
    writeKeys: number;
    nodeOptions: string | null;
    /** Node flags the app and its worker ran with (npm start's unless --node-flags). */
    appNodeFlags: readonly string[];
  };
  /** The ladders of the round with the median ratio (judgedLadderRound): its ratio and delays are the ones judged. */
  app: TargetLadder;
  reference: TargetLadder;
  /** --directus: Directus Flows' ladder on the same work, measured once after the rounds; null when not measured. */
  directus?: TargetLadder | null;
  /** The app's step at the judged round's target rate: the delay targets' measurement. */
  appAtTargetRate: RateStep | null;
  /** Every round of the ladders (--rounds), in order. */
  ladderRounds: LadderRoundSummary[];
  /** The round of `app` and `reference`, the one with the median ratio. */
  judgedLadderRound: number;
  writes: WriteThroughput | null;
  /** --writes-alone: the records API alone at each --rates rate; null when not measured. */
  writesAlone?: WritesAlone[] | null;
  kill: KillCheck | null;
  targets: {
    sustainedRatio: { value: number | null; min: number; met: boolean };
    /** At the target rate (offeredRate): met only when the backlog also stayed flat there. */
    delayP50: { valueMs: number | null; max: number; offeredRate: number | null; met: boolean };
    delayP99: { valueMs: number | null; max: number; offeredRate: number | null; met: boolean };
    noneLost: { lost: number; met: boolean };
    noneRanTwice: { ranTwice: number; met: boolean };
    writeThroughput: { ratio: number | null; min: number; met: boolean } | null;
    killSurvived: { met: boolean } | null;
    /** "≥ 5× Directus": the judged round's app sustained rate ÷ Directus'; "not measured" without --directus. */
    directus: { multiple: number | null; appSustained: number | null; directusSustained: number | null; min: number; met: boolean } | "not measured";
  };
  allTargetsMet: boolean;
  notes: string[];
}

const fixed = (value: number | null | undefined, digits: number) => (value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits));
const mark = (met: boolean) => (met ? "ok" : "MISS");

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, index) => (index < 1 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

export function formatLadder(ladder: TargetLadder): string {
  const header = [
    "offered/s",
    "writes/s",
    "events/s",
    "backlog Δ/s",
    "flat",
    "delay p50",
    "p95",
    "p99",
    "CPU ms/event (server+worker)",
    "PG ms/event",
    "Redis ms/event",
    "machine busy",
    "slot-delayed",
    "in flight",
    "lost",
    "twice",
    "drain s",
  ];
  const rows = ladder.steps.map((step) => [
    String(step.offeredRate),
    fixed(step.writesPerSecond, 0),
    fixed(step.eventsPerSecond, 0),
    fixed(step.backlogSlopePerSecond, 1),
    step.flat ? "yes" : "no",
    fixed(step.delayMs.p50, 1),
    fixed(step.delayMs.p95, 1),
    fixed(step.delayMs.p99, 1),
    `${fixed(step.cpuMsPerEvent, 3)} (${fixed(step.cpuMsPerEventServer, 2)}+${fixed(step.cpuMsPerEventWorker, 2)})`,
    fixed(step.cpuMsPerEventDatabase, 3),
    fixed(step.cpuMsPerEventRedis, 3),
    step.machineBusy === null ? "–" : `${fixed(step.machineBusy * 100, 0)} %`,
    String(step.slotDelayedMax),
    String(step.inFlightMax),
    String(step.lost),
    String(step.ranTwice),
    fixed(step.drainSeconds, 1),
  ]);
  const summary = `${ladder.target}: sustained ${ladder.sustainedRate ?? "–"} events/s (the highest offered rate with a flat backlog), peak ${fixed(ladder.peakEventsPerSecond, 0)} events/s completed at full load`;
  return `${summary}\n${table(header, rows)}`;
}

/** "CPU per write: server a → b ms, …": each process's CPU per write in two write check modes. */
function cpuPerWriteChange(before: WriteLoadSummary, after: WriteLoadSummary): string {
  const change = (ms: (summary: WriteLoadSummary) => number | null) => `${fixed(ms(before), 3)} → ${fixed(ms(after), 3)} ms`;
  return (
    `CPU per write: server ${change((summary) => summary.serverCpuMsPerWrite)}, PostgreSQL ${change((summary) => summary.databaseCpuMsPerWrite)}, ` +
    `Redis ${change((summary) => summary.redisCpuMsPerWrite)}, all processes ${change((summary) => summary.machineCpuMsPerWrite)}`
  );
}

export function formatAutomationSummary(report: AutomationBenchReport): string {
  const { targets } = report;
  const lines = [
    `${report.smoke ? "SMOKE RUN (--quick: seconds per rate; not a measurement)\n" : ""}automation targets:`,
    `  sustained events/s app ÷ reference  ${targets.sustainedRatio.value === null ? "–" : `${fixed(targets.sustainedRatio.value * 100, 0)} %`} (≥ ${targets.sustainedRatio.min * 100} %) ${mark(targets.sustainedRatio.met)}`,
    ...(report.ladderRounds.length > 1
      ? [
          `    rounds: ${report.ladderRounds
            .map(
              (round) =>
                `${round.appSustained ?? "–"} ÷ ${round.referenceSustained ?? "–"} = ${round.ratio === null ? "–" : `${fixed(round.ratio * 100, 0)} %`} (delay p50 / p99 ${fixed(round.delayP50Ms, 0)} / ${fixed(round.delayP99Ms, 0)} ms; ` +
                `at ${round.atTargetRate ? `${round.atTargetRate.offeredRate}/s ${fixed(round.atTargetRate.delayP50Ms, 0)} / ${fixed(round.atTargetRate.delayP99Ms, 0)} ms${round.atTargetRate.flat ? "" : ", NOT flat"}` : "the target rate –"})`,
            )
            .join(", ")}; judged: round ${report.judgedLadderRound}, the median`,
        ]
      : []),
    `  delay p50 at the target rate (${targets.delayP50.offeredRate ?? "–"}/s)${report.appAtTargetRate && !report.appAtTargetRate.flat ? ", NOT flat" : ""}  ${fixed(targets.delayP50.valueMs, 1)} ms (≤ ${targets.delayP50.max} ms) ${mark(targets.delayP50.met)}`,
    `  delay p99 at the target rate (${targets.delayP99.offeredRate ?? "–"}/s)  ${fixed(targets.delayP99.valueMs, 1)} ms (≤ ${targets.delayP99.max} ms) ${mark(targets.delayP99.met)}`,
    `  delay p50 / p99 at the app's sustained rate (${report.app.sustainedRate ?? "–"}/s)  ${fixed(report.app.atSustained?.delayMs.p50, 1)} / ${fixed(report.app.atSustained?.delayMs.p99, 1)} ms (reported, not judged)`,
    `  lost (all steps)                       ${targets.noneLost.lost} ${mark(targets.noneLost.met)}`,
    `  ran twice in normal operation          ${targets.noneRanTwice.ranTwice} ${mark(targets.noneRanTwice.met)}`,
  ];
  if (targets.writeThroughput && report.writes) {
    const { writes } = report;
    lines.push(
      `  records API writes/s with ÷ without    ${fixed(writes.withAutomation.writesPerSecond, 0)} ÷ ${fixed(writes.withoutAutomation.writesPerSecond, 0)} = ${fixed(writes.ratio * 100, 0)} % (≥ ${targets.writeThroughput.min * 100} %) ${mark(writes.met)} (worker paused; with it running on the same cores: ${fixed(writes.withWorkerAlongside.writesPerSecond, 0)} = ${fixed(writes.ratioWithWorkerAlongside * 100, 0)} %); ${cpuPerWriteChange(writes.withoutAutomation, writes.withAutomation)}`,
    );
    const reference = writes.reference;
    if (reference)
      lines.push(
        `    the reference's writes/s with ÷ without its enqueue  ${fixed(reference.withQueue.writesPerSecond, 0)} ÷ ${fixed(reference.withoutQueue.writesPerSecond, 0)} = ${fixed(reference.ratio * 100, 0)} % (reported, not judged: node:http + INSERT, then BullMQ add or not, worker paused); ${cpuPerWriteChange(reference.withoutQueue, reference.withQueue)}`,
      );
  }
  if (report.kill) {
    const kill = report.kill;
    lines.push(
      `  kill -9 of the worker                  ${kill.answered} writes, ${kill.lost} lost, ${kill.interruptedRuns} interrupted runs re-run (afterInterruption, ${kill.interruptedRunsWithRetryOf} with retryOf), ` +
        `${kill.ranTwiceWithoutInterruption} run twice without an interruption, ${kill.copiedTwice} copied twice, runs paused ${fixed(kill.longestPauseSeconds, 1)} s ${mark(kill.met)}`,
    );
    if (kill.note) lines.push(`    ${kill.note}`);
  }
  if (targets.directus === "not measured") {
    lines.push(`  ≥ 5× Directus                          not measured (--directus measures it)`);
  } else {
    const { directus } = targets;
    const atSustained = report.directus?.atSustained;
    lines.push(
      `  ≥ 5× Directus                          ${directus.appSustained ?? "–"} ÷ ${directus.directusSustained ?? "–"} = ${fixed(directus.multiple, 1)}× (≥ ${directus.min}×) ${mark(directus.met)}` +
        (atSustained
          ? `; Directus at ${atSustained.offeredRate}/s: delay p50 / p99 ${fixed(atSustained.delayMs.p50, 0)} / ${fixed(atSustained.delayMs.p99, 0)} ms, CPU ${fixed(atSustained.cpuMsPerEvent, 2)} ms/event, PostgreSQL ${fixed(atSustained.cpuMsPerEventDatabase, 2)} ms/event`
          : ""),
    );
  }
  return lines.join("\n");
}
