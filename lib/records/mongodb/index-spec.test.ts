import { describe, expect, it } from "vitest";
import { ORDER_INDEX, fieldFromIndexName, fieldIndexSpec, uniqueIndexName, uniqueIndexSpec } from "./index-spec";

describe("MongoDB index specs", () => {
  it("a unique index is partial over text, numbers and booleans, named after its field", () => {
    expect(uniqueIndexSpec("email")).toEqual({
      key: { email: 1 },
      options: { name: "unique_email", unique: true, partialFilterExpression: { email: { $type: ["string", "number", "bool"] } } },
    });
  });

  it("an indexed field's index is a plain ascending one (MongoDB's order across types is the store's), never taken for a unique one", () => {
    expect(fieldIndexSpec("status")).toEqual({ key: { status: 1 }, options: { name: "indexed_status" } });
    expect(fieldFromIndexName("indexed_status")).toBeUndefined();
  });

  it("maps index names back to fields", () => {
    expect(uniqueIndexName("sku_code")).toBe("unique_sku_code");
    expect(fieldFromIndexName("unique_sku_code")).toBe("sku_code");
    expect(fieldFromIndexName("_id_")).toBe("id");
    expect(fieldFromIndexName("unique_")).toBeUndefined();
    expect(fieldFromIndexName("email_1")).toBeUndefined();
  });

  it("the order index serves createdAt then _id", () => {
    expect(ORDER_INDEX).toEqual({ key: { createdAt: 1, _id: 1 }, options: { name: "created_order" } });
    expect(Object.keys(ORDER_INDEX.key)).toEqual(["createdAt", "_id"]);
  });
});
