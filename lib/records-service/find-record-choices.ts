import { isValidRecordId } from "@/lib/records/record-names";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { indexSearchOnFirstUse } from "./index-search-on-first-use";
import { DEFAULT_SORT, LIST_QUERY_LIMITS, searchableFields } from "./parse-list-query";
import { createRecordPresenter, type PublicRecord } from "./present-record";
import { assertSchemaHasRecords, operationOptions, type RecordServiceOptions } from "./record-service-options";

/** A related record as a picker lists it: its id and a few words that tell it apart. */
export interface RecordChoice {
  id: string;
  /** The record's first name-like text (`title`, `name`, `email`, ...), else its id. */
  label: string;
  /** Up to two more short values, for records whose labels repeat. */
  detail: string;
}

export interface FindRecordChoicesOptions extends RecordServiceOptions {
  /** Text searched in the schema's text fields (case-insensitive substring); an exact record id also finds that record. Empty: the newest records. */
  search?: string;
  /** Records wanted by id (the ones a form already points at); answered in this order, missing ones left out. */
  ids?: readonly string[];
  /** How many search matches at most (default 8, at most 20). */
  limit?: number;
}

const LABEL_NAMES = ["title", "name", "label", "displayName", "username", "email", "slug", "handle", "subject", "heading"];
const LABEL_TYPES = new Set<FieldDefinition["type"]>(["string", "email", "text", "url", "enum", "integer", "number", "datetime"]);
const MAX_CHOICES = 20;
const MAX_IDS = 1_000;
const MAX_LABEL_LENGTH = 80;

function shorten(text: string): string {
  return text.length > MAX_LABEL_LENGTH ? `${text.slice(0, MAX_LABEL_LENGTH - 1)}…` : text;
}

/** The label and detail of a record of `schema`, from its name-like fields first, then its other short fields in declared order. */
export function recordChoiceOf(schema: Pick<SchemaDefinition, "kind" | "fields">, record: PublicRecord): RecordChoice {
  const fields = effectiveFields(schema).filter((field) => LABEL_TYPES.has(field.type));
  const rank = (field: FieldDefinition) => {
    const position = LABEL_NAMES.indexOf(field.name);
    return position === -1 ? LABEL_NAMES.length : position;
  };
  const ordered = [...fields].sort((a, b) => rank(a) - rank(b));
  const texts = ordered
    .map((field) => record[field.name])
    .filter((value): value is string | number => (typeof value === "string" && value.trim() !== "") || typeof value === "number")
    .map((value) => shorten(String(value).replace(/\s+/g, " ").trim()));
  const [label, ...rest] = texts;
  return { id: record.id, label: label ?? record.id, detail: rest.slice(0, 2).join(" · ") };
}

/**
 * The records a relation picker offers: search matches (newest first) and/or the records of the
 * given ids, each as a RecordChoice; never more of a record than its short text fields (an auth
 * schema's password hash and tokens are not among a record's public fields). A schema without text
 * fields is searched by exact id only.
 */
export async function findRecordChoices(options: FindRecordChoicesOptions): Promise<RecordChoice[]> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const present = createRecordPresenter(schema, schemas);
  const limit = Math.min(Math.max(1, options.limit ?? 8), MAX_CHOICES);
  const search = (options.search ?? "")
    .trim()
    .slice(0, LIST_QUERY_LIMITS.maxSearchLength)
    .replace(/\u0000/g, "");
  const ids = [...new Set(options.ids ?? [])].filter((id) => isValidRecordId(id)).slice(0, MAX_IDS);
  const exactId = search !== "" && isValidRecordId(search) ? [search] : [];

  const byId = ids.length + exactId.length === 0 ? [] : await store.findByIds(schema.name, [...exactId, ...ids], operationOptions(signal));
  const found = new Map(byId.map((record) => [record.id, present(record)]));
  const choices: RecordChoice[] = [];
  const seen = new Set<string>();
  const add = (record: PublicRecord | undefined) => {
    if (!record || seen.has(record.id)) return;
    seen.add(record.id);
    choices.push(recordChoiceOf(schema, record));
  };
  for (const id of ids) add(found.get(id));
  if (options.search === undefined) return choices;

  for (const id of exactId) add(found.get(id));
  const fields = searchableFields(schema);
  if (search === "" || fields.length > 0) {
    const searched = search === "" ? undefined : { text: search, fields };
    indexSearchOnFirstUse(store, schema, searched);
    const matches = await store.find(schema.name, {
      ...(searched ? { search: searched } : {}),
      sort: [...DEFAULT_SORT],
      limit,
      ...operationOptions(signal),
    });
    for (const record of matches) add(present(record));
  }
  return choices;
}
