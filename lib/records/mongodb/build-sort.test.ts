import { describe, expect, it } from "vitest";
import { completeSort } from "../check-query";
import { buildSort } from "./build-sort";

describe("MongoDB sort document", () => {
  it("is createdAt then _id ascending by default", () => {
    const sort = buildSort(completeSort([]));
    expect(sort).toEqual({ createdAt: 1, _id: 1 });
    expect(Object.keys(sort)).toEqual(["createdAt", "_id"]);
  });

  it("keeps the caller's fields first, in order, then the tie-breakers", () => {
    const sort = buildSort(
      completeSort([
        { field: "priority", direction: "desc" },
        { field: "title", direction: "asc" },
      ]),
    );
    expect(Object.entries(sort)).toEqual([
      ["priority", -1],
      ["title", 1],
      ["createdAt", 1],
      ["_id", 1],
    ]);
  });

  it("maps id to _id and adds no tie-breaker after a sort on id", () => {
    expect(Object.entries(buildSort(completeSort([{ field: "id", direction: "desc" }])))).toEqual([["_id", -1]]);
    expect(Object.entries(buildSort(completeSort([{ field: "createdAt", direction: "desc" }])))).toEqual([
      ["createdAt", -1],
      ["_id", 1],
    ]);
  });
});
