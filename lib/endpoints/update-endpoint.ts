import { and, eq, sql } from "drizzle-orm";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import { endpointPatchSchema } from "./endpoint-definition";
import { toDefinitionColumn, toEndpointDefinition, toEndpointInput } from "./endpoint-row";
import { validateEndpointOrThrow } from "./validate-endpoint";
import { getEndpointOrThrow } from "./get-endpoint-or-throw";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { duplicateEndpointError, type SavedEndpoint } from "./create-endpoint";

/**
 * Partial update (enabled too). The merged definition is validated as a whole; the version goes up,
 * which orphans the endpoint's cached responses on every instance, and the project's generation is
 * bumped so every instance reloads the definition on its next call. Answers the placeholder warnings
 * of the merged definition beside it (they never block the save).
 */
export async function updateEndpoint(options: { projectId: string; endpointId: string; patch: unknown }): Promise<SavedEndpoint> {
  const patch = endpointPatchSchema.safeParse(options.patch);
  if (!patch.success) throw new AppError("validation_failed", "invalid endpoint", { issues: issuesFromZod(patch.error) });
  const current = await getEndpointOrThrow(options);
  const input = await validateEndpointOrThrow({ projectId: options.projectId, input: { ...toEndpointInput(current), ...(options.patch as object) } });
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .update(endpoints)
      .set({
        name: input.name,
        method: input.method,
        slug: input.slug,
        enabled: input.enabled,
        definition: toDefinitionColumn(input),
        version: sql`${endpoints.version} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(endpoints.id, options.endpointId), eq(endpoints.projectId, options.projectId)))
      .returning();
    if (!row) throw new AppError("not_found", "endpoint not found");
    await bumpProjectGeneration(options.projectId);
    return { ...toEndpointDefinition(row), warnings: input.warnings };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEndpointError(input.method, input.slug);
    throw error;
  }
}
