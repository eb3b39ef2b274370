import type { ErrorIssue } from "@/lib/errors";
import { isSystemField } from "@/lib/records/record-names";
import { parseFilterLines } from "./filter-lines";

/**
 * What a step's save-time project checks (`checkWithProject` in its definition) know about the
 * project, and the checks the data steps share. Browser-safe: the facts are loaded by the caller
 * (lib/flow/validate-project-flow.ts reads them from the platform database).
 */

export interface ProjectSchemaSummary {
  kind: string;
  fields: ReadonlyMap<string, { type: string }>;
}

/** The project's schemas by name, as the checks need them (kind and field types only). */
export type ProjectSchemas = ReadonlyMap<string, ProjectSchemaSummary>;

export interface StepProjectContext {
  schemas: ProjectSchemas;
}

/** Fields every auth schema has without declaring them, which steps may filter on and write. */
export const AUTH_BUILT_IN_FIELDS = ["email", "emailVerified"] as const;

/** True when `name` is a schema that holds records (collection or auth), the only kind a flow or trigger may name. */
export function isRecordSchema(schemas: ProjectSchemas, name: string): boolean {
  const kind = schemas.get(name)?.kind;
  return kind === "collection" || kind === "auth";
}

/** The record schema a data step names, or the issue (at `schema`) saying there is none. */
export function recordSchemaOf(project: StepProjectContext, name: string): { schema: ProjectSchemaSummary } | { issues: ErrorIssue[] } {
  const schema = project.schemas.get(name);
  if (!schema || !isRecordSchema(project.schemas, name)) return { issues: [{ path: "schema", message: `the schema "${name}" does not exist` }] };
  return { schema };
}

/** One issue (at `path`) per name that is neither a system field, a field of the schema, nor an auth built-in of an auth schema. */
export function unknownFieldIssues(names: readonly string[], schema: ProjectSchemaSummary, path: string, what: string): ErrorIssue[] {
  const builtIn = (name: string) => schema.kind === "auth" && (AUTH_BUILT_IN_FIELDS as readonly string[]).includes(name);
  return names
    .filter((name) => !isSystemField(name) && !schema.fields.has(name) && !builtIn(name))
    .map((name) => ({ path, message: `${what} "${name}" is not a field of the schema` }));
}

/** The unknown fields of filter lines (at `filters`); lines that do not parse are the shape check's to report. */
export function filterFieldIssues(filters: string, schema: ProjectSchemaSummary): ErrorIssue[] {
  const parsed = parseFilterLines(filters);
  return parsed.ok
    ? unknownFieldIssues(
        parsed.filters.map((filter) => filter.field),
        schema,
        "filters",
        "filter field",
      )
    : [];
}
