import type { EndpointAuthMode } from "@/lib/endpoints/endpoint-definition";
import type { StepStatus } from "@/lib/flow/engine/run-flow";
import type { ExecutionOutcome } from "@/lib/flow/execution-log/execution-log-entry";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";

/** Badges and labels shared by the endpoint list, the editor, test runs and the execution log (server and client). */

const OUTCOME_TONES: Record<ExecutionOutcome, BadgeTone> = { completed: "green", stopped: "amber", failed: "red", rejected: "amber" };
const OUTCOME_LABELS: Record<ExecutionOutcome, string> = { completed: "Completed", stopped: "Stopped", failed: "Failed", rejected: "Rejected" };

export function OutcomeBadge({ outcome }: { outcome: ExecutionOutcome }) {
  return <Badge tone={OUTCOME_TONES[outcome] ?? "neutral"}>{OUTCOME_LABELS[outcome] ?? outcome}</Badge>;
}

const STEP_TONES: Record<StepStatus, BadgeTone> = { ok: "green", failed: "red", skipped: "neutral", stopped: "amber" };
const STEP_LABELS: Record<StepStatus, string> = { ok: "OK", failed: "Failed", skipped: "Skipped", stopped: "Stopped" };

export function StepStatusBadge({ status }: { status: StepStatus }) {
  return <Badge tone={STEP_TONES[status] ?? "neutral"}>{STEP_LABELS[status] ?? status}</Badge>;
}

const METHOD_COLORS: Record<string, string> = {
  GET: "bg-sky-50 text-sky-700 ring-sky-200",
  POST: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  PUT: "bg-amber-50 text-amber-800 ring-amber-200",
  PATCH: "bg-violet-50 text-violet-700 ring-violet-200",
  DELETE: "bg-rose-50 text-rose-700 ring-rose-200",
};

export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex w-16 justify-center rounded px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset",
        METHOD_COLORS[method] ?? "bg-slate-100 text-slate-700 ring-slate-200",
        className,
      )}
    >
      {method}
    </span>
  );
}

export const AUTH_MODE_LABELS: Record<EndpointAuthMode, { label: string; description: string }> = {
  public: { label: "Anyone", description: "No credentials; rate limited to 60 calls per minute per IP." },
  api_key: { label: "API key", description: "Backends and scripts send a key with endpoints.invoke; never ship it in browser code." },
  end_user: { label: "Logged-in end user", description: "Your site's users send the token from an auth schema's login; their profile is {{user.…}}." },
};

export function formatDuration(ms: number): string {
  if (ms < 1) return "<1 ms";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

const RUN_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

/** When a run started, to the second (runs a few seconds apart must be told apart), in UTC like the rest of the dashboard. */
export function formatRunTime(iso: string): string {
  return `${RUN_TIME.format(new Date(iso))} UTC`;
}
