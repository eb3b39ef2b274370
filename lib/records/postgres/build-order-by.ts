import type { SortSpec } from "../record-store";

function keysFor(field: string): string[] {
  if (field === "id") return ["id"];
  if (field === "createdAt" || field === "updatedAt") return [`(doc->>'${field}') COLLATE "C"`];
  const json = `(doc->'${field}')`;
  // MongoDB's order across types: missing/null, numbers, text, objects, arrays, booleans.
  return [
    `CASE jsonb_typeof(${json}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'boolean' THEN 5 ELSE 0 END`,
    `CASE WHEN jsonb_typeof(${json}) = 'number' THEN (doc->>'${field}')::numeric END`,
    `CASE WHEN jsonb_typeof(${json}) = 'string' THEN (doc->>'${field}') END COLLATE "C"`,
    // Missing and null stay equal here (as in MongoDB); objects, arrays and booleans compare as jsonb.
    `CASE WHEN jsonb_typeof(${json}) IN ('object', 'array', 'boolean') THEN ${json} END`,
  ];
}

/**
 * ORDER BY for a complete sort (see completeSort): numbers numerically, text byte-wise, missing
 * and null first when ascending. createdAt and id use the order index.
 */
export function orderBySql(sort: SortSpec[]): string {
  return sort
    .flatMap((spec) => keysFor(spec.field).map((key) => `${key} ${spec.direction === "asc" ? "ASC" : "DESC"}`))
    .join(", ");
}
