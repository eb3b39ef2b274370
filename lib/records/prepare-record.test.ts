import { describe, expect, it } from "vitest";
import { hasPrefix } from "@/lib/ids";
import { prepareChanges } from "./prepare-changes";
import { prepareInsert } from "./prepare-insert";
import { orderByIds, orderRecordKeys } from "./order-stored-records";
import { assertCollectionName, isValidFieldName, isValidRecordId } from "./record-names";

const now = new Date("2024-05-06T07:08:09.010Z");

describe("prepareInsert", () => {
  it("assigns a record id and both timestamps", () => {
    const record = prepareInsert({ title: "x" }, now);
    expect(hasPrefix(record.id, "record")).toBe(true);
    expect(record).toEqual({ id: record.id, title: "x", createdAt: "2024-05-06T07:08:09.010Z", updatedAt: "2024-05-06T07:08:09.010Z" });
    expect(Object.keys(record)).toEqual(["id", "title", "createdAt", "updatedAt"]);
  });

  it("keeps a caller's id and refuses the store's own fields", () => {
    expect(prepareInsert({ id: "exe_1", a: 1 }, now).id).toBe("exe_1");
    expect(() => prepareInsert({ createdAt: "x", updatedAt: "y", _id: "z", id: "no spaces" }, now)).toThrow(
      expect.objectContaining({
        code: "validation_failed",
        issues: [
          { path: "id", message: "must be 1-128 letters, digits, underscores or dashes" },
          { path: "createdAt", message: "is set by the store" },
          { path: "updatedAt", message: "is set by the store" },
          { path: "_id", message: "is reserved" },
        ],
      }),
    );
  });
});

describe("prepareChanges", () => {
  it("adds updatedAt and refuses system fields", () => {
    expect(prepareChanges({ a: 1 }, now)).toEqual({ a: 1, updatedAt: "2024-05-06T07:08:09.010Z" });
    expect(() => prepareChanges({ id: "x" }, now)).toThrow(expect.objectContaining({ issues: [{ path: "id", message: "is set by the store" }] }));
    expect(() => prepareChanges("x", now)).toThrow(expect.objectContaining({ code: "validation_failed" }));
  });
});

describe("orderRecordKeys and orderByIds", () => {
  it("puts id first and the timestamps last", () => {
    expect(Object.keys(orderRecordKeys({ updatedAt: "u", b: 1, createdAt: "c", id: "x", a: 2 }))).toEqual(["id", "b", "a", "createdAt", "updatedAt"]);
  });

  it("answers records in the order of the ids, each once", () => {
    const records = ["a", "b", "c"].map((id) => orderRecordKeys({ id, createdAt: "c", updatedAt: "u" }));
    expect(orderByIds(records, ["c", "x", "a", "c"]).map((record) => record.id)).toEqual(["c", "a"]);
  });
});

describe("names", () => {
  it("collections: lowercase, one leading underscore for system collections, at most 64 characters", () => {
    for (const good of ["tickets", "_executions", "a", "a1_b2", `_a${"b".repeat(62)}`, `a${"b".repeat(62)}`]) expect(() => assertCollectionName(good)).not.toThrow();
    for (const bad of ["", "_", "__a", "A", "1a", "a-b", "a.b", `a${"b".repeat(63)}`, 5])
      expect(() => assertCollectionName(bad)).toThrow(expect.objectContaining({ code: "validation_failed" }));
  });

  it("fields: letters, digits, underscores, not _id", () => {
    for (const good of ["a", "_private", "camelCase", "id", "createdAt", `a${"b".repeat(63)}`]) expect(isValidFieldName(good)).toBe(true);
    for (const bad of ["_id", "$a", "a.b", "1a", "", "a b", `a${"b".repeat(64)}`, 1]) expect(isValidFieldName(bad)).toBe(false);
  });

  it("ids: 1-128 URL-safe characters", () => {
    expect(isValidRecordId("rec_01h")).toBe(true);
    expect(isValidRecordId("a".repeat(128))).toBe(true);
    for (const bad of ["", "a".repeat(129), "a/b", "a b", "a.b", 5]) expect(isValidRecordId(bad)).toBe(false);
  });
});
