import type { AutomationRetry } from "../automation-definition";
import { automationJobId, automationOfJobId, type AutomationJob } from "./automation-job";

/**
 * The runs of one project's record events queued together as one BullMQ job (see
 * bullmq-automation-queue.ts). A batch's JSON is built, sent to Redis and parsed again for every
 * batch, on the path of every records API write that an automation listens to, so what its runs
 * share is stored once: the project, each automation's id and retry policy, the time the first run
 * was queued. What is left per run is mostly its trigger (the record): about two-thirds of a whole
 * job's JSON, for a record of a few fields.
 */
export interface AutomationBatch {
  projectId: string;
  /** The batch's automations; a run names one by its place here. */
  automations: Array<{ id: string; retry: AutomationRetry }>;
  /** When the first run was queued, in ms since the epoch. */
  queuedAt: number;
  runs: BatchedRun[];
}

export interface BatchedRun {
  eventId: string;
  /** Index into the batch's automations. */
  automation: number;
  executionId: string;
  /** Milliseconds after the batch's queuedAt. */
  queuedAfter: number;
  trigger: unknown;
}

/** The form batches had before: whole jobs. Still read, for batches queued by an older version. */
interface WholeJobsBatch {
  runs: AutomationJob[];
}

const RECORD_JOB_PREFIX = "record-";

/** Record event runs of one project (their ids built by automationJobId("record", …)) as one batch. */
export function packBatch(runs: readonly AutomationJob[]): AutomationBatch {
  const first = runs[0];
  if (!first) throw new Error("a batch holds at least one run");
  const queuedAt = Date.parse(first.queuedAt);
  const automations: AutomationBatch["automations"] = [];
  const places = new Map<string, number>();
  const packed: BatchedRun[] = [];
  for (const run of runs) {
    if (run.projectId !== first.projectId || !run.id.startsWith(RECORD_JOB_PREFIX)) throw new Error("a batch holds record event runs of one project");
    let place = places.get(run.automationId);
    // An automation edited between two writes of one batch has two retry policies: each run keeps its own.
    if (place === undefined || !sameRetry(automations[place]!.retry, run.retry)) {
      place = automations.push({ id: run.automationId, retry: run.retry }) - 1;
      places.set(run.automationId, place);
    }
    packed.push({
      eventId: run.id.slice(RECORD_JOB_PREFIX.length, run.id.length - run.automationId.length - 1),
      automation: place,
      executionId: run.executionId,
      queuedAfter: Date.parse(run.queuedAt) - queuedAt,
      trigger: run.trigger,
    });
  }
  return { projectId: first.projectId, automations, queuedAt, runs: packed };
}

function sameRetry(a: AutomationRetry, b: AutomationRetry): boolean {
  return a.attempts === b.attempts && a.backoffSeconds === b.backoffSeconds;
}

/** The runs of a batch job's data, whole again (either form). */
export function unpackBatch(data: AutomationBatch | WholeJobsBatch): AutomationJob[] {
  if (!("projectId" in data)) return data.runs;
  return data.runs.map((run) => {
    const automation = data.automations[run.automation];
    if (!automation) throw new Error(`batch run names automation ${run.automation} of ${data.automations.length}`);
    return {
      id: automationJobId("record", run.eventId, automation.id),
      projectId: data.projectId,
      automationId: automation.id,
      triggerType: "record",
      trigger: run.trigger,
      executionId: run.executionId,
      queuedAt: new Date(data.queuedAt + run.queuedAfter).toISOString(),
      retry: automation.retry,
    };
  });
}

/** Whether a job's id is that of a record event's run (automationJobId("record", …)), which alone may go in a batch. */
export function isRecordEventRun(run: AutomationJob): boolean {
  return run.triggerType === "record" && run.id.startsWith(RECORD_JOB_PREFIX) && automationOfJobId(run.id) === run.automationId;
}
