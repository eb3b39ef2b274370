import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getProjectRuntime, recordTriggerKey, type RuntimeAutomation } from "@/lib/endpoints/invoke/project-runtime";
import type { RecordStore } from "@/lib/records/record-store";
import type { RecordChangeEvent } from "@/lib/records-service/record-change-event";
import { OUTBOX_COLLECTION, type RecordEventPlan } from "./record-event-outbox";
import { recordTriggerJobs } from "./record-trigger-jobs";
import { enqueueAutomationJobs } from "./queue/enqueue-automation-jobs";
import { queueingEnded, queueingStarted, rememberUndeliveredProject } from "./queue/undelivered-jobs";
import { removeOutboxEntryLater } from "./remove-outbox-entries";

const QUEUED: Promise<void> = Promise.resolve();

/**
 * Queues the runs a records API (or dashboard) write triggers, before the write is answered. With
 * a plan (planRecordEvent, made before the write), the event's outbox entry was stored with the
 * record: it is removed once the runs are queued, and left for the drain when the queue is down.
 * A null plan means the write was planned and nothing listens. Without one (a change reported after
 * the fact, as end-user registration does), the project's automations are looked up here and an
 * entry is stored only when the queue is down. Never throws or rejects: what cannot be queued is
 * logged and kept for the drain.
 *
 * Every records API write that an automation listens to comes through here, so the planned path is
 * written without async functions: each layer of them costs promises (and, under Next's async
 * hooks, their bookkeeping) on every write.
 */
export function queueRecordTriggers(event: RecordChangeEvent, plan?: RecordEventPlan | null): Promise<void> {
  if (plan === null) return QUEUED;
  if (!plan) return queueUnplannedRecordTriggers(event).catch((error: unknown) => reportFailure(event, error));
  try {
    return queueRuns(event, plan.outbox.id, plan.automations, plan.store, true);
  } catch (error) {
    // A trigger condition that could not be checked, say: the entry stays for the workers' sweep.
    reportFailure(event, error);
    return QUEUED;
  }
}

async function queueUnplannedRecordTriggers(event: RecordChangeEvent): Promise<void> {
  const runtime = await getProjectRuntime(event.projectId);
  const automations = runtime?.automations.records.get(recordTriggerKey(event.schema, event.type));
  if (!automations || automations.length === 0 || !runtime) return;
  await queueRuns(event, newId("event"), automations, runtime.store, false);
}

/** `entryStored`: the event's outbox entry was written with the record (and goes once its runs are queued). */
function queueRuns(event: RecordChangeEvent, eventId: string, automations: readonly RuntimeAutomation[], store: RecordStore, entryStored: boolean): Promise<void> {
  const jobs = recordTriggerJobs(eventId, event, automations);
  if (jobs.length === 0) {
    if (entryStored) removeOutboxEntryLater(store, event.projectId, eventId);
    return QUEUED;
  }
  queueingStarted(eventId);
  let late: Promise<boolean> | null = null;
  return enqueueAutomationJobs(jobs, {
    onTimeout: (outcome) => {
      late = outcome;
    },
  }).then(
    () => {
      try {
        queueingEnded(eventId);
        if (entryStored) removeOutboxEntryLater(store, event.projectId, eventId);
      } catch (error) {
        reportFailure(event, error);
      }
    },
    (error: unknown) => keepForTheDrain({ event, eventId, store, entryStored, jobs: jobs.length, late, error }).catch((failure: unknown) => reportFailure(event, failure)),
  );
}

function reportFailure(event: RecordChangeEvent, error: unknown): void {
  log.error("record automations could not be queued", { projectId: event.projectId, schema: event.schema, type: event.type, recordId: event.record.id, error });
}

/** The queue did not take the runs: the event waits in the outbox (stored now when it was not with the record). */
async function keepForTheDrain(failure: {
  event: RecordChangeEvent;
  eventId: string;
  store: RecordStore;
  entryStored: boolean;
  jobs: number;
  late: Promise<boolean> | null;
  error: unknown;
}): Promise<void> {
  const { event, eventId, store } = failure;
  log.warn("automation runs could not be queued: the event waits in the outbox", { projectId: event.projectId, jobs: failure.jobs, error: failure.error });
  if (!failure.entryStored) {
    await store
      .insert(OUTBOX_COLLECTION, { id: eventId, event: { type: event.type, schema: event.schema }, record: event.record, previous: event.previous ?? null, presented: true })
      .catch((stored: unknown) => {
        log.error("automation runs lost: neither the queue nor the outbox could take them", { projectId: event.projectId, eventId, error: stored });
      });
  }
  // An add that timed out may still arrive: until that is known, the entry stays the add's.
  void (failure.late ?? Promise.resolve(false)).then((queued) => {
    queueingEnded(eventId);
    if (queued) removeOutboxEntryLater(store, event.projectId, eventId);
    else rememberUndeliveredProject(event.projectId);
  });
}
