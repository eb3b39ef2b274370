import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { MAX_DEPTH, isStorableValue, normalizeDocument } from "./normalize-document";

function issuesOf(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("validation_failed");
    return (error as AppError).issues ?? [];
  }
  throw new Error("expected validation_failed");
}

describe("normalizeDocument", () => {
  it("copies JSON values, turns Dates into ISO text and drops undefined members", () => {
    const input = { a: 1, b: "x", c: [1, undefined, { d: new Date("2024-01-02T03:04:05.006Z") }], e: undefined, f: null, g: { h: true } };
    const output = normalizeDocument(input);
    expect(output).toEqual({ a: 1, b: "x", c: [1, null, { d: "2024-01-02T03:04:05.006Z" }], f: null, g: { h: true } });
    expect("e" in output).toBe(false);
    expect(output.g).not.toBe(input.g);
  });

  it("refuses $-prefixed, dotted, empty and NUL keys at any depth, naming each", () => {
    expect(issuesOf(() => normalizeDocument({ $set: 1, ok: { "a.b": 1, list: [{ $gt: 1 }, { "": 2 }], "x\u0000": 3 } }))).toEqual([
      { path: "$set", message: 'field names cannot start with "$"' },
      { path: "ok.a.b", message: 'field names cannot contain "."' },
      { path: "ok.list.0.$gt", message: 'field names cannot start with "$"' },
      { path: "ok.list.1.", message: "field names cannot be empty" },
      { path: "ok.x\u0000", message: "field names cannot contain the NUL character" },
    ]);
    expect(normalizeDocument({ a$: 1, mid$dle: { _x: 2 } })).toEqual({ a$: 1, mid$dle: { _x: 2 } });
  });

  it("refuses values that are not JSON", () => {
    class Custom {}
    expect(
      issuesOf(() => normalizeDocument({ a: Number.NaN, b: Infinity, c: "x\u0000", d: () => 1, e: Symbol("s"), f: BigInt(2), g: new Custom(), h: new Date("nope") })).map(
        (issue) => issue.path,
      ),
    ).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
  });

  it("refuses text and keys holding unpaired UTF-16 surrogates (jsonb refuses them), keeping pairs", () => {
    expect(issuesOf(() => normalizeDocument({ a: "x\ud800", b: "\udc00y", c: { "k\ud83d": 1 } }))).toEqual([
      { path: "a", message: "text cannot contain unpaired UTF-16 surrogates" },
      { path: "b", message: "text cannot contain unpaired UTF-16 surrogates" },
      { path: "c.k\ud83d", message: "field names cannot contain unpaired UTF-16 surrogates" },
    ]);
    expect(normalizeDocument({ emoji: "a\ud83d\ude00b", "\ud83d\ude00": 1 })).toEqual({ emoji: "a😀b", "😀": 1 });
  });

  it("refuses a top level that is not a plain object", () => {
    for (const value of [null, [], "x", 1, new Date(), new Map()]) {
      expect(issuesOf(() => normalizeDocument(value))).toEqual([{ path: "", message: "must be a JSON object" }]);
    }
  });

  it("refuses nesting deeper than MAX_DEPTH (and so cycles)", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let n = 0; n < MAX_DEPTH; n += 1) deep = { deep };
    expect(issuesOf(() => normalizeDocument(deep))[0]?.message).toMatch(/nested more than/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(issuesOf(() => normalizeDocument(cycle))[0]?.message).toMatch(/nested more than/);
    let fine: Record<string, unknown> = { leaf: 1 };
    for (let n = 0; n < MAX_DEPTH - 2; n += 1) fine = { fine };
    expect(() => normalizeDocument(fine)).not.toThrow();
  });

  it("stops collecting after 20 issues", () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, n) => [`$k${n}`, n]));
    expect(issuesOf(() => normalizeDocument(many))).toHaveLength(20);
  });
});

describe("isStorableValue", () => {
  it("is false when any key anywhere breaks the write rules, or text holds NUL", () => {
    expect(isStorableValue({ a: [1, { b: "c" }] })).toBe(true);
    expect(isStorableValue("plain")).toBe(true);
    expect(isStorableValue(null)).toBe(true);
    expect(isStorableValue({ $ne: null })).toBe(false);
    expect(isStorableValue([{ ok: { "a.b": 1 } }])).toBe(false);
    expect(isStorableValue("nul\u0000")).toBe(false);
    expect(isStorableValue({ "": 1 })).toBe(false);
    expect(isStorableValue("lone\ud800")).toBe(false);
    expect(isStorableValue({ "k\udc00": 1 })).toBe(false);
    expect(isStorableValue("pair\ud83d\ude00")).toBe(true);
  });
});
