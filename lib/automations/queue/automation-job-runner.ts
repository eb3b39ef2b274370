import type { AttemptOutcome, AutomationAttempt, AutomationRunnerOptions } from "./automation-attempt";
import type { AutomationJob } from "./automation-job";

/** Runs one attempt of a queued job: runAutomationJob (run-automation-job.ts). */
export type AutomationJobRunner = (job: AutomationJob, attempt: AutomationAttempt, signal: AbortSignal, options?: AutomationRunnerOptions) => Promise<AttemptOutcome>;

// Kept with the queue on globalThis (get-automation-queue.ts): dev reloads and Next's separate
// bundles find the runner the process set at start-up.
const holder = globalThis as typeof globalThis & { __automationJobRunner?: AutomationJobRunner };

/**
 * Sets what this process's queue worker runs jobs with; set once at start-up, before the queue is
 * first used (startAutomationWork in start-automation-work.ts; test/setup-env.ts in tests). The
 * runner reaches the flow engine and the records service, whose writes queue jobs: the queue takes
 * it from here instead of importing it, so that no module imports itself back through the other.
 */
export function setAutomationJobRunner(runner: AutomationJobRunner): void {
  holder.__automationJobRunner = runner;
}

/** The runner set at start-up, if any. */
export function automationJobRunner(): AutomationJobRunner | undefined {
  return holder.__automationJobRunner;
}
