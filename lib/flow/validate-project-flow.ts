import { eq } from "drizzle-orm";
import type { ErrorIssue } from "@/lib/errors";
import { validateFlow, type FlowStep } from "@/lib/flow/flow-definition";
import { STEP_REGISTRY } from "@/lib/flow/steps/registry";
import type { ProjectSchemas } from "@/lib/flow/steps/shared/project-checks";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";

/**
 * The save-time checks of a flow that need its project (issue 10): each step kind's
 * `checkWithProject` (in its definition: a data step names a record schema of the project, never a
 * component, and only fields, filters, sort keys and relations that schema has), run here in one
 * loop. Endpoints and automations are saved through the same checks, so a flow valid in one is valid
 * in the other.
 */

export { isRecordSchema, type ProjectSchemas, type ProjectSchemaSummary } from "@/lib/flow/steps/shared/project-checks";

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

/** The issues of parsed steps against the project's schemas, with paths like `steps.2.filters`. */
export function projectFlowIssues(steps: readonly FlowStep[], schemas: ProjectSchemas): ErrorIssue[] {
  const project = { schemas };
  return steps.flatMap((step, index) =>
    (STEP_REGISTRY[step.type].checkWithProject?.(step, project) ?? []).map((issue) => ({
      path: issue.path ? `steps.${index}.${issue.path}` : `steps.${index}`,
      message: issue.message,
    })),
  );
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
