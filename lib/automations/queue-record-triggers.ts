import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getProjectRuntime, recordTriggerKey } from "@/lib/endpoints/invoke/project-runtime";
import type { RecordChangeEvent } from "@/lib/records-service/record-events";
import { checkTriggerCondition } from "./check-trigger-condition";
import { automationJobId, type AutomationJob } from "./queue/automation-job";
import { enqueueAutomationJobs } from "./queue/enqueue-automation-jobs";
import { storeUndeliveredJobs } from "./queue/undelivered-jobs";

/**
 * Queues the runs a records API (or dashboard) write triggers, before the write is answered. The
 * project's record automations come from the runtime cache, so a write that triggers nothing costs
 * one cache check. When the queue cannot take the runs (Redis down), they are kept in the customer
 * database's outbox and queued once it is back (undelivered-jobs.ts); the write stands either way.
 */
export async function queueRecordTriggers(event: RecordChangeEvent): Promise<void> {
  const runtime = await getProjectRuntime(event.projectId);
  const automations = runtime?.automations.records.get(recordTriggerKey(event.schema, event.type));
  if (!runtime || !automations || automations.length === 0) return;

  const trigger = { event: event.type, schema: event.schema, record: event.record, previous: event.previous ?? null };
  const eventId = newId("event");
  const queuedAt = new Date().toISOString();
  const jobs: AutomationJob[] = [];
  for (const automation of automations) {
    const definition = automation.definition;
    if (definition.trigger.type !== "record" || !checkTriggerCondition(definition.trigger.condition, trigger, definition.id)) continue;
    jobs.push({
      id: automationJobId("record", eventId, definition.id),
      projectId: event.projectId,
      automationId: definition.id,
      triggerType: "record",
      trigger,
      executionId: newId("execution"),
      queuedAt,
      retry: definition.retry,
    });
  }
  if (jobs.length === 0) return;
  try {
    await enqueueAutomationJobs(jobs);
  } catch (error) {
    log.warn("automation runs could not be queued: keeping them in the outbox", { projectId: event.projectId, jobs: jobs.length, error });
    await storeUndeliveredJobs(runtime.store, event.projectId, jobs);
  }
}
