import { and, eq, sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { toAutomationDefinition } from "../automation-row";
import { nextScheduleTimes } from "../next-schedule-times";
import { automationJobId, type AutomationJob } from "../queue/automation-job";
import { enqueueAutomationJobs } from "../queue/enqueue-automation-jobs";

/**
 * Queues the runs of every enabled schedule automation (of all projects) that fires at `tick`, a
 * whole minute. Every instance calls this each minute; the job id holds the tick, so however many
 * instances queue the same tick, the queue keeps one run (BullMQ: one job per id). Answers the
 * jobs queued by this call's request (duplicates included).
 */
export async function queueDueSchedules(tick: Date): Promise<AutomationJob[]> {
  const db = await getPlatformDb();
  const rows = await db
    .select()
    .from(automations)
    .where(and(eq(automations.enabled, true), sql`${automations.trigger}->>'type' = 'schedule'`));
  const scheduledAt = tick.toISOString();
  const jobs: AutomationJob[] = [];
  for (const definition of rows.map(toAutomationDefinition)) {
    const trigger = definition.trigger;
    if (trigger.type !== "schedule") continue;
    let due = false;
    try {
      const [next] = nextScheduleTimes({ cron: trigger.cron, timezone: trigger.timezone, count: 1, from: new Date(tick.getTime() - 1) });
      due = next?.getTime() === tick.getTime();
    } catch (error) {
      log.warn("stored schedule is invalid", { automationId: definition.id, error });
    }
    if (!due) continue;
    jobs.push({
      id: automationJobId("schedule", String(tick.getTime()), definition.id),
      projectId: definition.projectId,
      automationId: definition.id,
      triggerType: "schedule",
      trigger: { scheduledAt },
      executionId: newId("execution"),
      queuedAt: new Date().toISOString(),
      retry: definition.retry,
    });
  }
  await enqueueAutomationJobs(jobs);
  return jobs;
}
