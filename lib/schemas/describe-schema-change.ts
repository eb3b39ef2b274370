import { indexedFieldNames, uniqueFieldNames, type FieldType, type SchemaDefinition } from "./schema-definition";

/** What an update does to the data, so the API can say it and the dashboard can ask first. */
export interface SchemaChangeEffects {
  addedFields: string[];
  /** Their stored values stay in the records but are no longer answered, filtered or sorted by. */
  removedFields: string[];
  /** Stored values are not converted; records show old values until rewritten. */
  changedTypes: { field: string; from: FieldType; to: FieldType }[];
  uniqueIndexesCreated: string[];
  uniqueIndexesDropped: string[];
  /** Fields that become `indexed` (their index is built) or stop being so. */
  fieldIndexesCreated: string[];
  fieldIndexesDropped: string[];
  /** True when the change hides or reinterprets stored data: the dashboard asks before saving. */
  requiresConfirmation: boolean;
  /** One sentence per effect, for people. */
  notes: string[];
}

/** Compares two versions of a schema: what happens to stored data and indexes when the second replaces the first. */
export function describeSchemaChange(before: SchemaDefinition, after: SchemaDefinition): SchemaChangeEffects {
  const oldFields = new Map(before.fields.map((field) => [field.name, field]));
  const newFields = new Map(after.fields.map((field) => [field.name, field]));
  const addedFields = after.fields.filter((field) => !oldFields.has(field.name)).map((field) => field.name);
  const removedFields = before.fields.filter((field) => !newFields.has(field.name)).map((field) => field.name);
  const changedTypes = after.fields.flatMap((field) => {
    const old = oldFields.get(field.name);
    return old && old.type !== field.type ? [{ field: field.name, from: old.type, to: field.type }] : [];
  });
  const oldUnique = new Set(uniqueFieldNames(before));
  const newUnique = new Set(uniqueFieldNames(after));
  const uniqueIndexesCreated = [...newUnique].filter((field) => !oldUnique.has(field));
  const uniqueIndexesDropped = [...oldUnique].filter((field) => !newUnique.has(field));
  const oldIndexed = new Set(indexedFieldNames(before));
  const newIndexed = new Set(indexedFieldNames(after));
  const fieldIndexesCreated = [...newIndexed].filter((field) => !oldIndexed.has(field));
  const fieldIndexesDropped = [...oldIndexed].filter((field) => !newIndexed.has(field));

  const notes: string[] = [];
  for (const field of addedFields) notes.push(`Field "${field}" is added; existing records without a value for it read null until they are written.`);
  for (const field of removedFields) {
    notes.push(
      `Field "${field}" is removed from the API: its stored values stay in the records but are no longer answered, filtered or sorted by. Adding a field with the same name later shows them again.`,
    );
  }
  for (const change of changedTypes) {
    notes.push(
      `Field "${change.field}" changes from ${change.from} to ${change.to}: stored values are not converted and are answered as they are until each record is written again.`,
    );
  }
  for (const field of uniqueIndexesCreated) notes.push(`Field "${field}" becomes unique: an index is created; it fails if records already share a value.`);
  for (const field of uniqueIndexesDropped) notes.push(`Field "${field}" is no longer unique: its index is dropped.`);
  for (const field of fieldIndexesCreated) notes.push(`Field "${field}" is indexed: the index is built now (about a second per 100,000 records).`);
  for (const field of fieldIndexesDropped) notes.push(`Field "${field}" is no longer indexed: its index is dropped, and filters or sorts on it read the whole collection again.`);
  return {
    addedFields,
    removedFields,
    changedTypes,
    uniqueIndexesCreated,
    uniqueIndexesDropped,
    fieldIndexesCreated,
    fieldIndexesDropped,
    requiresConfirmation: removedFields.length > 0 || changedTypes.length > 0,
    notes,
  };
}
