import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KvLogger, KvPubSub } from "@/lib/kv/kv";
import { recordingLogger, waitFor, type KvTestBackend } from "@/lib/kv/testing/kv-test-backends";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pub/sub contract, for backends that offer pub/sub (memory, redis). */
export function describePubSubContract(backend: KvTestBackend): void {
  describe(`pub/sub contract (${backend.kind})`, () => {
    beforeAll(() => backend.setup());
    afterAll(() => backend.teardown());

    function newPubSub(keyPrefix = backend.uniquePrefix(), logger?: KvLogger): KvPubSub {
      const pubsub = backend.create({ keyPrefix, logger }).pubsub;
      if (!pubsub) throw new Error(`${backend.kind} has no pub/sub`);
      return pubsub;
    }

    it("delivers a published message to a subscriber, unchanged", async () => {
      const pubsub = newPubSub();
      const received: string[] = [];
      await pubsub.subscribe("invalidate", (message) => received.push(message));
      const message = JSON.stringify({ projectId: "prj_1", version: 7, note: "✓ ünïcode" });
      await pubsub.publish("invalidate", message);
      await waitFor(() => received.length === 1, "the message");
      expect(received).toEqual([message]);
    });

    it("calls every handler of a channel, and stops calling a removed one", async () => {
      const pubsub = newPubSub();
      const kept: string[] = [];
      const removed: string[] = [];
      await pubsub.subscribe("changes", (message) => kept.push(message));
      const unsubscribe = await pubsub.subscribe("changes", (message) => removed.push(message));
      await pubsub.publish("changes", "one");
      await waitFor(() => kept.length === 1 && removed.length === 1, "both handlers");
      await unsubscribe();
      await pubsub.publish("changes", "two");
      await waitFor(() => kept.length === 2, "the kept handler");
      expect(kept).toEqual(["one", "two"]);
      expect(removed).toEqual(["one"]);
    });

    it("keeps channels apart", async () => {
      const pubsub = newPubSub();
      const onA: string[] = [];
      const onB: string[] = [];
      await pubsub.subscribe("a", (message) => onA.push(message));
      await pubsub.subscribe("b", (message) => onB.push(message));
      await pubsub.publish("a", "for a");
      await pubsub.publish("b", "for b");
      await waitFor(() => onA.length === 1 && onB.length === 1, "one message per channel");
      await sleep(50);
      expect(onA).toEqual(["for a"]);
      expect(onB).toEqual(["for b"]);
    });

    it("survives a handler that throws, and logs it", async () => {
      const logger = recordingLogger();
      const pubsub = newPubSub(backend.uniquePrefix(), logger);
      const received: string[] = [];
      await pubsub.subscribe("fragile", () => {
        throw new Error("handler bug");
      });
      await pubsub.subscribe("fragile", (message) => received.push(message));
      await pubsub.publish("fragile", "still delivered");
      await waitFor(() => received.length === 1, "the second handler");
      expect(logger.messages.some((message) => message.includes("handler bug"))).toBe(true);
    });

    if (backend.sharedAcrossInstances) {
      it("delivers across instances with the same prefix, and not across prefixes", async () => {
        const keyPrefix = backend.uniquePrefix();
        const publisher = newPubSub(keyPrefix);
        const subscriber = newPubSub(keyPrefix);
        const stranger = newPubSub();
        const received: string[] = [];
        const strangerReceived: string[] = [];
        await subscriber.subscribe("endpoints", (message) => received.push(message));
        await stranger.subscribe("endpoints", (message) => strangerReceived.push(message));
        await publisher.publish("endpoints", "ep_1 changed");
        await waitFor(() => received.length === 1, "the cross-instance message");
        await sleep(100);
        expect(received).toEqual(["ep_1 changed"]);
        expect(strangerReceived).toEqual([]);
      });
    }
  });
}
