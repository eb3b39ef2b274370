import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { createKv } from "@/lib/kv/create-kv";
import { swapKvForTests } from "@/lib/kv/get-kv";
import type { Kv } from "@/lib/kv/kv";
import { deleteKeysUnder, recordingLogger, waitFor } from "@/lib/kv/testing/kv-test-backends";
import { startSilentServer } from "@/lib/kv/testing/unreachable-backends";
import { bumpProjectGeneration, readProjectGeneration } from "./project-generation";

/** Makes `kv` the process's kv tier until the test ends. */
function swapInKv(kv: Kv, cleanups: Array<() => Promise<void>>): void {
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
    swapInKv(reachable, cleanups);
    const projectId = `project_${randomUUID()}`;
    for (let bump = 0; bump < 3; bump++) await reachable.cache.incr(`prj-gen:${projectId}`);
    expect(await readProjectGeneration(projectId)).toBe("3.0");

    // A Redis that accepts connections and never answers: every read times out.
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const logger = recordingLogger();
    swapInKv(createKv({ kind: "redis", url: `redis://127.0.0.1:${silent.port}`, keyPrefix, timeoutMs: 100, logger }), cleanups);

    expect(await readProjectGeneration(projectId)).toBe("3.0");
    expect(await readProjectGeneration(`project_${randomUUID()}`)).toBe("0.0");
    expect(logger.messages.some((message) => message.includes("cache"))).toBe(true);
  });

  it("reads an absent counter as 0 when the store answers, whatever was read before", async () => {
    const keyPrefix = `gen-${randomUUID()}:`;
    const first = createKv({ kind: "memory", keyPrefix });
    swapInKv(first, cleanups);
    const projectId = `project_${randomUUID()}`;
    await first.cache.incr(`prj-gen:${projectId}`);
    expect(await readProjectGeneration(projectId)).toBe("1.0");

    // A store that answers and no longer holds the counter (a Redis restarted empty).
    swapInKv(createKv({ kind: "memory", keyPrefix }), cleanups);
    expect(await readProjectGeneration(projectId)).toBe("0.0");
  });
});

const redisUrl = getConfig().REDIS_URL;

describe.skipIf(!redisUrl)("watched reads of the project generation (Redis pub/sub)", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** This process as one instance, and a second kv with the same prefix standing for another instance. */
  async function twoInstances() {
    const keyPrefix = `gen-${randomUUID()}:`;
    cleanups.push(() => deleteKeysUnder(redisUrl!, `${keyPrefix}*`));
    const here = createKv({ kind: "redis", url: redisUrl!, keyPrefix });
    swapInKv(here, cleanups);
    const elsewhere = createKv({ kind: "redis", url: redisUrl!, keyPrefix });
    cleanups.push(() => elsewhere.close());
    const projectId = `project_${randomUUID()}`;
    // The first watched read subscribes; reads begun once the subscription is confirmed are reused.
    await readProjectGeneration(projectId, { watched: true });
    await waitFor(() => here.pubsub!.listeningSince!("project-generation") !== null, "the bump subscription");
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("0.0");
    return { here, elsewhere, projectId, counterKey: `prj-gen:${projectId}` };
  }

  it("reuses a read until a bump's message comes, then reads the counter again", async () => {
    const { elsewhere, projectId, counterKey } = await twoInstances();
    // The counter moved without a message: a watched read keeps what it read, an unwatched one asks.
    await elsewhere.cache.incr(counterKey);
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("0.0");
    expect(await readProjectGeneration(projectId)).toBe("1.0");

    await elsewhere.cache.incr(counterKey);
    await elsewhere.pubsub!.publish("project-generation", projectId);
    // Once the message has been handled (a turn of I/O later), the next watched read asks the store.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("2.0");
  });

  it("asks again after a second even without a message", async () => {
    const { elsewhere, projectId, counterKey } = await twoInstances();
    await elsewhere.cache.incr(counterKey);
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("0.0");
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("1.0");
  });

  it("reads the counter on every call while the subscription is not listening", async () => {
    const { here, projectId, counterKey } = await twoInstances();
    const other = createKv({ kind: "redis", url: redisUrl!, keyPrefix: here.keyPrefix });
    cleanups.push(() => other.close());
    // A kv whose pub/sub never subscribed has nothing to listen with: swapped in, its watched reads ask.
    swapInKv(other, cleanups);
    await other.cache.incr(counterKey);
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("1.0");
    await other.cache.incr(counterKey);
    expect(await readProjectGeneration(projectId, { watched: true })).toBe("2.0");
  });

  it("announces this instance's bumps to the others", async () => {
    const { elsewhere, projectId } = await twoInstances();
    const messages: string[] = [];
    await elsewhere.pubsub!.subscribe("project-generation", (message) => messages.push(message));
    await bumpProjectGeneration(projectId);
    await waitFor(() => messages.length === 1, "the bump's message");
    expect(messages).toEqual([projectId]);
  });
});
