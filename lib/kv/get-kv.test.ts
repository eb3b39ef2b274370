import { afterEach, describe, expect, it } from "vitest";
import { getConfig, parseConfig } from "@/lib/config";
import { closeKv, getKv, kvOptionsFromConfig } from "@/lib/kv/get-kv";

describe("kvOptionsFromConfig", () => {
  it("picks redis for REDIS_URL, upstash for the REST URL and token, memory otherwise", () => {
    expect(kvOptionsFromConfig(parseConfig({ REDIS_URL: "redis://127.0.0.1:6379" }))).toEqual({ kind: "redis", url: "redis://127.0.0.1:6379" });
    expect(kvOptionsFromConfig(parseConfig({ UPSTASH_REDIS_REST_URL: "https://example.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" }))).toEqual({
      kind: "upstash",
      url: "https://example.upstash.io",
      token: "t",
    });
    expect(kvOptionsFromConfig(parseConfig({}))).toEqual({ kind: "memory" });
  });

  it("passes KV_KEY_PREFIX to every kind, so deployments sharing one Redis keep their keys apart", () => {
    expect(kvOptionsFromConfig(parseConfig({ REDIS_URL: "redis://127.0.0.1:6379", KV_KEY_PREFIX: "staging:" }))).toMatchObject({ kind: "redis", keyPrefix: "staging:" });
    expect(kvOptionsFromConfig(parseConfig({ KV_KEY_PREFIX: "e2e-1:" }))).toMatchObject({ kind: "memory", keyPrefix: "e2e-1:" });
    expect(() => parseConfig({ KV_KEY_PREFIX: "has space" })).toThrow(/KV_KEY_PREFIX/);
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
