import type { ExecutionStepLog } from "@/lib/flow/execution-log/execution-log-entry";
import { STEP_CATALOG } from "@/lib/flow/steps/catalog";
import { cn } from "@/components/ui/cn";
import { formatDuration } from "./status-badges";

const BAR_COLOURS: Record<ExecutionStepLog["status"], string> = {
  ok: "bg-indigo-600",
  failed: "bg-rose-600",
  stopped: "bg-amber-600",
  skipped: "bg-slate-300",
};

const STATUS_WORDS: Record<ExecutionStepLog["status"], string> = { ok: "ok", failed: "failed", stopped: "stopped", skipped: "skipped" };

const ROW_GRID = "grid gap-x-4 gap-y-1 sm:grid-cols-[16rem_minmax(0,1fr)] sm:items-center";

export interface WaterfallRow {
  step: ExecutionStepLog;
  /** When the step started, in ms after the run did. */
  startMs: number;
}

/**
 * Where each step sits on the run's time line. The engine runs steps one after another and logs
 * each one's duration, so a step starts when the steps before it have ended; the little time the
 * engine spends between steps is left at the end of the run's bar.
 */
export function waterfallRows(steps: readonly ExecutionStepLog[]): WaterfallRow[] {
  let elapsed = 0;
  return steps.map((step) => {
    const row = { step, startMs: elapsed };
    elapsed += Math.max(0, step.durationMs);
    return row;
  });
}

function percent(part: number, whole: number): string {
  return `${Math.min(100, Math.max(0, (part / whole) * 100)).toFixed(2)}%`;
}

/**
 * The run's steps as a waterfall: one bar per step, offset by its start and as long as its
 * duration, on the scale of the whole run. Every bar has its words beside it (step, status, start
 * and duration), so nothing is told by colour or length alone.
 */
export function StepWaterfall({ steps, totalMs }: { steps: readonly ExecutionStepLog[]; totalMs: number }) {
  const rows = waterfallRows(steps);
  const stepsMs = rows.reduce((sum, row) => sum + Math.max(0, row.step.durationMs), 0);
  // A scale of at least 1 ms keeps runs that took no measurable time drawable.
  const scale = Math.max(totalMs, stepsMs, 1);
  return (
    <figure className="px-5 py-4">
      <figcaption className="sr-only">Time line of the steps, on a scale of {formatDuration(scale)}</figcaption>
      <ol className="space-y-2">
        {rows.map(({ step, startMs }) => {
          const name = `${step.index + 1}. ${STEP_CATALOG[step.type]?.label ?? step.type}${step.name ? ` (steps.${step.name})` : ""}`;
          const timing = step.status === "skipped" ? "skipped" : `${formatDuration(step.durationMs)}, from ${startMs === 0 ? "0 ms" : formatDuration(startMs)}`;
          return (
            <li key={step.index} className={cn(ROW_GRID, "text-xs")}>
              <span className="truncate text-slate-800" title={name}>
                {name}
                <span className="ml-2 text-slate-600">
                  {STATUS_WORDS[step.status]} · {timing}
                </span>
              </span>
              <span aria-hidden="true" className="relative block h-3 rounded-sm bg-slate-100">
                {step.status !== "skipped" && (
                  <span
                    className={cn("absolute inset-y-0 block min-w-0.5 rounded-sm", BAR_COLOURS[step.status])}
                    style={{ left: percent(startMs, scale), width: percent(step.durationMs, scale) }}
                  />
                )}
              </span>
            </li>
          );
        })}
      </ol>
      <div aria-hidden="true" className={cn(ROW_GRID, "mt-2 text-xs text-slate-600")}>
        <span />
        <span className="flex justify-between">
          <span>0 ms</span>
          <span>{formatDuration(scale)}</span>
        </span>
      </div>
    </figure>
  );
}
