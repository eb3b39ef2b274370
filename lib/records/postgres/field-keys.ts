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

/** Every sort key of a field, in order. The first three are the columns of its field index. */
export function sortKeys(field: string): string[] {
  return [typeRankKey(field), numberKey(field), textPrefixKey(field), textKey(field), otherKey(field)];
}

/** The column list of an `indexed` field's index: the leading sort keys, which serve both its conditions and its sort. */
export function fieldIndexColumns(field: string): string {
  return sortKeys(field).slice(0, 3).join(", ");
}
