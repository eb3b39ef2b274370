import type { FlowRecord, FlowRecordsService } from "@/lib/flow/engine/flow-services";
import type { FieldCondition, RecordStore } from "@/lib/records/record-store";

/**
 * A records service for tests: the flow's narrow records interface straight over a real record
 * store (no schema validation; the production one is lib/flow-services). `relations` names, per
 * collection, which field points at which collection, for `expand`.
 */
export function storeRecordsService(store: RecordStore, relations: Record<string, Record<string, string>> = {}): FlowRecordsService {
  const conditions = (where: Array<{ field: string; value: unknown }>): FieldCondition[] => where.map((filter) => ({ field: filter.field, op: "eq", value: filter.value }));

  return {
    async query({ schema, where, limit, sort, expand, signal }) {
      const records: FlowRecord[] = await store.find(schema, {
        where: conditions(where),
        limit,
        sort: sort
          ? [sort, { field: "id", direction: sort.direction }]
          : [
              { field: "createdAt", direction: "asc" },
              { field: "id", direction: "asc" },
            ],
        signal,
      });
      for (const field of expand) {
        const target = relations[schema]?.[field];
        if (target === undefined) continue;
        const ids = [...new Set(records.map((record) => record[field]).filter((id): id is string => typeof id === "string"))];
        const related = new Map((await store.findByIds(target, ids, { signal })).map((record) => [record.id, record]));
        for (const record of records) {
          const expanded = (record.expand ??= {}) as Record<string, unknown>;
          expanded[field] = typeof record[field] === "string" ? (related.get(record[field]) ?? null) : null;
        }
      }
      return records;
    },
    create: ({ schema, values, signal }) => store.insert(schema, values, { signal }),
    async update({ schema, where, values, signal }) {
      const result = await store.updateFirst(schema, conditions(where), values, { signal });
      return result.matched && result.record ? { ...result.record, matched: true } : { matched: false };
    },
  };
}
