import { describe, expect, it } from "vitest";
import { checkFieldValue, copyJsonValue, isForbiddenKey, normalizeDateTime, type LeafFieldDefinition } from "./check-field-value";

const coerce = { coerce: true };
const strict = { coerce: false };
const value = (field: LeafFieldDefinition, input: unknown, options = coerce) => {
  const result = checkFieldValue(field, input, options);
  return result.ok ? { value: result.value } : { error: result.message };
};

describe("normalizeDateTime", () => {
  it.each([
    ["2025-01-31T12:00:00Z", "2025-01-31T12:00:00.000Z"],
    ["2025-01-31T12:00Z", "2025-01-31T12:00:00.000Z"],
    ["2025-01-31T12:00:00.5Z", "2025-01-31T12:00:00.500Z"],
    ["2025-01-31T12:00:00.123456789Z", "2025-01-31T12:00:00.123Z"],
    ["2025-01-31T12:00:00+02:00", "2025-01-31T10:00:00.000Z"],
    ["2025-01-31T01:00:00+02:30", "2025-01-30T22:30:00.000Z"],
    ["2025-01-31T23:00:00-05:00", "2025-02-01T04:00:00.000Z"],
    ["2025-01-31", "2025-01-31T00:00:00.000Z"],
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
    ["0001-01-01", "0001-01-01T00:00:00.000Z"],
  ])("reads %s as %s", (input, expected) => {
    expect(normalizeDateTime(input)).toBe(expected);
  });

  it.each([
    "2025-01-31T12:00:00", // no zone: whose local time?
    "2023-02-29",
    "2025-02-30",
    "2025-13-01",
    "2025-00-10",
    "2025-01-32",
    "2025-01-31T24:00:00Z",
    "2025-01-31T12:60:00Z",
    "2025-01-31T12:00:60Z",
    "2025-01-31T12:00:00+24:00",
    "2025-01-31 12:00:00Z",
    "31/01/2025",
    "1738324800000",
    "2025-1-31",
    "",
    "now",
  ])("refuses %j", (input) => {
    expect(normalizeDateTime(input)).toBeNull();
  });
});

describe("checkFieldValue: text types", () => {
  const string = { name: "s", type: "string" } as const;

  it("accepts strings and refuses other types without coercion", () => {
    expect(value(string, "hello")).toEqual({ value: "hello" });
    expect(value(string, 42)).toEqual({ error: "must be a string" });
    expect(value(string, true)).toEqual({ error: "must be a string" });
    expect(value(string, { $gt: "" })).toEqual({ error: "must be a string" });
    expect(value(string, ["a"])).toEqual({ error: "must be a string" });
  });

  it("enforces length bounds (in characters) and the hard limits", () => {
    const bounded = { ...string, min: 2, max: 4 };
    expect(value(bounded, "a")).toEqual({ error: "must be at least 2 characters" });
    expect(value(bounded, "abcde")).toEqual({ error: "must be at most 4 characters" });
    expect(value(bounded, "abcd")).toEqual({ value: "abcd" });
    expect(value(string, "x".repeat(2001))).toEqual({ error: "must be at most 2000 characters" });
    expect(value({ name: "t", type: "text" }, "x".repeat(2001))).toEqual({ value: "x".repeat(2001) });
    expect(value({ name: "t", type: "text" }, "x".repeat(1_000_001))).toEqual({ error: "must be at most 1000000 characters" });
  });

  it("limits values of unique text fields to 500 characters (index entries are bounded)", () => {
    expect(value({ ...string, unique: true }, "x".repeat(500))).toEqual({ value: "x".repeat(500) });
    expect(value({ ...string, unique: true }, "x".repeat(501))).toEqual({ error: "must be at most 500 characters" });
    expect(value({ name: "t", type: "text", unique: true }, "x".repeat(501))).toEqual({ error: "must be at most 500 characters" });
    expect(value({ name: "u", type: "url", unique: true }, `https://example.com/${"x".repeat(490)}`)).toEqual({ error: "must be at most 500 characters" });
  });

  it("refuses the NUL character (PostgreSQL cannot store it)", () => {
    expect(value(string, "a\u0000b")).toEqual({ error: "must not contain the NUL character" });
  });

  it("tests patterns (unanchored, Unicode)", () => {
    const code = { ...string, pattern: "^[A-Z]{3}-\\d+$" };
    expect(value(code, "ABC-12")).toEqual({ value: "ABC-12" });
    expect(value(code, "abc-12")).toEqual({ error: "must match the pattern ^[A-Z]{3}-\\d+$" });
    expect(value({ ...string, pattern: "b" }, "abc")).toEqual({ value: "abc" });
    expect(value({ ...string, pattern: "^\\p{L}+$" }, "Ünïcødé")).toEqual({ value: "Ünïcødé" });
  });
});

describe("checkFieldValue: numbers", () => {
  const number = { name: "n", type: "number" } as const;
  const integer = { name: "i", type: "integer" } as const;

  it.each([
    ["42", 42],
    ["-1.5", -1.5],
    ["0", 0],
    ["0.25", 0.25],
    ["1e3", 1000],
    ["-2E-2", -0.02],
  ])("coerces the numeric text %j", (input, expected) => {
    expect(value(number, input)).toEqual({ value: expected });
  });

  it.each(["", " 42", "42 ", "1,5", "0x10", "007", "+5", ".5", "5.", "Infinity", "NaN", "1e999", "12abc", "--1"])("refuses the ambiguous text %j", (input) => {
    expect(value(number, input)).toEqual({ error: "must be a number" });
  });

  it("refuses numeric text when not coercing, and non-finite numbers", () => {
    expect(value(number, "42", strict)).toEqual({ error: "must be a number" });
    expect(value(number, Number.NaN)).toEqual({ error: "must be a number" });
    expect(value(number, Number.POSITIVE_INFINITY)).toEqual({ error: "must be a number" });
    expect(value(number, true)).toEqual({ error: "must be a number" });
    expect(value(number, null)).toEqual({ error: "must be a number" });
  });

  it("stores -0 as 0", () => {
    expect(value(number, -0)).toEqual({ value: 0 });
    expect(Object.is((checkFieldValue(number, -0, coerce) as { value: number }).value, 0)).toBe(true);
  });

  it("checks integers, from numbers and from integer text only", () => {
    expect(value(integer, 7)).toEqual({ value: 7 });
    expect(value(integer, 7.0)).toEqual({ value: 7 });
    expect(value(integer, "7")).toEqual({ value: 7 });
    expect(value(integer, "-12")).toEqual({ value: -12 });
    expect(value(integer, 7.5)).toEqual({ error: "must be an integer" });
    expect(value(integer, "7.0")).toEqual({ error: "must be an integer" });
    expect(value(integer, "1e3")).toEqual({ error: "must be an integer" });
    expect(value(integer, 2 ** 53)).toEqual({ error: "must be an integer" });
    expect(value(integer, "7", strict)).toEqual({ error: "must be an integer" });
  });

  it("enforces value bounds", () => {
    expect(value({ ...number, min: 0, max: 1 }, -0.1)).toEqual({ error: "must be at least 0" });
    expect(value({ ...number, min: 0, max: 1 }, "1.5")).toEqual({ error: "must be at most 1" });
    expect(value({ ...integer, min: 1, max: 3 }, 3)).toEqual({ value: 3 });
  });
});

describe("checkFieldValue: booleans, enums, dates, emails, urls, ids", () => {
  it("reads booleans, and only exact true/false text when coercing", () => {
    const boolean = { name: "b", type: "boolean" } as const;
    expect(value(boolean, true)).toEqual({ value: true });
    expect(value(boolean, "false")).toEqual({ value: false });
    expect(value(boolean, "true", strict)).toEqual({ error: "must be true or false" });
    for (const input of ["True", "1", "yes", "on", 1, 0, ""]) expect(value(boolean, input)).toEqual({ error: "must be true or false" });
  });

  it("accepts only listed enum values, exactly", () => {
    const status: LeafFieldDefinition = { name: "status", type: "enum", values: ["open", "closed"] };
    expect(value(status, "open")).toEqual({ value: "open" });
    expect(value(status, "Open")).toEqual({ error: 'must be one of "open", "closed"' });
    expect(value(status, 1)).toEqual({ error: 'must be one of "open", "closed"' });
  });

  it("normalizes date-times and enforces bounds", () => {
    const when = { name: "when", type: "datetime", min: "2024-01-01", max: "2024-12-31T23:59:59Z" } as const;
    expect(value(when, "2024-06-01T12:00:00+02:00")).toEqual({ value: "2024-06-01T10:00:00.000Z" });
    expect(value(when, "2023-12-31T23:00:00-02:00")).toEqual({ value: "2024-01-01T01:00:00.000Z" });
    expect(value(when, "2023-12-31")).toEqual({ error: "must not be before 2024-01-01T00:00:00.000Z" });
    expect(value(when, "2025-01-01")).toEqual({ error: "must not be after 2024-12-31T23:59:59.000Z" });
    expect(value(when, 1717236000000)).toEqual({ error: expect.stringContaining("ISO 8601") });
  });

  it("trims and lowercases emails", () => {
    const email = { name: "email", type: "email" } as const;
    expect(value(email, "  Ada.Lovelace+News@Example.COM ")).toEqual({ value: "ada.lovelace+news@example.com" });
    for (const input of ["ada", "ada@", "@example.com", "ada@example", "ada @example.com", "ada@exa_mple.com", "a@b@c.com", 42]) {
      expect(value(email, input)).toEqual({ error: "must be an email address" });
    }
    expect(value(email, `${"a".repeat(250)}@b.co`)).toEqual({ error: "must be an email address" });
    expect(value({ ...email, max: 10 }, "abcdef@example.com")).toEqual({ error: "must be at most 10 characters" });
  });

  it("accepts only http and https URLs", () => {
    const url = { name: "url", type: "url" } as const;
    expect(value(url, " https://example.com/a?b=c#d ")).toEqual({ value: "https://example.com/a?b=c#d" });
    expect(value(url, "http://localhost:3000")).toEqual({ value: "http://localhost:3000" });
    for (const input of ["javascript:alert(1)", "data:text/html,<script>", "ftp://example.com", "example.com", "//example.com", "https://", 7]) {
      expect(value(url, input)).toEqual({ error: "must be an http or https URL" });
    }
  });

  it("checks record and file ids", () => {
    const relation = { name: "author", type: "relation", target: "authors" } as const;
    expect(value(relation, "rec_01hzy")).toEqual({ value: "rec_01hzy" });
    for (const input of ["", "a b", "a/b", "a.b", "x".repeat(129), 5, { id: "rec_1" }]) expect(value(relation, input)).toEqual({ error: expect.stringContaining("a record id") });
    expect(value({ name: "file", type: "file" }, "fil_1")).toEqual({ value: "fil_1" });
    expect(value({ name: "file", type: "file" }, 1)).toEqual({ error: expect.stringContaining("a file id") });
  });
});

describe("JSON values", () => {
  it("copies plain JSON", () => {
    const input = { a: [1, "two", null, { b: true }] };
    const result = copyJsonValue(input, 32);
    expect(result).toEqual({ ok: true, value: input });
    expect((result as { value: unknown }).value).not.toBe(input);
  });

  it("refuses operator-like and path-like keys at any depth", () => {
    expect(copyJsonValue({ a: { b: [{ $set: 1 }] } }, 32)).toEqual({ ok: false, path: "a.b.0.$set", message: expect.stringContaining('"$"') });
    expect(copyJsonValue({ "a.b": 1 }, 32)).toMatchObject({ ok: false, path: "a.b" });
    expect(copyJsonValue(JSON.parse('{"__proto__": {"polluted": true}}'), 32)).toMatchObject({ ok: false, path: "__proto__" });
    expect(copyJsonValue({ "": 1 }, 32)).toMatchObject({ ok: false });
  });

  it("refuses non-JSON values and excessive depth", () => {
    expect(copyJsonValue(new Date(), 32)).toMatchObject({ ok: false });
    expect(copyJsonValue({ a: Number.NaN }, 32)).toMatchObject({ ok: false, path: "a", message: "must be a finite number" });
    expect(copyJsonValue({ f: () => 1 }, 32)).toMatchObject({ ok: false, path: "f" });
    expect(copyJsonValue({ s: "a\u0000" }, 32)).toMatchObject({ ok: false, path: "s" });
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(copyJsonValue(deep, 32)).toMatchObject({ ok: false, message: "must not nest deeper than 32 levels" });
  });

  it("drops undefined members like JSON does", () => {
    expect(copyJsonValue({ a: 1, b: undefined }, 32)).toEqual({ ok: true, value: { a: 1 } });
  });

  it("names forbidden keys", () => {
    expect(["$where", "a.b", "__proto__", "", "a\u0000"].every(isForbiddenKey)).toBe(true);
    expect(["a", "_id", "a$", "a_b"].some(isForbiddenKey)).toBe(false);
  });
});
