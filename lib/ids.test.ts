import { describe, expect, it } from "vitest";
import { hasPrefix, newId } from "./ids";

describe("ids", () => {
  it("are prefixed, unique and sort in creation order, also within one millisecond", () => {
    const ids = Array.from({ length: 2_000 }, () => newId("record"));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 10)) {
      expect(id).toMatch(/^rec_[0-9a-z]{26}$/);
      expect(hasPrefix(id, "record")).toBe(true);
    }
    expect(newId("execution").startsWith("exe_")).toBe(true);
  });
});
