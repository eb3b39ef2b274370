import { listExecutions } from "@/lib/flow/execution-log/list-executions";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

/**
 * Runs happen in the background: polls the project's execution log until the automation has at
 * least `count` runs (newest first), or fails after `timeoutMs`.
 */
export async function waitForAutomationRuns(projectId: string, automationId: string, count: number, timeoutMs = 15_000): Promise<ExecutionLogEntry[]> {
  const store = await getProjectRecordStore({ projectId });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await listExecutions({ store, automationId, query: { limit: 100 } });
    if (data.length >= count) return data;
    if (Date.now() > deadline) throw new Error(`expected ${count} runs of ${automationId}, found ${data.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The automation's runs after a quiet period: proves that nothing else runs later. */
export async function automationRunsAfterQuiet(projectId: string, automationId: string, quietMs = 1_500): Promise<ExecutionLogEntry[]> {
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  const store = await getProjectRecordStore({ projectId });
  return (await listExecutions({ store, automationId, query: { limit: 100 } })).data;
}
