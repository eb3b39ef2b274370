import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { emitRecordChange, onRecordChange, type RecordChangeEvent } from "./record-events";

const event: RecordChangeEvent = {
  type: "create",
  projectId: "prj_1",
  schema: "posts",
  record: { id: "rec_1", title: "x", createdAt: "2025-01-01T00:00:00.000Z", updatedAt: "2025-01-01T00:00:00.000Z" },
};

const unsubscribers: (() => void)[] = [];
afterEach(() => {
  while (unsubscribers.length) unsubscribers.pop()?.();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await closePlatformDb();
});

describe("record events", () => {
  it("delivers events to every subscriber in order until they unsubscribe", async () => {
    const seen: string[] = [];
    const stopA = onRecordChange((received) => void seen.push(`a:${received.record.id}`));
    unsubscribers.push(onRecordChange((received) => void seen.push(`b:${received.record.id}`)));
    await emitRecordChange(event);
    stopA();
    await emitRecordChange({ ...event, record: { ...event.record, id: "rec_2" } });
    expect(seen).toEqual(["a:rec_1", "b:rec_1", "b:rec_2"]);
  });

  it("treats the same handler subscribed twice as two subscriptions", async () => {
    const handler = vi.fn();
    const stopFirst = onRecordChange(handler);
    unsubscribers.push(onRecordChange(handler));
    await emitRecordChange(event);
    stopFirst();
    await emitRecordChange(event);
    expect(handler).toHaveBeenCalledTimes(3);
  });

  it("logs failing handlers and never throws to the writer", async () => {
    const errors = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const after = vi.fn();
    unsubscribers.push(
      onRecordChange(() => {
        throw new Error("sync failure");
      }),
    );
    unsubscribers.push(onRecordChange(() => Promise.reject(new Error("async failure"))));
    unsubscribers.push(onRecordChange(after));
    await expect(emitRecordChange(event)).resolves.toBeUndefined();
    expect(after).toHaveBeenCalledWith(event);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = errors.mock.calls.map(([line]) => String(line)).join("");
    expect(lines).toContain("sync failure");
    expect(lines).toContain("async failure");
    expect(lines).toContain("record change handler failed");
  });
});
