import { createHash } from "node:crypto";
import { scalarGuard } from "./build-where";
import { jsonOf } from "./field-keys";
import { qualifiedTable, quoteIdentifier } from "./table-names";

/**
 * A lookup index (RecordStore.ensureLookupIndex): the field's JSON value, then the id, over the
 * records whose value is text, a number or a boolean. Its predicate is the scalar guard an
 * equality condition on a field without a field index is written with (build-where.ts), so
 * PostgreSQL proves the partial index applies, looks the value up and walks its matches in id
 * order without sorting them. Records holding null or lacking the field are not in it: a platform
 * collection where each record has one of several such fields pays for one index per insert.
 */
export function lookupIndexName(collection: string, field: string): string {
  const hash = createHash("sha256").update(`${collection}\u0000${field}`).digest("hex").slice(0, 12);
  return `${collection.slice(0, 22)}_${field.slice(0, 22)}_${hash}_l`;
}

/** The statement that creates it; `concurrently` on a server, where writes go on while it is built. */
export function createLookupIndexSql(collection: string, field: string, concurrently: boolean): string {
  const name = quoteIdentifier(lookupIndexName(collection, field));
  return `CREATE INDEX ${concurrently ? "CONCURRENTLY " : ""}IF NOT EXISTS ${name} ON ${qualifiedTable(collection)} (${jsonOf(field)}, id) WHERE ${scalarGuard(field)}`;
}
