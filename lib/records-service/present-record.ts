import type { StoredRecord } from "@/lib/records/record-store";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { COMPONENT_KEY } from "./validate-record";

/** A record as the API answers it: system fields and the schema's current fields, nothing else. */
export type PublicRecord = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };

export interface PresentRecordOptions {
  schema: SchemaDefinition;
  components: readonly SchemaDefinition[];
  record: StoredRecord;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function emptyValue(field: FieldDefinition): unknown {
  if ((field.type === "relation" && field.many) || (field.type === "component" && field.repeatable) || field.type === "dynamic_zone") return [];
  return null;
}

/**
 * Shapes a stored document for output by listing what may be seen rather than removing what may
 * not: `id`, the schema's fields in their declared order (auth schemas: `email`, `emailVerified`
 * first), `createdAt`, `updatedAt`. So values of removed fields, password hashes, token hashes and
 * any other server-side keys stay in the document but never leave the server. Fields a document
 * lacks (added after it was written) read as null, or [] for lists. Components are shaped the
 * same way, recursively; dynamic-zone items of components that no longer exist are left out.
 */
export function presentRecord(options: PresentRecordOptions): PublicRecord {
  return createRecordPresenter(options.schema, options.components)(options.record);
}

/** presentRecord for many records of one schema: the schema is read once, not per record. */
export function createRecordPresenter(schema: SchemaDefinition, allSchemas: readonly SchemaDefinition[]): (record: StoredRecord) => PublicRecord {
  const components = new Map(allSchemas.filter((candidate) => candidate.kind === "component").map((candidate) => [candidate.name, candidate]));
  const fields = effectiveFields(schema);

  // Fills the given output in place: the record's own is started with its id, not spread afterwards.
  const shape = (shapeFields: readonly FieldDefinition[], source: Record<string, unknown>, output: Record<string, unknown> = {}): Record<string, unknown> => {
    for (const field of shapeFields) {
      const value = source[field.name];
      output[field.name] = value === undefined || value === null ? emptyValue(field) : shapeValue(field, value);
    }
    return output;
  };

  const shapeComponent = (name: string, value: unknown): Record<string, unknown> | null => {
    const component = components.get(name);
    return component && isObject(value) ? shape(component.fields, value) : null;
  };

  const shapeValue = (field: FieldDefinition, value: unknown): unknown => {
    if (field.type === "component") {
      if (!field.repeatable) return shapeComponent(field.component, value);
      return Array.isArray(value) ? value.map((item) => shapeComponent(field.component, item)).filter((item) => item !== null) : [];
    }
    if (field.type === "dynamic_zone") {
      if (!Array.isArray(value)) return [];
      return value.flatMap((item) => {
        if (!isObject(item)) return [];
        const name = String(item[COMPONENT_KEY]);
        if (!field.components.includes(name)) return [];
        const shaped = shapeComponent(name, item);
        return shaped ? [{ [COMPONENT_KEY]: name, ...shaped }] : [];
      });
    }
    return value;
  };

  return (record) => {
    const output = shape(fields, record, { id: record.id });
    output.createdAt = record.createdAt;
    output.updatedAt = record.updatedAt;
    return output as PublicRecord;
  };
}
