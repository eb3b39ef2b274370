import type { CreateKvOptions, Kv } from "@/lib/kv/kv";
import { createMemoryKv } from "@/lib/kv/memory/create-memory-kv";
import { createRedisKv } from "@/lib/kv/redis/create-redis-kv";
import { createUpstashKv } from "@/lib/kv/upstash/create-upstash-kv";

/** Builds a kv tier from explicit options (tests, benchmarks). The app uses getKv(). */
export function createKv(options: CreateKvOptions): Kv {
  switch (options.kind) {
    case "memory":
      return createMemoryKv(options);
    case "redis":
      return createRedisKv(options);
    case "upstash":
      return createUpstashKv(options);
  }
}
