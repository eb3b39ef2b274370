import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { checkConditions, checkFindQuery, checkIds, checkMatchQuery, completeSort } from "./check-query";

function pathsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect((error as AppError).code).toBe("validation_failed");
    return ((error as AppError).issues ?? []).map((issue) => issue.path);
  }
  throw new Error("expected validation_failed");
}

describe("checkFindQuery", () => {
  it("fills defaults", () => {
    expect(checkFindQuery(undefined)).toEqual({ where: [], search: undefined, sort: [], skip: 0, limit: undefined });
  });

  it("keeps valid conditions with normalized values", () => {
    const date = new Date("2024-01-01T00:00:00.000Z");
    expect(
      checkFindQuery({
        where: [
          { field: "a", op: "eq", value: { $ne: null, when: date } },
          { field: "b", op: "ne", value: undefined },
          { field: "c", op: "gte", value: 3 },
          { field: "d", op: "in", value: ["x", 1, true, null] },
          { field: "e", op: "contains", value: "50%" },
        ],
        sort: [{ field: "a", direction: "desc" }],
        skip: 5,
        limit: 10,
      }),
    ).toEqual({
      where: [
        { field: "a", op: "eq", value: { $ne: null, when: "2024-01-01T00:00:00.000Z" } },
        { field: "b", op: "ne", value: null },
        { field: "c", op: "gte", value: 3 },
        { field: "d", op: "in", value: ["x", 1, true, null] },
        { field: "e", op: "contains", value: "50%" },
      ],
      search: undefined,
      sort: [{ field: "a", direction: "desc" }],
      skip: 5,
      limit: 10,
    });
  });

  it("reports every problem with its path", () => {
    expect(
      pathsOf(() =>
        checkFindQuery({
          where: [
            { field: "_id", op: "eq", value: 1 },
            { field: "ok", op: "like" as never, value: 1 },
            { field: "ok", op: "in", value: Array.from({ length: 1001 }, () => 1) },
            { field: "ok", op: "contains", value: "x".repeat(1001) },
            null as never,
          ],
          sort: [{ field: "a.b", direction: "asc" }],
          skip: 1.5,
          limit: -1,
          search: { text: 5 as never, fields: ["ok", "$bad"] },
        }),
      ),
    ).toEqual(["where.0.field", "where.1.op", "where.2.value", "where.3.value", "where.4", "search.text", "search.fields.1", "sort.0.field", "skip", "limit"]);
  });

  it("dedupes search fields and drops an empty search text", () => {
    expect(checkMatchQuery({ search: { text: "x", fields: ["a", "b", "a"] } }).search).toEqual({ text: "x", fields: ["a", "b"] });
    expect(checkMatchQuery({ search: { text: "", fields: ["a"] } }).search).toBeUndefined();
  });

  it("caps conditions at 50 and sorts at 10", () => {
    expect(pathsOf(() => checkConditions(Array.from({ length: 51 }, () => ({ field: "a", op: "eq", value: 1 }))))).toEqual(["where"]);
    expect(pathsOf(() => checkFindQuery({ sort: Array.from({ length: 11 }, () => ({ field: "a", direction: "asc" as const })) }))).toEqual(["sort"]);
  });
});

describe("checkIds", () => {
  it("keeps text ids once, in order, and refuses the rest", () => {
    expect(checkIds(["b", "a", "b"])).toEqual(["b", "a"]);
    expect(pathsOf(() => checkIds(["a", 1]))).toEqual(["ids.1"]);
    expect(pathsOf(() => checkIds("a"))).toEqual(["ids"]);
  });
});

describe("completeSort", () => {
  it("ends every sort with createdAt and id so that pages are stable", () => {
    expect(completeSort([])).toEqual([
      { field: "createdAt", direction: "asc" },
      { field: "id", direction: "asc" },
    ]);
    expect(completeSort([{ field: "n", direction: "desc" }])).toEqual([
      { field: "n", direction: "desc" },
      { field: "createdAt", direction: "asc" },
      { field: "id", direction: "asc" },
    ]);
    expect(completeSort([{ field: "createdAt", direction: "desc" }])).toEqual([
      { field: "createdAt", direction: "desc" },
      { field: "id", direction: "asc" },
    ]);
    expect(completeSort([{ field: "id", direction: "desc" }])).toEqual([{ field: "id", direction: "desc" }]);
  });
});
