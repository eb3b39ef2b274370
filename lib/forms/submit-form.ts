import type { AutomationRetry, FormTrigger } from "@/lib/automations/automation-definition";
import { rememberUndeliveredProject } from "@/lib/automations/queue/undelivered-jobs";
import { newId } from "@/lib/ids";
import type { RecordStore } from "@/lib/records/record-store";
import { FORM_LIMITS, FORM_SUBMISSIONS_COLLECTION, SEARCH_TEXT_FIELD, type FormFields } from "./form-submission";
import { queueSubmissionRun } from "./queue-submission-run";

export interface SubmitFormOptions {
  projectId: string;
  automationId: string;
  trigger: FormTrigger;
  /** The automation's retry policy, handed to the queue with the job. */
  retry: AutomationRetry;
  /** The project's customer database. */
  store: RecordStore;
  fields: FormFields;
  client: { ip: string; userAgent: string | null; origin: string | null };
}

export interface SubmitFormResult {
  /** The submission's id; for a dropped (honeypot) submission a fresh id that names nothing. */
  submissionId: string;
  /** False when the honeypot was filled: nothing was stored or run. */
  stored: boolean;
  /** False when the queue could not take the run (the submission is stored all the same). */
  queued: boolean;
}

/** A honeypot counts as filled when it holds anything but blank text (humans never see the field). */
function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.some(isFilled);
  return true;
}

function capped(text: string | null, max: number): string | null {
  return text === null ? null : text.slice(0, max);
}

/**
 * Takes one form submission: stores it in the customer database (`_form_submissions`) and only
 * then queues the automation's run, so a stored submission is never lost to a queue outage. When
 * the queue refuses, the submission stays stored with `queued: false` and is queued again once the
 * queue is back (the job id is derived from the submission, so queueing it twice runs it once); the
 * caller is still told it was accepted. A filled honeypot stores and runs nothing.
 */
export async function submitForm(options: SubmitFormOptions): Promise<SubmitFormResult> {
  const { trigger, store } = options;
  let fields = options.fields;
  if (trigger.honeypot) {
    if (isFilled(fields[trigger.honeypot])) return { submissionId: newId("submission"), stored: false, queued: false };
    // The empty trap is no data of the visitor's.
    const { [trigger.honeypot]: _trap, ...rest } = fields;
    fields = rest;
  }

  const submissionId = newId("submission");
  const submittedAt = new Date().toISOString();
  await store.insert(FORM_SUBMISSIONS_COLLECTION, {
    id: submissionId,
    form: trigger.form,
    automationId: options.automationId,
    fields,
    [SEARCH_TEXT_FIELD]: JSON.stringify(fields),
    submittedAt,
    ip: options.client.ip,
    userAgent: capped(options.client.userAgent, FORM_LIMITS.maxUserAgentLength),
    origin: capped(options.client.origin, FORM_LIMITS.maxOriginLength),
    // Written false first: a process that stops before the queue took the run leaves it findable.
    queued: false,
  });

  const queued = await queueSubmissionRun({
    projectId: options.projectId,
    automationId: options.automationId,
    retry: options.retry,
    store,
    submission: { id: submissionId, form: trigger.form, fields, submittedAt, ip: options.client.ip },
  });
  // This process queues it again every few seconds until the queue takes it.
  if (!queued) rememberUndeliveredProject(options.projectId);
  return { submissionId, stored: true, queued };
}
