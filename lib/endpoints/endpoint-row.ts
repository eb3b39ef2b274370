import type { endpoints } from "@/lib/platform-db/schema";
import type { EndpointDefinition, EndpointInput } from "./endpoint-definition";

export type EndpointRow = typeof endpoints.$inferSelect;

/** The jsonb `definition` column holds everything but the columns that identify and index the endpoint. */
export function toDefinitionColumn(input: EndpointInput): Record<string, unknown> {
  return {
    auth: input.auth,
    authSchema: input.authSchema,
    allowedOrigins: input.allowedOrigins,
    group: input.group,
    cacheSeconds: input.cacheSeconds,
    steps: input.steps,
    response: input.response,
    input: input.input,
  };
}

export function toEndpointDefinition(row: EndpointRow): EndpointDefinition {
  const definition = row.definition as Omit<EndpointInput, "name" | "method" | "slug" | "enabled">;
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    method: row.method,
    slug: row.slug,
    auth: definition.auth,
    authSchema: definition.authSchema ?? null,
    allowedOrigins: definition.allowedOrigins ?? [],
    group: definition.group ?? null,
    cacheSeconds: definition.cacheSeconds ?? 0,
    steps: definition.steps ?? [],
    response: definition.response,
    input: definition.input ?? null,
    enabled: row.enabled,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The portable shape (export/import, test runs): the definition without server-assigned fields. */
export function toEndpointInput(definition: EndpointDefinition): EndpointInput {
  const { id: _id, projectId: _projectId, version: _version, createdAt: _createdAt, updatedAt: _updatedAt, ...input } = definition;
  return input;
}
