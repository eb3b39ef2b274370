import { afterAll, describe, expect, it } from "vitest";
import { closeKv, getKv } from "@/lib/kv/get-kv";
import { readCachedResponse, responseCacheKey, storeCachedResponse } from "./response-cache";

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
