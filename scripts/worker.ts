/**
 * `npm run worker`: a process that only works the automation queue (and queues schedules), for
 * deployments that scale workers apart from the app. Needs REDIS_URL: without it runs happen inside
 * the app process, and a separate worker would have nothing to work on. Projects on the built-in
 * database keep their data in an app process's data directory: their runs stay with the app's own
 * workers (every app instance works the queue unless AUTOMATION_WORKER=off).
 */
// First: what Next's request-scoped APIs need before any module that uses them loads.
import "@/server/async-local-storage";
import { getConfig } from "@/lib/config";
import { startAutomationWork } from "@/lib/automations/start-automation-work";
import { markDedicatedAutomationWorker } from "@/lib/automations/queue/get-automation-queue";
import { closePlatformDb, migratePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { closeKv } from "@/lib/kv/get-kv";

async function main(): Promise<void> {
  if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: "production" });
  const config = getConfig();
  if (!config.REDIS_URL) {
    console.error("npm run worker needs REDIS_URL: without Redis, automations run inside the app process (npm start).");
    process.exit(1);
  }
  if (config.AUTOMATION_WORKER === "off") {
    console.error("AUTOMATION_WORKER=off: this worker would not work the queue.");
    process.exit(1);
  }
  await migratePlatformDb();
  markDedicatedAutomationWorker();
  const stop = startAutomationWork();
  console.log("Flowpoint automation worker started");

  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await stop();
    await Promise.allSettled([closeAllRecordStores(), closeKv()]);
    await closePlatformDb();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
