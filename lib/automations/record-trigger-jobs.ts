import { newId } from "@/lib/ids";
import type { RuntimeAutomation } from "@/lib/endpoints/invoke/project-runtime";
import type { RecordChangeEvent } from "@/lib/records-service/record-change-event";
import { checkTriggerCondition } from "./check-trigger-condition";
import { automationJobId, type AutomationJob } from "./queue/automation-job";

/**
 * One job per automation whose condition the event meets. The job ids derive from the event id,
 * so the same event queued again (by the outbox drain) is recognised by the queue.
 */
export function recordTriggerJobs(eventId: string, event: RecordChangeEvent, automations: readonly RuntimeAutomation[]): AutomationJob[] {
  const trigger = { event: event.type, schema: event.schema, record: event.record, previous: event.previous ?? null };
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
  return jobs;
}
