import { AppError } from "@/lib/errors";
import type { ProjectRuntime, RuntimeAutomations } from "@/lib/endpoints/invoke/project-runtime";
import type { RecordStore } from "@/lib/records/record-store";
import { assertSchemaHasRecords } from "@/lib/records-service/record-service-options";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";

export interface RecordRouteContext {
  store: RecordStore;
  schema: SchemaDefinition;
  schemas: SchemaDefinition[];
  /** The project's record triggers, so that writes find what they trigger without a second lookup. */
  recordTriggers: RuntimeAutomations["records"];
}

/**
 * What every records route needs: the schema named in the URL (404 when the project has none by
 * that name, or when it is a component), the project's schemas (relations, components), its
 * customer database and record triggers, all from the project's runtime cache: no platform query.
 */
export async function loadRecordRouteContext(loadRuntime: () => Promise<ProjectRuntime>, schemaName: string): Promise<RecordRouteContext> {
  const runtime = await loadRuntime();
  const schema = runtime.schemas.find((candidate) => candidate.name === schemaName);
  if (!schema) throw new AppError("not_found", `no schema named "${schemaName}" in this project`);
  assertSchemaHasRecords(schema);
  return { store: runtime.store, schema, schemas: runtime.schemas, recordTriggers: runtime.automations.records };
}

/** Query parameters a route does not know are a 400, so a typo never goes unnoticed. */
export function assertOnlyParameters(params: URLSearchParams, known: readonly string[]): void {
  const issues = [];
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (!known.includes(key)) issues.push({ path: key, message: `is not a known query parameter (${known.join(", ") || "none"})` });
    else if (seen.has(key)) issues.push({ path: key, message: "is given more than once" });
    seen.add(key);
  }
  if (issues.length > 0) throw new AppError("bad_request", issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "), { issues });
}
