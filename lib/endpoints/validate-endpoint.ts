import { eq } from "drizzle-orm";
import { AppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { validateFlow, type FlowStep } from "@/lib/flow/flow-definition";
import { secretPlacementErrorIssues } from "@/lib/flow/secret-references";
import { parseFilterLines } from "@/lib/flow/steps/shared/filter-lines";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";
import { endpointInputSchema, type EndpointInput } from "./endpoint-definition";

interface SchemaSummary {
  kind: string;
  fields: Map<string, { type: string }>;
}

const SYSTEM_FIELDS = new Set(["id", "createdAt", "updatedAt"]);

async function loadSchemaSummaries(projectId: string): Promise<Map<string, SchemaSummary>> {
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

function checkFieldNames(names: string[], schema: SchemaSummary, path: string, what: string, issues: ErrorIssue[]): void {
  for (const name of names) {
    if (!SYSTEM_FIELDS.has(name) && !schema.fields.has(name) && !(schema.kind === "auth" && ["email", "emailVerified"].includes(name))) {
      issues.push({ path, message: `${what} "${name}" is not a field of the schema` });
    }
  }
}

/** The checks that need the project's schemas: each data step names a record schema and its fields. */
function checkStepsAgainstSchemas(steps: FlowStep[], schemas: Map<string, SchemaSummary>, issues: ErrorIssue[]): void {
  steps.forEach((step, index) => {
    if (step.type !== "query" && step.type !== "create" && step.type !== "update") return;
    const schema = schemas.get(step.schema);
    if (!schema || schema.kind === "component") {
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
}

/**
 * Everything checked when an endpoint is saved (422 with the path of each problem): the definition's
 * shape and cross-field rules, the flow (limits, JMESPath compiles, filter lines), the schemas and
 * fields the steps name, and the auth schema of end-user endpoints.
 */
export async function validateEndpointOrThrow(options: { projectId: string; input: unknown }): Promise<EndpointInput & { steps: FlowStep[] }> {
  const parsed = endpointInputSchema.safeParse(options.input);
  const issues: ErrorIssue[] = parsed.success ? [] : issuesFromZod(parsed.error);
  const rawSteps = (options.input as { steps?: unknown } | null)?.steps ?? [];
  const flow = validateFlow(rawSteps);
  if (!flow.ok) issues.push(...flow.issues.filter((issue) => !issues.some((known) => known.path === issue.path)));
  if (parsed.success) {
    // Secrets are read by outbound steps only; a response, input rule or header could echo one (the steps check their own).
    const { steps: _steps, ...rest } = parsed.data as Record<string, unknown>;
    issues.push(...secretPlacementErrorIssues(rest, ""));
  }
  if (parsed.success && flow.ok) {
    const schemas = await loadSchemaSummaries(options.projectId);
    checkStepsAgainstSchemas(flow.steps, schemas, issues);
    if (parsed.data.auth === "end_user" && parsed.data.authSchema && schemas.get(parsed.data.authSchema)?.kind !== "auth") {
      issues.push({ path: "authSchema", message: `"${parsed.data.authSchema}" is not an auth schema of this project` });
    }
  }
  if (issues.length > 0 || !parsed.success || !flow.ok) throw new AppError("validation_failed", "invalid endpoint", { issues });
  return { ...parsed.data, steps: flow.steps };
}
