import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, isAppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import { toDefinitionColumn, toEndpointDefinition } from "./endpoint-row";
import { listEndpoints } from "./list-endpoints";
import { planEndpointImport, type EndpointImportChange } from "./plan-endpoint-import";
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
  /** True when nothing was written: the answer is what the import would do. */
  dryRun: boolean;
  created: number;
  /** Replaced: stored endpoints with the same method and slug whose definition differs. */
  updated: number;
  /** Stored endpoints the document holds as they are: left alone (no new version). */
  unchanged: number;
  /** Per endpoint of the document, in its order: created, replaced (with the fields that differ) or unchanged. */
  changes: EndpointImportChange[];
  /**
   * The project secrets the imported endpoints use and those this project does not have yet: the
   * import goes through, and steps naming a missing secret fail at run time until it is created.
   */
  secrets: { required: string[]; missing: string[] };
}

function countOf(changes: readonly EndpointImportChange[], action: EndpointImportChange["action"]): number {
  return changes.filter((change) => change.action === action).length;
}

/**
 * Imports an export document: every endpoint is validated first (422 naming `endpoints.<i>.<path>`),
 * then all are written in one transaction, matched by (method, slug): existing ones that differ are
 * replaced, identical ones left alone, new ones created. Nothing is written when anything is
 * invalid, nor with `dryRun`, which answers the same plan (plan-endpoint-import.ts) for a preview.
 */
export async function importEndpoints(options: { projectId: string; document: unknown; dryRun?: boolean }): Promise<ImportEndpointsResult> {
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

  let changes: EndpointImportChange[];
  if (options.dryRun) {
    changes = planEndpointImport(inputs, await listEndpoints({ projectId: options.projectId }));
  } else {
    const db = await getPlatformDb();
    changes = await db.transaction(async (tx) => {
      const rows = await tx.select().from(endpoints).where(eq(endpoints.projectId, options.projectId));
      const plan = planEndpointImport(inputs, rows.map(toEndpointDefinition));
      for (const [index, change] of plan.entries()) {
        const input = inputs[index]!;
        const values = { name: input.name, enabled: input.enabled, definition: toDefinitionColumn(input) };
        if (change.action === "replace") {
          await tx
            .update(endpoints)
            .set({ ...values, version: sql`${endpoints.version} + 1`, updatedAt: new Date() })
            .where(and(eq(endpoints.projectId, options.projectId), eq(endpoints.id, change.endpointId!)));
        } else if (change.action === "create") {
          await tx.insert(endpoints).values({ id: newId("endpoint"), projectId: options.projectId, method: input.method, slug: input.slug, ...values });
        }
      }
      return plan;
    });
    if (changes.some((change) => change.action !== "unchanged")) await bumpProjectGeneration(options.projectId);
  }
  const result = { dryRun: options.dryRun === true, created: countOf(changes, "create"), updated: countOf(changes, "replace"), unchanged: countOf(changes, "unchanged"), changes };
  const required = secretNamesInValue(inputs);
  const existing = new Set(required.length > 0 ? (await listSecrets({ projectId: options.projectId })).map((secret) => secret.name) : []);
  return { ...result, secrets: { required, missing: required.filter((name) => !existing.has(name)) } };
}
