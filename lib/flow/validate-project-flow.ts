import { eq } from "drizzle-orm";
import type { ErrorIssue } from "@/lib/errors";
import { validateFlow, type FlowStep } from "@/lib/flow/flow-definition";
import { parseFilterLines } from "@/lib/flow/steps/shared/filter-lines";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";

/**
 * The save-time checks of a flow that need its project (issue 10): every data step names a record
 * schema of the project (collection or auth, never a component) and only fields, filters, sort keys
 * and relations that schema has. Endpoints and automations are saved through the same checks, so a
 * flow valid in one is valid in the other.
 */

export interface ProjectSchemaSummary {
  kind: string;
  fields: ReadonlyMap<string, { type: string }>;
}

/** The project's schemas by name, as the checks need them (kind and field types only). */
export type ProjectSchemas = ReadonlyMap<string, ProjectSchemaSummary>;

const SYSTEM_FIELDS = new Set(["id", "createdAt", "updatedAt"]);
const AUTH_BUILT_IN_FIELDS = new Set(["email", "emailVerified"]);

export async function loadProjectSchemas(projectId: string): Promise<ProjectSchemas> {
  const db = await getPlatformDb();
  const rows = await db
    .select({ name: schemaDefinitions.name, kind: schemaDefinitions.kind, fields: schemaDefinitions.fields })
    .from(schemaDefinitions)
    .where(eq(schemaDefinitions.projectId, projectId));
  return new Map(
    rows.map((row) => [
      row.name,
      {
        kind: row.kind,
        fields: new Map((row.fields as Array<{ name: string; type: string }>).map((field) => [field.name, { type: field.type }])),
      },
    ]),
  );
}

/** True when `name` is a schema that holds records (collection or auth), the only kind a flow or trigger may name. */
export function isRecordSchema(schemas: ProjectSchemas, name: string): boolean {
  const kind = schemas.get(name)?.kind;
  return kind === "collection" || kind === "auth";
}

function checkFieldNames(names: string[], schema: ProjectSchemaSummary, path: string, what: string, issues: ErrorIssue[]): void {
  for (const name of names) {
    if (!SYSTEM_FIELDS.has(name) && !schema.fields.has(name) && !(schema.kind === "auth" && AUTH_BUILT_IN_FIELDS.has(name))) {
      issues.push({ path, message: `${what} "${name}" is not a field of the schema` });
    }
  }
}

/** The issues of parsed steps against the project's schemas, with paths like `steps.2.filters`. */
export function projectFlowIssues(steps: readonly FlowStep[], schemas: ProjectSchemas): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  steps.forEach((step, index) => {
    if (step.type !== "query" && step.type !== "create" && step.type !== "update") return;
    const schema = schemas.get(step.schema);
    if (!schema || !isRecordSchema(schemas, step.schema)) {
      issues.push({ path: `steps.${index}.schema`, message: `the schema "${step.schema}" does not exist` });
      return;
    }
    if (step.type === "query" || step.type === "update") {
      const parsed = parseFilterLines(step.filters);
      if (parsed.ok) checkFieldNames(parsed.filters.map((filter) => filter.field), schema, `steps.${index}.filters`, "filter field", issues);
    }
    if (step.type === "query") {
      for (const [position, field] of step.expand.entries()) {
        if (schema.fields.get(field)?.type !== "relation") {
          issues.push({ path: `steps.${index}.expand.${position}`, message: `"${field}" is not a relation field of ${step.schema}` });
        }
      }
      if (step.sort) checkFieldNames([step.sort.replace(/^-/, "")], schema, `steps.${index}.sort`, "sort field", issues);
    }
    if (step.type === "create" || step.type === "update") {
      checkFieldNames(Object.keys(step.values), schema, `steps.${index}.values`, "field", issues);
    }
  });
  return issues;
}

export interface ProjectFlowValidation {
  /** The parsed steps when their shape and limits are valid (even if project checks then failed), else null. */
  steps: FlowStep[] | null;
  /** The schemas the checks read, null when they did not run; callers check their own references against them. */
  schemas: ProjectSchemas | null;
  /** Every problem found, with paths like `steps.2.limit`; empty when the flow may be saved. */
  issues: ErrorIssue[];
}

/**
 * The whole save-time check of a flow for a project: its shape and limits (validateFlow), then,
 * when those pass, the schema checks above. `projectChecks: false` skips the second part (a caller
 * whose own definition is already invalid answers with the shape problems alone). The loaded schemas
 * are handed back so a caller's own checks (an end-user endpoint's auth schema, a record trigger's
 * schema) read the same snapshot without a second query.
 */
export async function validateProjectFlow(options: { projectId: string; steps: unknown; projectChecks?: boolean }): Promise<ProjectFlowValidation> {
  const flow = validateFlow(options.steps);
  if (!flow.ok) return { steps: null, schemas: null, issues: flow.issues };
  if (options.projectChecks === false) return { steps: flow.steps, schemas: null, issues: [] };
  const schemas = await loadProjectSchemas(options.projectId);
  return { steps: flow.steps, schemas, issues: projectFlowIssues(flow.steps, schemas) };
}
