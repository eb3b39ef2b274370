import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import type { EndpointDefinition } from "./endpoint-definition";
import { toDefinitionColumn, toEndpointDefinition } from "./endpoint-row";
import type { TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import { validateEndpointOrThrow } from "./validate-endpoint";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

export function duplicateEndpointError(method: string, slug: string): AppError {
  return new AppError("conflict", `an endpoint ${method} ${slug} already exists in this project`, {
    field: "slug",
    issues: [{ path: "slug", message: `${method} ${slug} is already taken` }],
  });
}

/**
 * A saved endpoint as the create and update services answer it: the definition plus the
 * placeholders that will not resolve (`warnings`, empty when there are none). The management API
 * answers it as it is; the extra field is all older clients see change.
 */
export type SavedEndpoint = EndpointDefinition & { warnings: TemplateWarning[] };

export async function createEndpoint(options: { projectId: string; input: unknown }): Promise<SavedEndpoint> {
  const input = await validateEndpointOrThrow(options);
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .insert(endpoints)
      .values({
        id: newId("endpoint"),
        projectId: options.projectId,
        name: input.name,
        method: input.method,
        slug: input.slug,
        enabled: input.enabled,
        definition: toDefinitionColumn(input),
      })
      .returning();
    await bumpProjectGeneration(options.projectId);
    return { ...toEndpointDefinition(row!), warnings: input.warnings };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEndpointError(input.method, input.slug);
    throw error;
  }
}
