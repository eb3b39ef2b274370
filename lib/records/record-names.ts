import { AppError } from "@/lib/errors";

/** Fields the store sets on every record. */
export const SYSTEM_FIELDS = ["id", "createdAt", "updatedAt"] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

/** User collections: `tickets`; platform collections start with one underscore: `_executions`. */
const COLLECTION_NAME = /^_?[a-z][a-z0-9_]{0,62}$/;
/** Top-level field names usable in filters, sorts and indexes. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Our ids: also used in URLs, so no slashes, spaces or dots. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isSystemField(name: string): name is SystemField {
  return (SYSTEM_FIELDS as readonly string[]).includes(name);
}

/** The ownership marker's table or collection (database-owner.ts): never a collection of records. */
const RESERVED_COLLECTIONS: ReadonlySet<string> = new Set(["_flowpoint"]);

export function assertCollectionName(collection: unknown): asserts collection is string {
  if (typeof collection === "string" && RESERVED_COLLECTIONS.has(collection)) {
    throw new AppError("validation_failed", "invalid collection name", { issues: [{ path: "collection", message: `${collection} is reserved for Flowpoint's own use` }] });
  }
  if (typeof collection !== "string" || !COLLECTION_NAME.test(collection)) {
    throw new AppError("validation_failed", "invalid collection name", {
      issues: [
        { path: "collection", message: "must be lowercase letters, digits and underscores, start with a letter (or one underscore for system collections), at most 64 characters" },
      ],
    });
  }
}

/** `_id` is reserved: MongoDB keeps our id there. */
export function isValidFieldName(name: unknown): name is string {
  return typeof name === "string" && FIELD_NAME.test(name) && name !== "_id";
}

export function assertFieldName(name: unknown, path: string): asserts name is string {
  if (!isValidFieldName(name)) {
    throw new AppError("validation_failed", "invalid field name", {
      issues: [{ path, message: "must be letters, digits and underscores, start with a letter or underscore, at most 64 characters, and not _id" }],
    });
  }
}

export function isValidRecordId(id: unknown): id is string {
  return typeof id === "string" && RECORD_ID.test(id);
}
