import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getProjectRuntime, recordTriggerKey } from "@/lib/endpoints/invoke/project-runtime";
import type { RecordChangeEvent } from "@/lib/records-service/record-change-event";
import { OUTBOX_COLLECTION, type RecordEventPlan } from "./record-event-outbox";
import { recordTriggerJobs } from "./record-trigger-jobs";
import { enqueueAutomationJobs } from "./queue/enqueue-automation-jobs";
import { queueingEnded, queueingStarted, rememberUndeliveredProject } from "./queue/undelivered-jobs";
import { removeOutboxEntryLater } from "./remove-outbox-entries";

/**
 * Queues the runs a records API (or dashboard) write triggers, before the write is answered. With
 * a plan (planRecordEvent, made before the write), the event's outbox entry was stored with the
 * record: it is removed once the runs are queued, and left for the drain when the queue is down.
 * A null plan means the write was planned and nothing listens. Without one (a change reported after
 * the fact, as end-user registration does), the project's automations are looked up here and an
 * entry is stored only when the queue is down.
 */
export async function queueRecordTriggers(event: RecordChangeEvent, plan?: RecordEventPlan | null): Promise<void> {
  if (plan === null) return;
  let automations = plan?.automations;
  let store = plan?.store;
  if (!plan) {
    const runtime = await getProjectRuntime(event.projectId);
    automations = runtime?.automations.records.get(recordTriggerKey(event.schema, event.type));
    store = runtime?.store;
    if (!automations || automations.length === 0 || !store) return;
  }
  const eventId = plan?.outbox.id ?? newId("event");
  const jobs = recordTriggerJobs(eventId, event, automations ?? []);
  if (jobs.length === 0) {
    if (plan) removeOutboxEntryLater(plan.store, event.projectId, eventId);
    return;
  }
  queueingStarted(eventId);
  let late: Promise<boolean> | null = null;
  try {
    await enqueueAutomationJobs(jobs, {
      onTimeout: (outcome) => {
        late = outcome;
      },
    });
  } catch (error) {
    log.warn("automation runs could not be queued: the event waits in the outbox", { projectId: event.projectId, jobs: jobs.length, error });
    if (!plan) {
      await store!
        .insert(OUTBOX_COLLECTION, { id: eventId, event: { type: event.type, schema: event.schema }, record: event.record, previous: event.previous ?? null, presented: true })
        .catch((stored: unknown) => {
          log.error("automation runs lost: neither the queue nor the outbox could take them", { projectId: event.projectId, eventId, error: stored });
        });
    }
    // An add that timed out may still arrive: until that is known, the entry stays the add's.
    void (late ?? Promise.resolve(false)).then((queued) => {
      queueingEnded(eventId);
      if (queued) removeOutboxEntryLater(store!, event.projectId, eventId);
      else rememberUndeliveredProject(event.projectId);
    });
    return;
  }
  queueingEnded(eventId);
  if (plan) removeOutboxEntryLater(plan.store, event.projectId, eventId);
}
