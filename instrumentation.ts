/**
 * Next calls register() once per server instance, however the app runs: under server/start.ts and
 * also under plain `next start` or a serverless host, where startAutomationWork never runs. It hands
 * the automation queue its job runner (lib/automations/queue/automation-job-runner.ts), so that a
 * write with an automation can queue its run, and in embedded mode run it, either way. The runner is
 * loaded when the first job runs: it reaches the whole flow engine.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { automationJobRunner, setAutomationJobRunner } = await import("@/lib/automations/queue/automation-job-runner");
  if (automationJobRunner()) return;
  setAutomationJobRunner(async (...args) => (await import("@/lib/automations/run-automation-job")).runAutomationJob(...args));
}
