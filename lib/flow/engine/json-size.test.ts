import { describe, expect, it } from "vitest";
import { jsonSizeWithin } from "./json-size";

describe("jsonSizeWithin", () => {
  it.each([
    ["null", null],
    ["numbers", [0, -1.5, 1e21, 123456789]],
    ["booleans", { a: true, b: false }],
    ["strings with escapes", ["plain", 'quote " and \\ backslash', "line\nbreak\ttab\u0001", "unicode é ✓"]],
    ["nested objects", { a: { b: [1, { c: "d" }], e: {} }, f: [] }],
    ["undefined members", { a: undefined, b: 1, c: [undefined] }],
    ["dates", { at: new Date(0) }],
  ])("matches JSON.stringify for %s", (_label, value) => {
    expect(jsonSizeWithin(value, 1_000_000)).toBe(JSON.stringify(value).length);
  });

  it("gives up past the maximum, even for shared graphs that would serialise to gigabytes", () => {
    let value: unknown = "x".repeat(100);
    for (let i = 0; i < 40; i++) value = [value, value];
    expect(jsonSizeWithin(value, 10_000)).toBe(10_001);
  });

  it("handles deep nesting without recursion", () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(jsonSizeWithin(value, 1_000_000)).toBe(200_001);
  });
});
