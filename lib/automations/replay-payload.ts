import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { REDACTED } from "@/lib/flow/execution-log/redact";
import { getAutomationQueue } from "./queue/get-automation-queue";

export type ReplayPayload = { ok: true; payload: Record<string, unknown> } | { ok: false; reason: string };

function holdsText(value: unknown, needle: string, depth = 0): boolean {
  if (depth > 50) return true;
  if (typeof value === "string") return value.includes(needle);
  if (Array.isArray(value)) return value.some((item) => holdsText(item, needle, depth + 1));
  if (value !== null && typeof value === "object") return Object.entries(value).some(([key, item]) => key.includes(needle) || holdsText(item, needle, depth + 1));
  return false;
}

/**
 * The trigger payload of a logged automation run, to queue it again ("Run again"). Automation runs
 * log their trigger payload as the entry's `request.body`; the log keeps a redacted preview capped
 * at 2,000 characters, so a payload that was cut, redacted or sanitised is not the one the run had,
 * and replaying it would run the flow on different data: those answer a reason instead.
 */
export function replayPayloadOf(entry: ExecutionLogEntry): ReplayPayload {
  if (entry.source !== "automation") return { ok: false, reason: "Only automation runs can be run again." };
  const body = entry.request?.body;
  if (body === null || body === undefined || body === "") return { ok: false, reason: "This run's trigger payload was not kept in the log." };
  if (entry.sanitized) return { ok: false, reason: "Characters of this run's payload were replaced in the log, so it cannot be replayed as it was." };
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return { ok: false, reason: "This run's trigger payload was too large to keep whole in the log." };
  }
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return { ok: false, reason: "This run's trigger payload is not a JSON object." };
  if (holdsText(payload, REDACTED)) return { ok: false, reason: "Secret-named fields of this run's payload were redacted in the log, so it cannot be replayed as it was." };
  return { ok: true, payload: payload as Record<string, unknown> };
}

/**
 * The whole trigger payload of a failed automation run, to queue it again: from the queue, which
 * keeps a job whose runs all failed for a while (automation-queue.ts, failedJob), else from the log
 * when its preview kept the payload whole (replayPayloadOf). The job must be this project's run of
 * this automation.
 */
export async function findReplayPayload(options: { projectId: string; entry: ExecutionLogEntry }): Promise<ReplayPayload> {
  const { entry } = options;
  if (entry.source === "automation" && entry.jobId) {
    const job = await getAutomationQueue()
      .failedJob(entry.jobId)
      .catch(() => null);
    const trigger: unknown = job?.trigger;
    if (job && job.projectId === options.projectId && job.automationId === entry.automationId && trigger !== null && typeof trigger === "object" && !Array.isArray(trigger)) {
      return { ok: true, payload: trigger as Record<string, unknown> };
    }
  }
  return replayPayloadOf(entry);
}
