import { expect } from "vitest";
import { OPENAPI_ENDPOINTS, OPENAPI_SCHEMAS } from "@/lib/openapi/testing/openapi-fixtures";
import type { ProjectApi } from "./project-api";

/** Creates the OpenAPI fixture project's schemas and endpoints (every field type, every endpoint option) through the API. */
export async function seedOpenApiProject(api: ProjectApi): Promise<void> {
  for (const schema of OPENAPI_SCHEMAS) {
    const created = await api.call("POST", "/schemas", schema);
    expect(created.status, `schema ${schema.name}: ${created.text}`).toBe(201);
  }
  for (const endpoint of OPENAPI_ENDPOINTS) {
    const created = await api.call("POST", "/endpoints", endpoint);
    expect(created.status, `endpoint ${endpoint.method} ${endpoint.slug}: ${created.text}`).toBe(201);
  }
}
