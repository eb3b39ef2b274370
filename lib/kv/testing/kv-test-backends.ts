import { randomUUID } from "node:crypto";
import { Redis as IORedis } from "ioredis";
import { createKv } from "@/lib/kv/create-kv";
import type { Kv, KvKind, KvLogger } from "@/lib/kv/kv";
import { startUpstashRestBridge, type UpstashRestBridge } from "@/lib/kv/testing/upstash-rest-bridge";

export interface KvTestInstanceOptions {
  keyPrefix: string;
  logger?: KvLogger;
}

/** One backend as the contract suites see it. */
export interface KvTestBackend {
  kind: KvKind;
  /** Two instances built with the same prefix share data (separate connections, like two app processes). */
  sharedAcrossInstances: boolean;
  setup(): Promise<void>;
  /** Closes every instance made and removes the keys the run wrote. */
  teardown(): Promise<void>;
  create(options: KvTestInstanceOptions): Kv;
  /** A prefix no other test, file or parallel run uses. */
  uniquePrefix(): string;
}

function prefixFactory(runId: string): () => string {
  let counter = 0;
  return () => `fp:test:${runId}:${(counter += 1)}:`;
}

function trackInstances() {
  const made: Kv[] = [];
  return {
    add(kv: Kv): Kv {
      made.push(kv);
      return kv;
    },
    async closeAll(): Promise<void> {
      await Promise.all(made.splice(0).map((kv) => kv.close()));
    },
  };
}

export async function deleteKeysUnder(redisUrl: string, pattern: string): Promise<void> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

export function memoryTestBackend(): KvTestBackend {
  const instances = trackInstances();
  return {
    kind: "memory",
    sharedAcrossInstances: false,
    setup: async () => undefined,
    teardown: () => instances.closeAll(),
    create: ({ keyPrefix, logger }) => instances.add(createKv({ kind: "memory", keyPrefix, logger })),
    uniquePrefix: prefixFactory(randomUUID()),
  };
}

export function redisTestBackend(redisUrl: string): KvTestBackend {
  const runId = randomUUID();
  const instances = trackInstances();
  return {
    kind: "redis",
    sharedAcrossInstances: true,
    setup: async () => undefined,
    teardown: async () => {
      await instances.closeAll();
      await deleteKeysUnder(redisUrl, `fp:test:${runId}:*`);
    },
    create: ({ keyPrefix, logger }) => instances.add(createKv({ kind: "redis", url: redisUrl, keyPrefix, logger })),
    uniquePrefix: prefixFactory(runId),
  };
}

/** Upstash through the loopback REST bridge to the real Redis at `redisUrl`. */
export function upstashTestBackend(redisUrl: string): KvTestBackend {
  const runId = randomUUID();
  const instances = trackInstances();
  let bridge: UpstashRestBridge | undefined;
  return {
    kind: "upstash",
    sharedAcrossInstances: true,
    setup: async () => {
      bridge = await startUpstashRestBridge({ redisUrl });
    },
    teardown: async () => {
      await instances.closeAll();
      await bridge?.close();
      await deleteKeysUnder(redisUrl, `fp:test:${runId}:*`);
    },
    create: ({ keyPrefix, logger }) => {
      if (!bridge) throw new Error("upstashTestBackend.setup() was not awaited");
      return instances.add(createKv({ kind: "upstash", url: bridge.url, token: bridge.token, keyPrefix, logger }));
    },
    uniquePrefix: prefixFactory(runId),
  };
}

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Collects warnings instead of printing them. */
export function recordingLogger(): KvLogger & { messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (message: string) => void messages.push(message) };
}
