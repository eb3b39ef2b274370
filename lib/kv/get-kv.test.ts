import { afterEach, describe, expect, it } from "vitest";
import { getConfig, parseConfig } from "@/lib/config";
import { closeKv, getKv, kvOptionsFromConfig } from "@/lib/kv/get-kv";

describe("kvOptionsFromConfig", () => {
  it("picks redis for REDIS_URL, upstash for the REST URL and token, memory otherwise", () => {
    expect(kvOptionsFromConfig(parseConfig({ REDIS_URL: "redis://127.0.0.1:6379" }))).toEqual({ kind: "redis", url: "redis://127.0.0.1:6379" });
    expect(
      kvOptionsFromConfig(parseConfig({ UPSTASH_REDIS_REST_URL: "https://example.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" })),
    ).toEqual({ kind: "upstash", url: "https://example.upstash.io", token: "t" });
    expect(kvOptionsFromConfig(parseConfig({}))).toEqual({ kind: "memory" });
  });
});

describe("getKv", () => {
  afterEach(() => closeKv());

  it("builds one instance per process, of the configured kind, until closed", async () => {
    const kv = getKv();
    expect(kv.kind).toBe(getConfig().kvBackend);
    expect(getKv()).toBe(kv);
    expect((await kv.ping()).ok).toBe(true);
    await closeKv();
    expect(getKv()).not.toBe(kv);
  });
});
