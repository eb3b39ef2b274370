import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis as UpstashRedis } from "@upstash/redis";
import { getConfig } from "@/lib/config";
import { deleteKeysUnder } from "@/lib/kv/testing/kv-test-backends";
import { startUpstashRestBridge, type UpstashRestBridge } from "@/lib/kv/testing/upstash-rest-bridge";

const redisUrl = getConfig().REDIS_URL;

if (!redisUrl) {
  describe("Upstash REST bridge (skipped: REDIS_URL is not set)", () => {
    it.skip("speaks the Upstash REST protocol over real Redis", () => undefined);
  });
} else {
  describe("Upstash REST bridge", () => {
    const prefix = `fp:test:${randomUUID()}:bridge:`;
    let bridge: UpstashRestBridge;

    beforeAll(async () => {
      bridge = await startUpstashRestBridge({ redisUrl });
    });
    afterAll(async () => {
      await bridge.close();
      await deleteKeysUnder(redisUrl, `${prefix}*`);
    });

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${bridge.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${bridge.token}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });

    it("refuses a missing or wrong token with 401", async () => {
      const missing = await fetch(bridge.url, { method: "POST", body: JSON.stringify(["ping"]) });
      expect(missing.status).toBe(401);
      const wrong = await post("/", ["ping"], { authorization: "Bearer nope" });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ error: "Unauthorized" });
    });

    it("answers {result}, base64-encoding strings only when asked", async () => {
      expect(await (await post("/", ["set", `${prefix}k`, "héllo"])).json()).toEqual({ result: "OK" });
      expect(await (await post("/", ["get", `${prefix}k`])).json()).toEqual({ result: "héllo" });
      expect(await (await post("/", ["get", `${prefix}k`], { "upstash-encoding": "base64" })).json()).toEqual({
        result: Buffer.from("héllo").toString("base64"),
      });
      expect(await (await post("/", ["get", `${prefix}none`], { "upstash-encoding": "base64" })).json()).toEqual({ result: null });
      expect(await (await post("/", ["incr", `${prefix}n`], { "upstash-encoding": "base64" })).json()).toEqual({ result: 1 });
    });

    it("answers a command error with 400 {error}", async () => {
      const response = await post("/", ["incr", `${prefix}k`]);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/^ERR /);
      expect((await post("/", ["subscribe", "channel"])).status).toBe(400);
    });

    it("runs /pipeline and /multi-exec with per-command results", async () => {
      const pipeline = await (
        await post("/pipeline", [
          ["set", `${prefix}p`, "5"],
          ["incr", `${prefix}p`],
          ["incr", `${prefix}k`],
        ])
      ).json();
      expect(pipeline[0]).toEqual({ result: "OK" });
      expect(pipeline[1]).toEqual({ result: 6 });
      expect(pipeline[2].error).toMatch(/^ERR /);
      expect(
        await (
          await post("/multi-exec", [
            ["incr", `${prefix}p`],
            ["get", `${prefix}p`],
          ])
        ).json(),
      ).toEqual([{ result: 7 }, { result: "7" }]);
    });

    it("accepts the allow-key-locking script flag, as Upstash does", async () => {
      const script = "#!lua flags=allow-key-locking\nreturn redis.call('INCR', KEYS[1])";
      expect(await (await post("/", ["eval", script, 1, `${prefix}script`])).json()).toEqual({ result: 1 });
    });

    it("serves the @upstash/redis client unchanged", async () => {
      const redis = new UpstashRedis({ url: bridge.url, token: bridge.token, enableTelemetry: false });
      await redis.hset(`${prefix}h`, { name: "flow", emoji: "🎉" });
      expect(await redis.hgetall(`${prefix}h`)).toEqual({ name: "flow", emoji: "🎉" });
      expect(await redis.get(`${prefix}missing`)).toBeNull();
      expect(await redis.mget(`${prefix}k`, `${prefix}missing`)).toEqual(["héllo", null]);
    });
  });
}
