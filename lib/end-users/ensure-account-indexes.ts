import type { RecordStore } from "@/lib/records/record-store";
import { INDEXED_ACCOUNT_FIELDS } from "./account-fields";
import type { AuthSchemaContext } from "./auth-schema-context";

// Per store (one per project database) and schema id: a re-created schema (new id) or a project
// moved to another database (new store) gets its indexes again.
const ensured = new WeakMap<RecordStore, Map<string, Promise<void>>>();

/**
 * Makes sure the accounts collection has its unique indexes: `email` (createSchema makes it too,
 * but not in a database the project switched to later) and the two token hashes (fast lookups; the
 * indexes are partial, so the many accounts holding null do not collide). Idempotent, and done once
 * per process for a store and schema; a failure is retried on the next call.
 */
export function ensureAccountIndexes(context: Pick<AuthSchemaContext, "store" | "schema">): Promise<void> {
  const { store, schema } = context;
  let bySchema = ensured.get(store);
  if (!bySchema) {
    bySchema = new Map();
    ensured.set(store, bySchema);
  }
  const known = bySchema.get(schema.id);
  if (known) return known;
  const pending = (async () => {
    for (const field of INDEXED_ACCOUNT_FIELDS) await store.ensureUniqueIndex(schema.name, field);
  })();
  bySchema.set(schema.id, pending);
  pending.catch(() => bySchema.delete(schema.id));
  return pending;
}
