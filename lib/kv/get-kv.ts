import { getConfig, type AppConfig } from "@/lib/config";
import { createKv } from "@/lib/kv/create-kv";
import type { CreateKvOptions, Kv } from "@/lib/kv/kv";

/** The options the configuration selects: REDIS_URL → redis, UPSTASH_REDIS_REST_URL + token → upstash, else memory. */
export function kvOptionsFromConfig(config: AppConfig): CreateKvOptions {
  // Lets deployments (or test runs) that share one Redis keep their counters and cache apart.
  const keyPrefix = config.KV_KEY_PREFIX;
  if (config.kvBackend === "redis" && config.REDIS_URL) return { kind: "redis", url: config.REDIS_URL, keyPrefix };
  if (config.kvBackend === "upstash" && config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN) {
    return { kind: "upstash", url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN, keyPrefix };
  }
  return { kind: "memory", keyPrefix };
}

const PROCESS_KV = Symbol.for("flowpoint.kv");
type KvHolder = typeof globalThis & { [PROCESS_KV]?: Kv };

/**
 * The process's kv tier, built once from getConfig() and kept on globalThis (so Next.js module
 * reloads in development reuse the same connections).
 */
export function getKv(): Kv {
  const holder = globalThis as KvHolder;
  holder[PROCESS_KV] ??= createKv(kvOptionsFromConfig(getConfig()));
  return holder[PROCESS_KV];
}

/** Makes `kv` the process's kv tier (tests of code that calls getKv()); answers the one it replaces. */
export function swapKvForTests(kv: Kv | undefined): Kv | undefined {
  const holder = globalThis as KvHolder;
  const previous = holder[PROCESS_KV];
  holder[PROCESS_KV] = kv;
  return previous;
}

/** Closes the process's kv tier (shutdown, tests); the next getKv() builds a new one. */
export async function closeKv(): Promise<void> {
  const holder = globalThis as KvHolder;
  const kv = holder[PROCESS_KV];
  holder[PROCESS_KV] = undefined;
  await kv?.close();
}
