import type { AutomationRetry, TriggerType } from "../automation-definition";

/**
 * One queued run of an automation. The same shape travels through every queue backend (BullMQ on
 * Redis, in-process without it) and is all a worker needs: the automation's definition is read
 * from the project runtime at run time, so an edit made while the job waited applies.
 */
export interface AutomationJob {
  /**
   * The idempotency key: queueing the same key again while the job is known does nothing, so an
   * event delivered twice (outbox drain, two instances) runs once. Built by automationJobId().
   */
  id: string;
  projectId: string;
  automationId: string;
  triggerType: TriggerType;
  /** What the flow reads as `trigger.*` (docs/DESIGN.md "Automations"). */
  trigger: unknown;
  /** The execution id of the first attempt, answered to manual runs (202) before the run starts. */
  executionId: string;
  /** ISO time the job was queued (the delay from the event to the run is measured from it). */
  queuedAt: string;
  /** The automation's retry policy when the job was queued (the queue schedules the attempts). */
  retry: AutomationRetry;
  /**
   * Attempts made before this job was queued: a run of a batch (bullmq-automation-queue.ts) that
   * failed goes on to a job of its own for its retries, which count on from here.
   */
  attemptsBefore?: number;
  /**
   * Queued again from the outbox, whose entry may already have been queued in a batch: the run
   * first looks in the execution log for itself and does not run twice.
   */
  redelivered?: boolean;
}

/**
 * The key of one event for one automation: `record:<eventId>`, `form:<submissionId>`,
 * `schedule:<tick ISO time>`, `manual:<executionId>`. BullMQ ids must not contain ":" alone
 * as a number-like value; the prefix keeps them textual.
 */
export function automationJobId(kind: TriggerType, eventKey: string, automationId: string): string {
  return `${kind}-${eventKey}-${automationId}`;
}

/** The automation a job id built by automationJobId names (its last part: automation ids hold no "-"). */
export function automationOfJobId(jobId: string): string {
  return jobId.slice(jobId.lastIndexOf("-") + 1);
}
