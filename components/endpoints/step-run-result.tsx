"use client";

import type { StepResult } from "@/lib/flow/engine/run-flow";
import { CodeBlock } from "@/components/ui/code-block";
import { BEFORE_YOUR_EDIT, StaleMark } from "./live-previews";
import { StepStatusBadge, formatDuration } from "./status-badges";

/** What a step card shows of the last test run: the step's status, time, error and output. */
export type StepRunResult = Pick<StepResult, "status" | "durationMs" | "error" | "output">;

export function prettyOutput(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? "null";
}

/**
 * The step's part of the last test run, at the foot of its card, so the output sits beside the
 * settings that made it. It describes the run, not the current settings: once the step or one
 * before it is edited it is marked stale until the next run.
 */
export function StepRunResultView({ stepNumber, result, stale = false }: { stepNumber: number; result: StepRunResult; stale?: boolean }) {
  return (
    <div className="border-t border-slate-100 bg-slate-50 px-4 py-3">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-700">Last test run</span>
        <StepStatusBadge status={result.status} />
        <span className="text-xs tabular-nums text-slate-600">{formatDuration(result.durationMs)}</span>
        {stale && <StaleMark detail={`output ${BEFORE_YOUR_EDIT}; run the test again to update it`} />}
      </p>
      {result.error && (
        <p className={result.status === "stopped" ? "mt-2 text-sm text-amber-950" : "mt-2 text-sm text-rose-800"}>
          {result.status === "stopped" ? "The checks did not pass: the flow stopped here." : result.error}
        </p>
      )}
      {result.output !== null && result.output !== undefined && (
        <CodeBlock
          label={`Output of step ${stepNumber} in the last test run${stale ? ", before your edit" : ""}`}
          className="mt-2 max-h-48 rounded-md bg-white px-3 py-2 text-slate-800 ring-1 ring-slate-200 ring-inset"
        >
          {prettyOutput(result.output)}
        </CodeBlock>
      )}
    </div>
  );
}
