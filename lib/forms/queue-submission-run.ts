import type { AutomationRetry } from "@/lib/automations/automation-definition";
import { automationJobId } from "@/lib/automations/queue/automation-job";
import { enqueueAutomationJobs } from "@/lib/automations/queue/enqueue-automation-jobs";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { FORM_SUBMISSIONS_COLLECTION, type FormFields } from "./form-submission";

/**
 * Queues the run of a stored submission and marks it `queued: true`. When the queue refuses, the
 * submission keeps `queued: false`; the caller has it queued again (submitForm remembers the
 * project for lib/automations/queue/undelivered-jobs.ts, whose drain calls this for such
 * submissions, also when a worker starts). Answers whether the queue took it; never throws.
 */
export async function queueSubmissionRun(options: {
  projectId: string;
  automationId: string;
  retry: AutomationRetry;
  store: RecordStore;
  submission: { id: string; form: string; fields: FormFields; submittedAt: string; ip: string };
}): Promise<boolean> {
  const { submission, store } = options;
  try {
    await enqueueAutomationJobs([
      {
        id: automationJobId("form", submission.id, options.automationId),
        projectId: options.projectId,
        automationId: options.automationId,
        triggerType: "form",
        trigger: { form: submission.form, submissionId: submission.id, fields: submission.fields, submittedAt: submission.submittedAt, ip: submission.ip },
        executionId: newId("execution"),
        queuedAt: new Date().toISOString(),
        retry: options.retry,
      },
    ]);
  } catch (error) {
    log.error("form submission stored but its run could not be queued yet", {
      projectId: options.projectId,
      automationId: options.automationId,
      submissionId: submission.id,
      error,
    });
    return false;
  }

  try {
    await store.updateFirst(FORM_SUBMISSIONS_COLLECTION, [{ field: "id", op: "eq", value: submission.id }], { queued: true });
  } catch (error) {
    // The run is queued; only the marker is stale, and queueing again is a no-op while the job is known.
    log.warn("form submission queued but not marked as queued", { projectId: options.projectId, submissionId: submission.id, error });
  }
  return true;
}
