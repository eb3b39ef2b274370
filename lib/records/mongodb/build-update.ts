import type { Document } from "mongodb";

/**
 * The update document for a shallow merge: each changed top-level field replaced whole. The
 * changes were checked on the way in (no key starts with "$" or holds "."), so every value is a
 * literal and no key can address a nested path.
 */
export function buildUpdate(changes: Record<string, unknown>): Document {
  return { $set: { ...changes } };
}
