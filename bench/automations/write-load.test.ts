import { describe, expect, it } from "vitest";
import { recordIdOfAnswer } from "./write-load";

describe("recordIdOfAnswer", () => {
  it("reads the id of the record answered as itself (the app, the reference)", () => {
    expect(recordIdOfAnswer({ id: "rec_01abc", n: 1 })).toBe("rec_01abc");
  });

  it("reads the id inside Directus' envelope, an integer key as its decimal string", () => {
    expect(recordIdOfAnswer({ data: { id: 42, n: 1 } })).toBe("42");
    expect(recordIdOfAnswer({ data: { id: "9b2f-uuid" } })).toBe("9b2f-uuid");
  });

  it("is null when the answer names no record", () => {
    for (const body of [null, {}, { id: "" }, { id: Number.NaN }, { data: null }, { data: { id: { nested: 1 } } }, "text"]) {
      expect(recordIdOfAnswer(body)).toBeNull();
    }
  });
});
