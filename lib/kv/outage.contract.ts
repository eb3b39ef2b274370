import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createKv } from "@/lib/kv/create-kv";
import type { CreateKvOptions, Kv } from "@/lib/kv/kv";
import { recordingLogger } from "@/lib/kv/testing/kv-test-backends";
import { findClosedPort, startSilentServer, startTcpForwarder } from "@/lib/kv/testing/unreachable-backends";

const TIMEOUT_MS = 300;
/** Generous slack over the timeout: the point is "answers, never hangs", not speed. */
const ANSWER_BOUND_MS = TIMEOUT_MS + 1500;

export interface OutageTarget {
  kind: "redis" | "upstash";
  /** Options for a client of a backend on 127.0.0.1:`port`, carrying `secret` (password or token). */
  optionsFor(port: number, secret: string): CreateKvOptions;
  /** For the recovery case: where a real backend of this kind listens (undefined: case skipped). */
  realBackend?: () => Promise<{ host: string; port: number; close(): Promise<void> }>;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

function countByArea(messages: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const message of messages) {
    const area = /^\[kv:\w+\] ([^:]+):/.exec(message)?.[1] ?? "unparsed";
    counts[area] = (counts[area] ?? 0) + 1;
  }
  return counts;
}

/**
 * The documented outage behaviour (kv.ts, README): with the backend refusing connections or
 * hanging, every call answers within the timeout with the documented fallback.
 */
export function describeOutageContract(target: OutageTarget): void {
  describe(`outage behaviour (${target.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    afterAll(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    function open(port: number, secret: string) {
      const logger = recordingLogger();
      const kv = createKv({ ...target.optionsFor(port, secret), timeoutMs: TIMEOUT_MS, logger });
      cleanups.push(() => kv.close());
      return { kv, logger };
    }

    async function refusingBackend(secret: string) {
      return open(await findClosedPort(), secret);
    }

    async function silentBackend(secret: string) {
      const server = await startSilentServer();
      cleanups.push(() => server.close());
      return open(server.port, secret);
    }

    async function expectDocumentedFallbacks(kv: Kv): Promise<void> {
      const allowRule = { limit: 10, windowSeconds: 60 };
      const open = await timed(() => kv.rateLimiter.limit("caller", allowRule));
      expect(open.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(open.value).toMatchObject({ success: true, limit: 10, retryAfterSeconds: 0, degraded: true });

      const closed = await kv.rateLimiter.limit("login:someone", { ...allowRule, whenUnavailable: "deny" });
      expect(closed).toMatchObject({ success: false, remaining: 0, degraded: true });
      expect(closed.retryAfterSeconds).toBeGreaterThanOrEqual(1);

      const answers = await timed(async () => ({
        get: await kv.cache.get("key"),
        getWithFallback: await kv.cache.get("key", { whenUnavailable: "last known" }),
        getMany: await kv.cache.getMany(["a", "b"]),
        set: await kv.cache.set("key", "value", 60),
        setIfAbsent: await kv.cache.setIfAbsent("lock", "me", 60),
        incr: await kv.cache.incr("version"),
        delete: await kv.cache.delete("key"),
        publish: await kv.pubsub?.publish("channel", "message"),
      }));
      expect(answers.ms).toBeLessThan(ANSWER_BOUND_MS * 8);
      expect(answers.value).toEqual({
        get: null,
        getWithFallback: "last known",
        getMany: [null, null],
        set: undefined,
        setIfAbsent: true,
        incr: null,
        delete: undefined,
        publish: undefined,
      });

      const ping = await timed(() => kv.ping());
      expect(ping.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(ping.value.ok).toBe(false);
    }

    function expectThrottledWarnings(messages: string[], secret: string): void {
      expect(messages.length).toBeGreaterThanOrEqual(1);
      for (const count of Object.values(countByArea(messages))) expect(count).toBe(1);
      for (const message of messages) expect(message).not.toContain(secret);
    }

    it("answers every call with the documented fallback when connections are refused", async () => {
      const secret = `secret-${Math.random().toString(36).slice(2)}`;
      const { kv, logger } = await refusingBackend(secret);
      await expectDocumentedFallbacks(kv);
      for (let i = 0; i < 20; i += 1) await kv.cache.get(`key:${i}`);
      expectThrottledWarnings(logger.messages, secret);
    });

    it("answers every call within the timeout when the backend accepts and never answers", async () => {
      const secret = `secret-${Math.random().toString(36).slice(2)}`;
      const { kv, logger } = await silentBackend(secret);
      const first = await timed(() => kv.cache.get("key"));
      expect(first.value).toBeNull();
      // The first call really waited for the timeout: nothing answered it earlier.
      expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.8);
      await expectDocumentedFallbacks(kv);
      expectThrottledWarnings(logger.messages, secret);
    });

    it("skips a failed backend during the cool-down instead of waiting on it for every call", async () => {
      const { kv } = await silentBackend("unused");
      await kv.cache.get("key");
      const during = await timed(() => kv.rateLimiter.limit("caller", { limit: 1, windowSeconds: 60 }));
      expect(during.value.degraded).toBe(true);
      expect(during.ms).toBeLessThan(TIMEOUT_MS);
    });

    const realBackend = target.realBackend;
    if (realBackend) {
      it("recovers when the backend comes back on the same address", async () => {
        const port = await findClosedPort();
        const logger = recordingLogger();
        const kv = createKv({ ...target.optionsFor(port, ""), timeoutMs: TIMEOUT_MS, cooldownMs: 100, logger });
        cleanups.push(() => kv.close());
        const rule = { limit: 2, windowSeconds: 3600 };
        expect((await kv.rateLimiter.limit("caller", rule)).degraded).toBe(true);

        const backend = await realBackend();
        cleanups.push(() => backend.close());
        const forwarder = await startTcpForwarder({ port, targetHost: backend.host, targetPort: backend.port });
        cleanups.push(() => forwarder.close());

        const deadline = performance.now() + 10_000;
        while (!(await kv.ping()).ok) {
          if (performance.now() > deadline) throw new Error("the backend did not come back within 10 s");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await kv.rateLimiter.limit("caller", rule)).toMatchObject({ success: true, remaining: 1 });
        expect((await kv.rateLimiter.limit("caller", rule)).degraded).toBeUndefined();
        await kv.cache.set("back", "yes", 60);
        expect(await kv.cache.get("back")).toBe("yes");
        await kv.cache.delete("back");
      });
    } else {
      it.skip(`recovers when the backend comes back (skipped: REDIS_URL is not set)`, () => undefined);
    }
  });
}
