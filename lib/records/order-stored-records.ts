import type { StoredRecord } from "./record-store";

const SYSTEM_KEYS: ReadonlySet<string> = new Set(["id", "createdAt", "updatedAt", "_id"]);

/**
 * `{ id, ...fields, createdAt, updatedAt }` with the system keys of `fields` (and MongoDB's `_id`)
 * left out. Written as a loop, not an object rest: V8 copies a rest with excluded keys through a
 * runtime call, about twice the cost of this loop, and every record a query reads or a write
 * stores passes here.
 */
export function withSystemFields(fields: Record<string, unknown>, id: string, createdAt: unknown, updatedAt: unknown): StoredRecord {
  const record: Record<string, unknown> = { id };
  for (const key in fields) {
    if (SYSTEM_KEYS.has(key) || !Object.hasOwn(fields, key)) continue;
    // A stored "__proto__" is a field like any other; assigning it would set the copy's prototype instead.
    if (key === "__proto__") Object.defineProperty(record, key, { value: fields[key], enumerable: true, writable: true, configurable: true });
    else record[key] = fields[key];
  }
  record.createdAt = createdAt;
  record.updatedAt = updatedAt;
  return record as StoredRecord;
}

/**
 * Every backend answers records in one key order: id first, the caller's fields, then the
 * timestamps. The store's own order, not what the API shows (lib/records-service/present-record.ts
 * picks the schema's fields from a stored record).
 */
export function orderRecordKeys(document: Record<string, unknown>): StoredRecord {
  return withSystemFields(document, String(document.id), document.createdAt, document.updatedAt);
}

/** findByIds answers in the order of the ids asked for, each record once. */
export function orderByIds(records: StoredRecord[], ids: string[]): StoredRecord[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const out: StoredRecord[] = [];
  for (const id of new Set(ids)) {
    const record = byId.get(id);
    if (record) out.push(record);
  }
  return out;
}
