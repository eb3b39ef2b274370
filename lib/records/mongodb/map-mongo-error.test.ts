import { MongoBulkWriteError, MongoNetworkError, MongoNetworkTimeoutError, MongoOperationTimeoutError, MongoServerError, MongoServerSelectionError } from "mongodb";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { duplicateKeyField, isAlreadyGone, isConcurrentIndexBuild, mapMongoError } from "./map-mongo-error";

const SECRET = "mongodb://admin:hunter2@db.internal:27017/shop";

function selectionError(message: string): MongoServerSelectionError {
  return new MongoServerSelectionError(message, { servers: new Map() } as never);
}

describe("MongoDB driver errors to AppError", () => {
  it("E11000 → unique_violation with the field from keyPattern, never the driver text", () => {
    const error = mapMongoError(
      new MongoServerError({
        message: `E11000 duplicate key error collection: shop.users index: unique_email dup key: { email: "a@x" } ${SECRET}`,
        code: 11000,
        keyPattern: { email: 1 },
        keyValue: { email: "a@x" },
      }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("unique_violation");
    expect(error.field).toBe("email");
    expect(error.message).toBe('"email" must be unique: another record already has this value');
    expect(error.status).toBe(409);
  });

  it("a batch insert's duplicate (MongoBulkWriteError, no keyPattern) → unique_violation with the field from the index name", () => {
    // What insertMany throws on its first duplicate: the first write error's message and code.
    const bulk = (message: string) => new MongoBulkWriteError({ message, code: 11000, writeErrors: [] }, {} as never);
    const byValue = mapMongoError(bulk(`E11000 duplicate key error collection: shop.users index: unique_email dup key: { email: "a@x" } ${SECRET}`));
    expect(byValue.code).toBe("unique_violation");
    expect(byValue.field).toBe("email");
    expect(byValue.message).not.toContain("E11000");
    expect(mapMongoError(bulk('E11000 duplicate key error collection: shop.users index: _id_ dup key: { _id: "rec_1" }')).field).toBe("id");
  });

  it("E11000 on _id → unique_violation on id", () => {
    const error = mapMongoError(
      new MongoServerError({
        message: 'E11000 duplicate key error collection: shop.users index: _id_ dup key: { _id: "rec_1" }',
        code: 11000,
        keyPattern: { _id: 1 },
        keyValue: { _id: "rec_1" },
      }),
    );
    expect(error.field).toBe("id");
  });

  it("E11000 without keyPattern: the field from keyValue, else from our index name in the message", () => {
    expect(duplicateKeyField({ keyValue: { sku: "x" } })).toBe("sku");
    expect(duplicateKeyField({ message: 'E11000 duplicate key error collection: shop.items index: unique_sku dup key: { sku: "x" }' })).toBe("sku");
    expect(duplicateKeyField({ message: "E11000 duplicate key error collection: shop.items index: _id_ dup key: { _id: 1 }" })).toBe("id");
    const unknown = mapMongoError({ code: 11000, message: "E11000 duplicate key error collection: shop.items index: legacy_1 dup key: { x: 1 }" });
    expect(unknown.code).toBe("unique_violation");
    expect(unknown.field).toBeUndefined();
    expect(unknown.message).toBe("another record already has this value");
  });

  it("E11000 while creating a unique index → unique_violation naming the field and a duplicate value", () => {
    const error = mapMongoError(
      new MongoServerError({
        message: 'E11000 duplicate key error collection: shop.users index: unique_email dup key: { email: "dup@x" }',
        code: 11000,
        keyPattern: { email: 1 },
        keyValue: { email: "dup@x" },
      }),
      { creatingIndexOn: "email" },
    );
    expect(error.code).toBe("unique_violation");
    expect(error.field).toBe("email");
    expect(error.message).toBe('"email" cannot be made unique: the value "dup@x" is used by more than one record');
    const withoutValue = mapMongoError(new MongoServerError({ message: "E11000 duplicate key error", code: 11000 }), { creatingIndexOn: "email" });
    expect(withoutValue.message).toBe('"email" cannot be made unique: some value is used by more than one record');
  });

  it("MaxTimeMSExpired, the driver's own timeout and an abort → timeout", () => {
    for (const error of [
      new MongoServerError({ message: "operation exceeded time limit", code: 50, codeName: "MaxTimeMSExpired" }),
      new MongoOperationTimeoutError("Timed out during operation"),
      Object.assign(new Error("This operation was aborted"), { name: "AbortError" }),
    ]) {
      const mapped = mapMongoError(error);
      expect(mapped.code).toBe("timeout");
      expect(mapped.status).toBe(504);
      expect(mapped.message).toBe("the database did not answer in time");
    }
  });

  it("server selection, network failures and refused credentials → unavailable, without the driver text", () => {
    for (const error of [
      selectionError(`connect ECONNREFUSED 127.0.0.1:27017 ${SECRET}`),
      new MongoNetworkError(`connection 1 to ${SECRET} closed`),
      new MongoNetworkTimeoutError("connection timed out"),
      new MongoServerError({ message: "Authentication failed.", code: 18, codeName: "AuthenticationFailed" }),
      new MongoServerError({ message: "not authorized on shop to execute command", code: 13, codeName: "Unauthorized" }),
      new MongoServerError({ message: "interrupted at shutdown", code: 11600, codeName: "InterruptedAtShutdown" }),
    ]) {
      const mapped = mapMongoError(error);
      expect(mapped.code).toBe("unavailable");
      expect(mapped.message).toBe("the database is unavailable");
      expect(mapped.cause).toBe(error);
    }
  });

  it("an index that exists with other options → conflict; anything else → internal, keeping the cause", () => {
    expect(mapMongoError(new MongoServerError({ message: "Index already exists with a different name", code: 85, codeName: "IndexOptionsConflict" })).code).toBe("conflict");
    const other = new MongoServerError({ message: `bad thing ${SECRET}`, code: 2, codeName: "BadValue" });
    const mapped = mapMongoError(other);
    expect(mapped.code).toBe("internal");
    expect(mapped.message).toBe("the database operation failed");
    expect(mapped.message).not.toContain("hunter2");
    expect(mapped.cause).toBe(other);
    expect(mapMongoError("a string").code).toBe("internal");
  });

  it("passes AppErrors through and recognises already-dropped indexes and collections", () => {
    const appError = new AppError("validation_failed", "x");
    expect(mapMongoError(appError)).toBe(appError);
    expect(isAlreadyGone(new MongoServerError({ message: "ns not found", code: 26 }))).toBe(true);
    expect(isAlreadyGone(new MongoServerError({ message: "index not found with name [unique_x]", code: 27 }))).toBe(true);
    expect(isAlreadyGone(new MongoServerError({ message: "other", code: 2 }))).toBe(false);
    expect(isAlreadyGone(null)).toBe(false);
  });

  it("recognises a concurrent build of the same index or collection", () => {
    expect(isConcurrentIndexBuild(new MongoServerError({ message: "index build already in progress", code: 276, codeName: "IndexBuildAlreadyInProgress" }))).toBe(true);
    expect(isConcurrentIndexBuild(new MongoServerError({ message: "collection already exists", code: 48, codeName: "NamespaceExists" }))).toBe(true);
    expect(isConcurrentIndexBuild(new MongoServerError({ message: "write conflict", code: 112, codeName: "WriteConflict" }))).toBe(true);
    expect(isConcurrentIndexBuild(new MongoServerError({ message: "E11000", code: 11000 }))).toBe(false);
  });
});
