import { describe, expect, it } from "vitest";
import { databaseNameFromUrl, fromMongoDocument, toMongoDocument } from "./map-document";

describe("MongoDB documents", () => {
  const record = { id: "rec_1", title: "x", nested: { id: "inner" }, createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-02T00:00:00.000Z" };

  it("keeps our id in _id and never stores an id field", () => {
    expect(toMongoDocument(record)).toEqual({ _id: "rec_1", title: "x", nested: { id: "inner" }, createdAt: record.createdAt, updatedAt: record.updatedAt });
  });

  it("maps _id back to id, never exposing _id, in the common key order", () => {
    const back = fromMongoDocument({ title: "x", createdAt: record.createdAt, _id: "rec_1", updatedAt: record.updatedAt, nested: { id: "inner" } });
    expect(back).toEqual(record);
    expect(Object.keys(back)).toEqual(["id", "title", "nested", "createdAt", "updatedAt"]);
    expect("_id" in back).toBe(false);
  });

  it("turns a non-text _id into text and lets it win over a stray id field", () => {
    const objectIdLike = { toString: () => "65f000000000000000000001" };
    expect(fromMongoDocument({ _id: objectIdLike, id: "stray", createdAt: "c", updatedAt: "u" }).id).toBe("65f000000000000000000001");
  });

  it("reads the database name from single- and multi-host URLs", () => {
    expect(databaseNameFromUrl("mongodb://127.0.0.1:27017/shop")).toBe("shop");
    expect(databaseNameFromUrl("mongodb://u:p%2Fw@h1:1,h2:2,h3:3/shop?replicaSet=rs0&authSource=admin")).toBe("shop");
    expect(databaseNameFromUrl("mongodb+srv://user:pa/ss@cluster0.example.net/app-data?retryWrites=true")).toBe("app-data");
    expect(databaseNameFromUrl("mongodb://127.0.0.1:27017")).toBeUndefined();
    expect(databaseNameFromUrl("mongodb://127.0.0.1:27017/")).toBeUndefined();
    expect(databaseNameFromUrl("mongodb://127.0.0.1:27017/?replicaSet=rs0")).toBeUndefined();
    expect(databaseNameFromUrl("mongodb://127.0.0.1/my%20db")).toBe("my db");
  });
});
