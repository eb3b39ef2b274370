import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis as UpstashRedis, errors, type UpstashRequest } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { getConfig } from "@/lib/config";
import { KvUnavailableError } from "@/lib/kv/internal/backend-guard";
import { IoredisRequester } from "@/lib/kv/redis/ioredis-requester";
import { deleteKeysUnder, waitFor } from "@/lib/kv/testing/kv-test-backends";
import { findClosedPort } from "@/lib/kv/testing/unreachable-backends";

const redisUrl = getConfig().REDIS_URL;

/** Counts the round trips the client makes and keeps the command bodies. */
class CountingRequester extends IoredisRequester {
  readonly bodies: unknown[] = [];
  override async request<TResult = unknown>(req: UpstashRequest) {
    this.bodies.push(req.body);
    return super.request<TResult>(req);
  }
}

describe("IoredisRequester without a server", () => {
  it("fails at once, without queueing, while the connection is down", async () => {
    const client = new IORedis(`redis://127.0.0.1:${await findClosedPort()}`, { maxRetriesPerRequest: 0, retryStrategy: () => 1000 });
    client.on("error", () => undefined);
    try {
      await waitFor(() => client.status === "reconnecting", "the client to give up its first attempt");
      const requester = new IoredisRequester(client);
      await expect(requester.send(["GET", "k"])).rejects.toBeInstanceOf(KvUnavailableError);
      await expect(requester.request({ body: ["GET", "k"] })).rejects.toBeInstanceOf(KvUnavailableError);
    } finally {
      client.disconnect();
    }
  });
});

if (!redisUrl) {
  describe("IoredisRequester against Redis (skipped: REDIS_URL is not set)", () => {
    it.skip("runs @upstash/ratelimit and @upstash/redis over ioredis", () => undefined);
  });
} else {
  describe("IoredisRequester against Redis", () => {
    const prefix = `fp:test:${randomUUID()}:requester:`;
    let client: IORedis;
    let requester: CountingRequester;
    let redis: UpstashRedis;

    beforeAll(() => {
      client = new IORedis(redisUrl);
      requester = new CountingRequester(client);
      redis = new UpstashRedis(requester);
    });
    afterAll(async () => {
      await deleteKeysUnder(redisUrl, `${prefix}*`);
      client.disconnect();
    });

    it("runs the library's sliding window, whose script plain Redis refuses as shipped", async () => {
      const limiter = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(2, "60 s"), prefix: `${prefix}rl`, timeout: 0, enableTelemetry: false });
      const results = [await limiter.limit("a"), await limiter.limit("a"), await limiter.limit("a")];
      expect(results.map((result) => result.success)).toEqual([true, true, false]);

      const evalBody = requester.bodies.find((body) => Array.isArray(body) && body[0] === "eval") as string[] | undefined;
      const script = evalBody?.[1] ?? "";
      expect(script.startsWith("#!lua flags=allow-key-locking")).toBe(true);
      await expect(client.eval(script, 0)).rejects.toThrow(/shebang/i);
    });

    it("makes one round trip per limit() once the script is cached, also for a new rule", async () => {
      const first = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(100, "60 s"), prefix: `${prefix}hot`, timeout: 0, enableTelemetry: false });
      await first.limit("warm-up");
      const before = requester.bodies.length;
      for (let i = 0; i < 10; i += 1) await first.limit(`caller-${i}`);
      expect(requester.bodies.length - before).toBe(10);

      const second = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(7, "30 s"), prefix: `${prefix}other`, timeout: 0, enableTelemetry: false });
      const beforeSecond = requester.bodies.length;
      await second.limit("caller");
      expect(requester.bodies.length - beforeSecond).toBe(1);
    });

    it("answers nil as null (never undefined) and HGETALL in the REST array shape", async () => {
      expect(await redis.get(`${prefix}missing`)).toBeNull();
      expect(await redis.hgetall(`${prefix}missing-hash`)).toBeNull();
      await client.hset(`${prefix}hash`, { name: "flow", count: "3" });
      expect(await requester.request({ body: ["hgetall", `${prefix}hash`] })).toEqual({ result: ["name", "flow", "count", "3"] });
      expect(await redis.hgetall(`${prefix}hash`)).toEqual({ name: "flow", count: 3 });
    });

    it("answers error replies as {error}, which the client raises", async () => {
      await client.set(`${prefix}text`, "abc");
      const response = await requester.request({ body: ["incr", `${prefix}text`] });
      expect(response.error).toMatch(/^ERR /);
      await expect(redis.incr(`${prefix}text`)).rejects.toBeInstanceOf(errors.UpstashError);
    });

    it("runs pipelines and transactions with per-command results", async () => {
      const pipeline = redis.pipeline();
      pipeline.set(`${prefix}p`, "1");
      pipeline.incr(`${prefix}p`);
      pipeline.get(`${prefix}p-missing`);
      expect(await pipeline.exec()).toEqual(["OK", 2, null]);
      const transaction = redis.multi();
      transaction.incr(`${prefix}p`);
      transaction.incr(`${prefix}p`);
      expect(await transaction.exec()).toEqual([3, 4]);
      const failing = redis.pipeline();
      failing.incr(`${prefix}text`);
      await expect(failing.exec()).rejects.toThrow(/not an integer/);
    });
  });
}
