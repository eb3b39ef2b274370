/** Hard limits of field values and definitions; a field's own min/max can only narrow them. */
export const FIELD_LIMITS = {
  /** `string` is a short value (titles, codes, slugs); longer prose is `text` or `richtext`. */
  stringMaxLength: 2_000,
  textMaxLength: 1_000_000,
  emailMaxLength: 254,
  urlMaxLength: 2_048,
  /** Text values of unique fields: index entries are bounded (PostgreSQL btree rows ≤ 2704 bytes, 4 bytes per character at worst). */
  uniqueTextLength: 500,
  fieldsPerSchema: 200,
  enumValues: 200,
  enumValueLength: 200,
  /** Items in a many relation, a repeatable component or a dynamic zone. */
  items: 1_000,
  /** Record and file ids: letters, digits, "_" and "-". */
  idLength: 128,
  jsonDepth: 32,
  fileMaxBytes: 1024 * 1024 * 1024,
} as const;
