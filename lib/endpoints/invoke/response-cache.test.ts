import { afterAll, describe, expect, it } from "vitest";
import { closeKv, getKv } from "@/lib/kv/get-kv";
import { produceOnMiss, readCachedResponse, responseCacheKey, storeCachedResponse, type CachedResponse } from "./response-cache";

afterAll(closeKv);

describe("cached responses", () => {
  it("store the body as it is after a head line, whatever the body holds", async () => {
    const key = responseCacheKey(`ep_${Date.now()}`, 1, "?q=1");
    const body = '{"text":"two\\nlines","raw":"a\nb"}\n\n';
    await storeCachedResponse(key, { status: 200, contentType: "application/json", headers: { "x-a": "1" }, body }, 60);
    expect(await readCachedResponse(key)).toEqual({ status: 200, contentType: "application/json", headers: { "x-a": "1" }, body });
  });

  it("read entries written whole as JSON, and treat unreadable ones as misses", async () => {
    const legacy = responseCacheKey(`ep_${Date.now()}`, 2, "");
    await getKv().cache.set(legacy, JSON.stringify({ status: 201, contentType: "text/plain", headers: {}, body: "hi" }), 60);
    expect(await readCachedResponse(legacy)).toEqual({ status: 201, contentType: "text/plain", headers: {}, body: "hi" });
    const broken = responseCacheKey(`ep_${Date.now()}`, 3, "");
    await getKv().cache.set(broken, "{not json\nbody", 60);
    expect(await readCachedResponse(broken)).toBeNull();
    expect(await readCachedResponse(responseCacheKey("ep_missing", 1, ""))).toBeNull();
  });
});

describe("producing an answer on a miss", () => {
  const entry: CachedResponse = { status: 200, contentType: "text/plain", headers: {}, body: "fresh" };

  it("runs the work once for callers that miss at the same time, and only the first leads", async () => {
    const key = responseCacheKey(`ep_${Date.now()}`, 1, "?together");
    let runs = 0;
    const produce = async () => {
      runs += 1;
      await storeCachedResponse(key, entry, 60);
      return "ran";
    };
    const calls = Array.from({ length: 5 }, () => produceOnMiss(key, produce, () => "reused"));
    expect(calls.map((call) => call.leader)).toEqual([true, false, false, false, false]);
    expect(await Promise.all(calls.map((call) => call.result))).toEqual(["ran", "ran", "ran", "ran", "ran"]);
    expect(runs).toBe(1);
  });

  it("reuses the entry a flight stored after the caller's own lookup missed", async () => {
    const key = responseCacheKey(`ep_${Date.now()}`, 1, "?late");
    // The late caller looks before the first flight has stored anything...
    expect(await readCachedResponse(key)).toBeNull();
    let runs = 0;
    const produce = async () => {
      runs += 1;
      await storeCachedResponse(key, entry, 60);
      return "ran";
    };
    await produceOnMiss(key, produce, () => "reused").result;
    // ...and arrives after that flight has stored its entry and left.
    const late = produceOnMiss(key, produce, (stored) => `reused ${stored.body}`);
    expect(late.leader).toBe(true);
    expect(await late.result).toBe("reused fresh");
    expect(runs).toBe(1);
  });
});
