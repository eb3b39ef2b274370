import { getConfig } from "@/lib/config";
import { getPlatformDb, getPlatformDbKind } from "@/lib/platform-db/client";
import { sql } from "drizzle-orm";
import { getKv } from "@/lib/kv/get-kv";
import { getPlatformMailTransport } from "@/lib/mail/get-platform-mail-transport";
import { describeClientIpSource, type ClientIpSource } from "@/lib/http/client-ip";

export interface BackendHealth {
  kind: string;
  state: "up" | "down";
  latencyMs?: number;
}

export interface HealthReport {
  status: "ok" | "degraded";
  embedded: boolean;
  backends: Record<string, BackendHealth>;
  /** Where automation runs wait, and whether they survive a restart. */
  automations: { queue: "bullmq" | "in-process"; durable: boolean; note?: string };
  /** Where rate limits read the client IP; `warning` when there is no trustworthy one. */
  clientIp: ClientIpSource;
}

async function probe(kind: string, check: () => Promise<unknown>, timeoutMs = 2_000): Promise<BackendHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
      }),
    ]);
    return { kind, state: "up", latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { kind, state: "down" };
  } finally {
    clearTimeout(timer);
  }
}

/** Which backends are in use and whether they answer. Names kinds only: never URLs or secrets. */
export async function getHealth(): Promise<HealthReport> {
  const config = getConfig();
  const platformKind = await getPlatformDbKind().catch(() => (config.DATABASE_URL ? "postgres" : "pglite"));
  const kv = getKv();
  const [platformDb, keyValue] = await Promise.all([
    probe(platformKind, async () => (await getPlatformDb()).execute(sql`select 1`)),
    probe(kv.kind, async () => {
      if (!(await kv.ping()).ok) throw new Error("no answer");
    }),
  ]);
  // Mail is not probed: connecting to a mail server on every health check would be rude to it.
  const backends: Record<string, BackendHealth> = { platformDb, kv: keyValue, mail: { kind: getPlatformMailTransport().kind, state: "up" } };
  const status = Object.values(backends).every((backend) => backend.state === "up") ? "ok" : "degraded";
  // As get-automation-queue.ts chooses; read from the configuration, so a health check opens no queue.
  const automations: HealthReport["automations"] = config.REDIS_URL
    ? { queue: "bullmq", durable: true }
    : config.serverless
      ? {
          queue: "in-process",
          durable: false,
          note: "automation runs happen in the function that queued them, after its answer (Next's after()): a run the platform cuts off at the function's maximum duration is lost, and schedules do not fire (set REDIS_URL and run npm run worker for a durable queue and schedules)",
        }
      : { queue: "in-process", durable: false, note: "automation runs wait in this process: a restart drops runs not yet started (set REDIS_URL for a durable queue)" };
  return { status, embedded: config.embedded, backends, automations, clientIp: describeClientIpSource(config) };
}
