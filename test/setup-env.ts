import path from "node:path";
import { setAutomationJobRunner } from "@/lib/automations/queue/automation-job-runner";
import { resetConfigForTests } from "@/lib/config";
import { mongoSeedHosts } from "@/lib/records/mongodb/mongo-connect-guard";

// Each test worker gets its own embedded data directory: PGlite allows one process per directory.
process.env.DATA_DIR = path.resolve(".data", "test", `worker-${process.env.VITEST_POOL_ID ?? "0"}-${process.pid}`);

// Customer databases pass the outbound guard on every connection, and the test PostgreSQL server is on
// loopback: allow exactly that host:port, as an operator would for an internal database. Suites that
// test the refusal set OUTBOUND_ALLOWED_HOSTS themselves.
if (process.env.OUTBOUND_ALLOWED_HOSTS === undefined) {
  const allowed: string[] = [];
  try {
    if (process.env.DATABASE_URL) {
      const { hostname, port } = new URL(process.env.DATABASE_URL);
      allowed.push(`${hostname}:${port || 5432}`);
    }
  } catch {
    // An unparsable DATABASE_URL fails in the configuration check, with a clearer message.
  }
  // The optional MongoDB test server (record store contract suites), same reasoning.
  for (const { host, port } of process.env.MONGODB_URL ? mongoSeedHosts(process.env.MONGODB_URL) : []) {
    allowed.push(host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`);
  }
  if (allowed.length > 0) process.env.OUTBOUND_ALLOWED_HOSTS = allowed.join(",");
}
resetConfigForTests();

// Test files run in parallel processes against one Redis: each gets its own key space, so one
// file's automation worker never takes another file's jobs and rate limits never collide.
process.env.KV_KEY_PREFIX ??= `test-${process.pid}:`;
resetConfigForTests();

// The automation queue's worker runs jobs with the real runner, as startAutomationWork sets it in
// the app; loaded with the first job, since most test files never run one.
setAutomationJobRunner(async (...args) => (await import("@/lib/automations/run-automation-job")).runAutomationJob(...args));
