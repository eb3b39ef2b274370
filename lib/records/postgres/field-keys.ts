/**
 * The expressions a field is sorted by, shared by ORDER BY, the conditions written for indexed
 * fields and the index an `indexed` field gets: PostgreSQL uses an expression index only for the
 * very same expressions, so they are written in one place.
 *
 * Field names are checked against ^[A-Za-z_][A-Za-z0-9_]*$ before they get here, so they are
 * written into the SQL as literals.
 */

/**
 * Text longer than this many characters is indexed by its prefix: a btree entry must stay under
 * ~2,700 bytes (four bytes per character at most, plus the other keys). Sorting by the prefix and
 * then by the whole text gives exactly the order of the whole text.
 */
export const TEXT_PREFIX_LENGTH = 400;

export function jsonOf(field: string): string {
  return `(doc->'${field}')`;
}

export function textOf(field: string): string {
  return `(doc->>'${field}')`;
}

/** MongoDB's order across types: missing/null 0, numbers 1, text 2, objects 3, arrays 4, booleans 5. */
export function typeRankKey(field: string): string {
  return `(CASE jsonb_typeof(${jsonOf(field)}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END)`;
}

export const TYPE_RANK = { nullish: 0, number: 1, string: 2, boolean: 5 } as const;

/** The value of a number (numeric, so 1 = 1.0), else NULL. */
export function numberKey(field: string): string {
  return `(CASE WHEN jsonb_typeof(${jsonOf(field)}) = 'number' THEN ${textOf(field)}::numeric END)`;
}

/** The first TEXT_PREFIX_LENGTH characters of a text, else NULL; compared byte-wise. */
export function textPrefixKey(field: string): string {
  return `left(CASE WHEN jsonb_typeof(${jsonOf(field)}) = 'string' THEN ${textOf(field)} END, ${TEXT_PREFIX_LENGTH}) COLLATE "C"`;
}

/** The whole text, else NULL; compared byte-wise. */
export function textKey(field: string): string {
  return `CASE WHEN jsonb_typeof(${jsonOf(field)}) = 'string' THEN ${textOf(field)} END COLLATE "C"`;
}

/** Objects, arrays and booleans compare as jsonb; missing and null stay equal (as in MongoDB). */
export function otherKey(field: string): string {
  return `CASE WHEN jsonb_typeof(${jsonOf(field)}) IN ('object', 'array', 'boolean') THEN ${jsonOf(field)} END`;
}

/** Every sort key of a field, in order. The first three lead the columns of its field index. */
export function sortKeys(field: string): string[] {
  return [typeRankKey(field), numberKey(field), textPrefixKey(field), textKey(field), otherKey(field)];
}

/** 'false' or 'true' for a boolean (in that order, as jsonb orders them), else NULL. */
export function booleanKey(field: string): string {
  return `(CASE WHEN jsonb_typeof(${jsonOf(field)}) = 'boolean' THEN ${textOf(field)} END) COLLATE "C"`;
}

/**
 * Whether a value is told apart from every other value by typeRank, numberKey, textPrefixKey and
 * booleanKey alone: missing, null, numbers, booleans and text shorter than the prefix. Records
 * sharing those keys are then equal in the field, and are ordered by the tie-breakers alone.
 * Whether a value is plain is the same for every record sharing its keys: a text whose prefix is
 * shorter than TEXT_PREFIX_LENGTH is that whole text; objects and arrays are never plain.
 */
function isPlainValue(field: string): string {
  return (
    `(jsonb_typeof(${jsonOf(field)}) IS NULL OR jsonb_typeof(${jsonOf(field)}) IN ('null', 'number', 'boolean') ` +
    `OR (jsonb_typeof(${jsonOf(field)}) = 'string' AND char_length(${textOf(field)}) < ${TEXT_PREFIX_LENGTH}))`
  );
}

/** The record's createdAt when its value of `field` is plain (isPlainValue), else NULL; compared byte-wise as the default order does. */
export function plainTieCreatedAtKey(field: string): string {
  return `(CASE WHEN ${isPlainValue(field)} THEN (doc->>'createdAt') END) COLLATE "C"`;
}

/** The record's id when its value of `field` is plain (isPlainValue), else NULL. */
export function plainTieIdKey(field: string): string {
  return `(CASE WHEN ${isPlainValue(field)} THEN id END) COLLATE "C"`;
}

/**
 * The sort keys of a field followed by the default tie-breakers (createdAt, id ascending), written
 * so that an index can hold every key that decides the order of almost every record: the leading
 * keys, the boolean, then createdAt and id of plain values. Records whose value is not plain (long
 * text, objects, arrays) tie on all of those and are ordered by the remaining keys, exactly as
 * sortKeys() and the tie-breakers order them. `direction` is the field's direction; the tie-breakers
 * stay ascending.
 */
export function sortKeysWithTieBreakers(field: string, direction: "ASC" | "DESC"): string[] {
  return [
    `${typeRankKey(field)} ${direction}`,
    `${numberKey(field)} ${direction}`,
    `${textPrefixKey(field)} ${direction}`,
    `${booleanKey(field)} ${direction}`,
    `${plainTieCreatedAtKey(field)} ASC`,
    `${plainTieIdKey(field)} ASC`,
    `${textKey(field)} ${direction}`,
    `${otherKey(field)} ${direction}`,
    `(doc->>'createdAt') COLLATE "C" ASC`,
    "id ASC",
  ];
}

/**
 * The column lists of an `indexed` field's two indexes. Both lead with the keys its conditions are
 * written in (build-where.ts) and hold the tie-breakers of plain values, so a sort on the field
 * reads only the records of the page, however few distinct values the field has. A btree is read
 * in one direction or the other, and the tie-breakers are ascending whichever way the field is
 * sorted: one index serves ascending sorts, the other, with the tie-breakers stored descending,
 * descending sorts (read backwards).
 */
export function fieldIndexColumns(field: string, order: "ascending" | "descending"): string {
  const tieDirection = order === "ascending" ? "" : " DESC";
  return [
    typeRankKey(field),
    numberKey(field),
    textPrefixKey(field),
    booleanKey(field),
    `${plainTieCreatedAtKey(field)}${tieDirection}`,
    `${plainTieIdKey(field)}${tieDirection}`,
  ].join(", ");
}

/**
 * The text a search over `fields` looks in, as one expression a trigram index can hold: each
 * field's text (values of other types left out, as search skips them), one line per field. A search
 * match in any field is a match in it, so it narrows a search without losing a record; a match that
 * spans two lines is not a match of any field, which the search's own conditions then drop.
 */
export function searchedText(fields: readonly string[]): string {
  // id is COLLATE "C"; the fields' text has the default collation, which ILIKE must see alone.
  const parts = fields.map((field) => (field === "id" ? `(id COLLATE "default")` : `coalesce(CASE WHEN jsonb_typeof(${jsonOf(field)}) = 'string' THEN ${textOf(field)} END, '')`));
  return `(${parts.join(` || E'\\n' || `)})`;
}
