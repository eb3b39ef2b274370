import { describe, expect, it } from "vitest";
import { orderRecordKeys } from "./order-stored-records";

describe("orderRecordKeys", () => {
  it("puts id first and the timestamps last, the caller's fields between in their stored order", () => {
    const stored = JSON.parse('{"updatedAt": "u", "b": 2, "id": 7, "a": {"x": 1}, "createdAt": "c"}') as Record<string, unknown>;
    const record = orderRecordKeys(stored);
    expect(Object.keys(record)).toEqual(["id", "b", "a", "createdAt", "updatedAt"]);
    expect(record).toEqual({ id: "7", b: 2, a: { x: 1 }, createdAt: "c", updatedAt: "u" });
  });

  it("keeps a stored __proto__ key as a field, not as the copy's prototype", () => {
    const stored = JSON.parse('{"id": "r1", "__proto__": {"polluted": true}, "createdAt": "c", "updatedAt": "u"}') as Record<string, unknown>;
    const record = orderRecordKeys(stored);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(["id", "__proto__", "createdAt", "updatedAt"]);
    expect((record as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(record)).toBe('{"id":"r1","__proto__":{"polluted":true},"createdAt":"c","updatedAt":"u"}');
  });
});
