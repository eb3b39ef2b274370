import { and, eq, inArray, sql } from "drizzle-orm";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { drainUndeliveredJobs } from "./queue/undelivered-jobs";
import { reclaimOutboxSpace } from "./queue/reclaim-outbox-space";

/** Projects swept at once: a project whose database does not answer must not hold up the others' runs. */
const SWEEP_CONCURRENCY = 8;

/**
 * One project's part of the sweep: queues what its outbox kept (a process that died between a
 * write and its queueing, the queue down), then gives the outbox's deleted entries' space back.
 * Never throws: a failure is logged and the next sweep tries again.
 */
export async function sweepProjectOutbox(projectId: string): Promise<void> {
  await drainUndeliveredJobs(projectId, { followRecent: true }).catch((error: unknown) => log.warn("automation outbox could not be drained", { projectId, error }));
  await reclaimOutboxSpace(projectId);
}

/** Sweeps the outbox of every project with enabled record or form automations (the only ones that write there), a few at a time. */
export async function sweepAutomationOutboxes(): Promise<void> {
  const db = await getPlatformDb();
  const rows = await db
    .selectDistinct({ projectId: automations.projectId })
    .from(automations)
    .where(and(eq(automations.enabled, true), inArray(sql`${automations.trigger}->>'type'`, ["record", "form"])));
  const waiting = rows.map((row) => row.projectId);
  const sweepNext = async (): Promise<void> => {
    for (let projectId = waiting.shift(); projectId !== undefined; projectId = waiting.shift()) await sweepProjectOutbox(projectId);
  };
  await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, sweepNext));
}
