import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { jsonSizeWithin } from "@/lib/flow/engine/json-size";
import { automationJobId } from "./queue/automation-job";
import { enqueueAutomationJobs } from "./queue/enqueue-automation-jobs";

export const MAX_MANUAL_PAYLOAD_BYTES = 100_000;

const payloadSchema = z.record(z.string(), z.unknown(), { error: "the payload must be a JSON object" });

/**
 * Queues a manual run ("Run now", "Run again", `POST /automations/:id/run`) of any automation of
 * the project, disabled ones included; the flow reads the payload as `trigger.*`. Answers the
 * execution id the run will be logged under, before it runs.
 */
export async function runAutomationNow(options: { projectId: string; automationId: string; payload: unknown }): Promise<{ executionId: string }> {
  const runtime = await getProjectRuntime(options.projectId);
  const automation = runtime?.automations.byId.get(options.automationId);
  if (!automation) throw new AppError("not_found", "automation not found");
  const parsed = payloadSchema.safeParse(options.payload ?? {});
  if (!parsed.success) throw new AppError("validation_failed", "invalid payload", { issues: issuesFromZod(parsed.error) });
  if (jsonSizeWithin(parsed.data, MAX_MANUAL_PAYLOAD_BYTES) > MAX_MANUAL_PAYLOAD_BYTES) {
    throw new AppError("payload_too_large", `the payload is over ${MAX_MANUAL_PAYLOAD_BYTES / 1_000} KB`);
  }
  const executionId = newId("execution");
  await enqueueAutomationJobs([
    {
      id: automationJobId("manual", executionId, options.automationId),
      projectId: options.projectId,
      automationId: options.automationId,
      triggerType: "manual",
      trigger: parsed.data,
      executionId,
      queuedAt: new Date().toISOString(),
      retry: automation.definition.retry,
    },
  ]);
  return { executionId };
}
