import { describe, expect, it } from "vitest";
import { prepareChanges } from "../prepare-changes";
import { buildUpdate } from "./build-update";

describe("MongoDB update document", () => {
  it("sets each changed top-level field whole, with updatedAt", () => {
    const now = new Date("2024-03-04T05:06:07.089Z");
    const changes = prepareChanges({ status: "closed", meta: { a: 1 }, cleared: null, list: [1, { b: 2 }] }, now);
    expect(buildUpdate(changes)).toEqual({
      $set: { status: "closed", meta: { a: 1 }, cleared: null, list: [1, { b: 2 }], updatedAt: "2024-03-04T05:06:07.089Z" },
    });
  });

  it("never carries operator or dotted keys: prepareChanges refuses them first", () => {
    expect(() => prepareChanges({ $inc: { n: 1 } }, new Date())).toThrow(expect.objectContaining({ code: "validation_failed" }));
    expect(() => prepareChanges({ "meta.a": 1 }, new Date())).toThrow(expect.objectContaining({ code: "validation_failed" }));
  });

  it("copies the changes rather than sharing them", () => {
    const changes = { a: 1, updatedAt: "x" };
    const update = buildUpdate(changes);
    changes.a = 2;
    expect(update).toEqual({ $set: { a: 1, updatedAt: "x" } });
  });
});
