/**
 * Next calls register() once per server instance, however the app runs: under server/start.ts and
 * also under plain `next start` or a serverless host, where startAutomationWork never runs. It checks
 * the configuration first (lib/config.ts refuses the embedded backends on a serverless host, naming
 * the variable to set), says where rate limits read the client IP from, and hands the automation
 * queue its job runner (lib/automations/queue/automation-job-runner.ts), so that a write with an
 * automation can queue its run, and without a worker process run it after the answer, either way.
 * The runner is loaded when the first job runs: it reaches the whole flow engine.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getConfig }, { logClientIpSource }] = await Promise.all([import("@/lib/config"), import("@/lib/http/client-ip")]);
  // Throws a ConfigError naming the variable: the instance refuses to start rather than fail per request.
  getConfig();
  logClientIpSource();
  const { automationJobRunner, setAutomationJobRunner } = await import("@/lib/automations/queue/automation-job-runner");
  if (automationJobRunner()) return;
  setAutomationJobRunner(async (...args) => (await import("@/lib/automations/run-automation-job")).runAutomationJob(...args));
}
