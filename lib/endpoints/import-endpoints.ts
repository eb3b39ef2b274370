import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, isAppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import { toDefinitionColumn } from "./endpoint-row";
import { validateEndpointOrThrow } from "./validate-endpoint";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { secretNamesInValue } from "@/lib/flow/secret-references";
import { listSecrets } from "@/lib/secrets/list-secrets";
import type { EndpointInput } from "./endpoint-definition";

const importDocument = z.object({
  format: z.literal("flowpoint.endpoints").optional(),
  version: z.literal(1).optional(),
  endpoints: z.array(z.unknown()).max(500),
  /** Informational (what the export listed); the endpoints themselves say which secrets they use. */
  secrets: z.array(z.string()).max(500).optional(),
});

export interface ImportEndpointsResult {
  created: number;
  updated: number;
  /**
   * The project secrets the imported endpoints use and those this project does not have yet: the
   * import goes through, and steps naming a missing secret fail at run time until it is created.
   */
  secrets: { required: string[]; missing: string[] };
}

/**
 * Imports an export document: every endpoint is validated first (422 naming `endpoints.<i>.<path>`),
 * then all are written in one transaction, matched by (method, slug): existing ones are replaced,
 * new ones created. Nothing is written when anything is invalid.
 */
export async function importEndpoints(options: { projectId: string; document: unknown }): Promise<ImportEndpointsResult> {
  const parsed = importDocument.safeParse(options.document);
  if (!parsed.success) throw new AppError("validation_failed", "invalid import document", { issues: issuesFromZod(parsed.error) });
  const issues: ErrorIssue[] = [];
  const inputs: EndpointInput[] = [];
  const seen = new Set<string>();
  for (const [index, candidate] of parsed.data.endpoints.entries()) {
    try {
      const input = await validateEndpointOrThrow({ projectId: options.projectId, input: candidate });
      const identity = `${input.method} ${input.slug}`;
      if (seen.has(identity)) issues.push({ path: `endpoints.${index}.slug`, message: `${identity} appears more than once` });
      seen.add(identity);
      inputs.push(input);
    } catch (error) {
      if (!isAppError(error) || !error.issues) throw error;
      issues.push(...error.issues.map((issue) => ({ path: `endpoints.${index}.${issue.path}`.replace(/\.$/, ""), message: issue.message })));
    }
  }
  if (issues.length > 0) throw new AppError("validation_failed", "invalid import document", { issues });

  const db = await getPlatformDb();
  const result = await db.transaction(async (tx) => {
    let created = 0;
    let updated = 0;
    for (const input of inputs) {
      const values = { name: input.name, enabled: input.enabled, definition: toDefinitionColumn(input) };
      const changed = await tx
        .update(endpoints)
        .set({ ...values, version: sql`${endpoints.version} + 1`, updatedAt: new Date() })
        .where(and(eq(endpoints.projectId, options.projectId), eq(endpoints.method, input.method), eq(endpoints.slug, input.slug)))
        .returning({ id: endpoints.id });
      if (changed.length > 0) {
        updated++;
        continue;
      }
      await tx.insert(endpoints).values({ id: newId("endpoint"), projectId: options.projectId, method: input.method, slug: input.slug, ...values });
      created++;
    }
    return { created, updated };
  });
  await bumpProjectGeneration(options.projectId);
  const required = secretNamesInValue(inputs);
  const existing = new Set(required.length > 0 ? (await listSecrets({ projectId: options.projectId })).map((secret) => secret.name) : []);
  return { ...result, secrets: { required, missing: required.filter((name) => !existing.has(name)) } };
}
