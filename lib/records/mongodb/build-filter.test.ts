import { describe, expect, it } from "vitest";
import { checkMatchQuery } from "../check-query";
import type { FieldCondition } from "../record-store";
import { MATCH_NOTHING, buildFilter, conditionFilter, escapeRegex } from "./build-filter";

const NOT_ARRAY = { $not: { $type: "array" } };
const SCALAR = ["string", "number", "bool"];

function one(condition: FieldCondition) {
  const [checked] = checkMatchQuery({ where: [condition] }).where;
  if (!checked) throw new Error("condition did not check");
  return conditionFilter(checked);
}

describe("MongoDB filter: typed conditions to a query document", () => {
  it("eq on a scalar uses $eq with the unique index's $type clause and excludes arrays", () => {
    expect(one({ field: "email", op: "eq", value: "a@x" })).toEqual({ email: { $eq: "a@x", $type: SCALAR, ...NOT_ARRAY } });
    expect(one({ field: "n", op: "eq", value: 5 })).toEqual({ n: { $eq: 5, $type: SCALAR, ...NOT_ARRAY } });
    expect(one({ field: "ok", op: "eq", value: false })).toEqual({ ok: { $eq: false, $type: SCALAR, ...NOT_ARRAY } });
  });

  it("eq null matches missing or null, not arrays holding null", () => {
    expect(one({ field: "v", op: "eq", value: null })).toEqual({ v: { $eq: null, ...NOT_ARRAY } });
  });

  it("eq on an object is a literal $eq; on an array an exact $expr comparison of a $literal", () => {
    expect(one({ field: "meta", op: "eq", value: { k: 1, list: [1, 2] } })).toEqual({ meta: { $eq: { k: 1, list: [1, 2] }, ...NOT_ARRAY } });
    expect(one({ field: "tags", op: "eq", value: ["$x", "y"] })).toEqual({ $expr: { $eq: ["$tags", { $literal: ["$x", "y"] }] } });
  });

  it("eq on id targets _id without array clauses", () => {
    expect(one({ field: "id", op: "eq", value: "rec_1" })).toEqual({ _id: { $eq: "rec_1" } });
    expect(one({ field: "id", op: "eq", value: 5 })).toEqual({ _id: { $eq: 5 } });
  });

  it("operator-like values are literals: a value that could never be stored matches nothing", () => {
    expect(one({ field: "role", op: "eq", value: { $ne: null } })).toEqual(MATCH_NOTHING);
    expect(one({ field: "role", op: "eq", value: { "a.b": 1 } })).toEqual(MATCH_NOTHING);
    expect(one({ field: "role", op: "eq", value: [{ nested: { $gt: "" } }] })).toEqual(MATCH_NOTHING);
    expect(one({ field: "role", op: "ne", value: { $ne: null } })).toEqual({});
    expect(one({ field: "role", op: "eq", value: "$ne" })).toEqual({ role: { $eq: "$ne", $type: SCALAR, ...NOT_ARRAY } });
    expect(MATCH_NOTHING).toEqual({ _id: { $exists: false } });
  });

  it("ne is the negation of eq", () => {
    expect(one({ field: "s", op: "ne", value: "open" })).toEqual({ $nor: [{ s: { $eq: "open", $type: SCALAR, ...NOT_ARRAY } }] });
    expect(one({ field: "s", op: "ne", value: null })).toEqual({ $nor: [{ s: { $eq: null, ...NOT_ARRAY } }] });
    expect(one({ field: "id", op: "ne", value: "rec_1" })).toEqual({ $nor: [{ _id: { $eq: "rec_1" } }] });
  });

  it("gt/gte/lt/lte pass numbers and text to the same operators, arrays excluded", () => {
    expect(one({ field: "n", op: "gt", value: 2 })).toEqual({ n: { $gt: 2, ...NOT_ARRAY } });
    expect(one({ field: "n", op: "gte", value: -1.5 })).toEqual({ n: { $gte: -1.5, ...NOT_ARRAY } });
    expect(one({ field: "at", op: "lt", value: "2024-01-01T00:00:00.000Z" })).toEqual({ at: { $lt: "2024-01-01T00:00:00.000Z", ...NOT_ARRAY } });
    expect(one({ field: "createdAt", op: "lte", value: "2024" })).toEqual({ createdAt: { $lte: "2024", ...NOT_ARRAY } });
    expect(one({ field: "id", op: "gt", value: "rec_a" })).toEqual({ _id: { $gt: "rec_a" } });
  });

  it("in takes the listed scalars (null included); for id only text; an empty list matches nothing", () => {
    expect(one({ field: "s", op: "in", value: ["a", 1, true, null] })).toEqual({ s: { $in: ["a", 1, true, null], ...NOT_ARRAY } });
    expect(one({ field: "id", op: "in", value: ["rec_1", 5, null, "rec_2"] })).toEqual({ _id: { $in: ["rec_1", "rec_2"] } });
    expect(one({ field: "id", op: "in", value: [5] })).toEqual(MATCH_NOTHING);
    expect(one({ field: "s", op: "in", value: [] })).toEqual(MATCH_NOTHING);
  });

  it("contains is a case-insensitive $regex of the escaped text", () => {
    expect(one({ field: "t", op: "contains", value: "a.b*(c)" })).toEqual({ t: { $regex: "a\\.b\\*\\(c\\)", $options: "i", ...NOT_ARRAY } });
    expect(one({ field: "id", op: "contains", value: "rec" })).toEqual({ _id: { $regex: "rec", $options: "i" } });
  });

  it("escapes every regular-expression metacharacter", () => {
    expect(escapeRegex(".*+?^${}()|[]\\/-")).toBe("\\.\\*\\+\\?\\^\\$\\{\\}\\(\\)\\|\\[\\]\\\\\\/\\-");
    expect(escapeRegex("plain text 100%")).toBe("plain text 100%");
    expect(new RegExp(escapeRegex("a+b (c)")).test("xa+b (c)y")).toBe(true);
  });

  it("combines conditions with $and, search with $or, and nothing as {}", () => {
    expect(buildFilter(checkMatchQuery(undefined))).toEqual({});
    expect(buildFilter(checkMatchQuery({ where: [{ field: "a", op: "gt", value: 1 }] }))).toEqual({ a: { $gt: 1, ...NOT_ARRAY } });
    expect(
      buildFilter(
        checkMatchQuery({
          where: [
            { field: "status", op: "eq", value: "open" },
            { field: "n", op: "lt", value: 5 },
          ],
          search: { text: "Print?", fields: ["title", "body", "title"] },
        }),
      ),
    ).toEqual({
      $and: [
        { status: { $eq: "open", $type: SCALAR, ...NOT_ARRAY } },
        { n: { $lt: 5, ...NOT_ARRAY } },
        {
          $or: [{ title: { $regex: "Print\\?", $options: "i", ...NOT_ARRAY } }, { body: { $regex: "Print\\?", $options: "i", ...NOT_ARRAY } }],
        },
      ],
    });
    expect(buildFilter(checkMatchQuery({ search: { text: "", fields: ["title"] } }))).toEqual({});
  });
});
