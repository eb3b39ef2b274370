import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createKv } from "@/lib/kv/create-kv";
import { swapKvForTests } from "@/lib/kv/get-kv";
import type { Kv } from "@/lib/kv/kv";
import { recordingLogger } from "@/lib/kv/testing/kv-test-backends";
import { startSilentServer } from "@/lib/kv/testing/unreachable-backends";
import { readProjectGeneration } from "./project-generation";

/** Makes `kv` the process's kv tier until the test ends. */
function useKv(kv: Kv, cleanups: Array<() => Promise<void>>): void {
  const previous = swapKvForTests(kv);
  cleanups.push(async () => {
    swapKvForTests(previous);
    await kv.close();
  });
}

describe("project generation while the key-value store is unavailable", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("keeps the shared counter last read instead of falling back to 0, and 0 for a project never read", async () => {
    const keyPrefix = `gen-${randomUUID()}:`;
    const reachable = createKv({ kind: "memory", keyPrefix });
    useKv(reachable, cleanups);
    const projectId = `project_${randomUUID()}`;
    for (let bump = 0; bump < 3; bump++) await reachable.cache.incr(`prj-gen:${projectId}`);
    expect(await readProjectGeneration(projectId)).toBe("3.0");

    // A Redis that accepts connections and never answers: every read times out.
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const logger = recordingLogger();
    useKv(createKv({ kind: "redis", url: `redis://127.0.0.1:${silent.port}`, keyPrefix, timeoutMs: 100, logger }), cleanups);

    expect(await readProjectGeneration(projectId)).toBe("3.0");
    expect(await readProjectGeneration(`project_${randomUUID()}`)).toBe("0.0");
    expect(logger.messages.some((message) => message.includes("cache"))).toBe(true);
  });

  it("reads an absent counter as 0 when the store answers, whatever was read before", async () => {
    const keyPrefix = `gen-${randomUUID()}:`;
    const first = createKv({ kind: "memory", keyPrefix });
    useKv(first, cleanups);
    const projectId = `project_${randomUUID()}`;
    await first.cache.incr(`prj-gen:${projectId}`);
    expect(await readProjectGeneration(projectId)).toBe("1.0");

    // A store that answers and no longer holds the counter (a Redis restarted empty).
    useKv(createKv({ kind: "memory", keyPrefix }), cleanups);
    expect(await readProjectGeneration(projectId)).toBe("0.0");
  });
});
