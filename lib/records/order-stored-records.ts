import type { StoredRecord } from "./record-store";

/**
 * Every backend answers records in one key order: id first, the caller's fields, then the
 * timestamps. The store's own order, not what the API shows (lib/records-service/present-record.ts
 * picks the schema's fields from a stored record).
 */
export function orderRecordKeys(document: Record<string, unknown>): StoredRecord {
  const { id, createdAt, updatedAt, ...rest } = document;
  return { id: String(id), ...rest, createdAt: createdAt as string, updatedAt: updatedAt as string };
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
