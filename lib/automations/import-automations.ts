import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, isAppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { secretNamesInValue } from "@/lib/flow/secret-references";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { listSecrets } from "@/lib/secrets/list-secrets";
import { toAutomationColumns } from "./automation-row";
import { rethrowDuplicateForm } from "./create-automation";
import { validateAutomationOrThrow, type ValidatedAutomationInput } from "./validate-automation";

const importDocument = z.object({
  format: z.literal("flowpoint.automations").optional(),
  version: z.literal(1).optional(),
  automations: z.array(z.unknown()).max(500),
  /** Informational (what the export listed); the automations themselves say which secrets they use. */
  secrets: z.array(z.string()).max(500).optional(),
});

export interface ImportAutomationsResult {
  created: number;
  updated: number;
  /**
   * The project secrets the imported automations use and those this project does not have yet: the
   * import goes through, and steps naming a missing secret fail at run time until it is created.
   */
  secrets: { required: string[]; missing: string[] };
}

function duplicateIssues(inputs: ReadonlyArray<{ index: number; input: ValidatedAutomationInput }>): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const names = new Set<string>();
  const forms = new Set<string>();
  for (const { index, input } of inputs) {
    if (names.has(input.name)) issues.push({ path: `automations.${index}.name`, message: `"${input.name}" appears more than once` });
    names.add(input.name);
    if (input.trigger.type !== "form") continue;
    if (forms.has(input.trigger.form)) issues.push({ path: `automations.${index}.trigger.form`, message: `the form "${input.trigger.form}" appears more than once` });
    forms.add(input.trigger.form);
  }
  return issues;
}

/**
 * Imports an export document: every automation is validated first (422 naming
 * `automations.<i>.<path>`), then all are written in one transaction, matched by name: an existing
 * automation of that name (the oldest, if several share it) is replaced, others are created. A form
 * slug held by another automation of the project answers 409 naming `automations.<i>.trigger.form`.
 * Nothing is written when anything is refused.
 */
export async function importAutomations(options: { projectId: string; input: unknown }): Promise<ImportAutomationsResult> {
  const parsed = importDocument.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid import document", { issues: issuesFromZod(parsed.error) });
  const issues: ErrorIssue[] = [];
  const inputs: Array<{ index: number; input: ValidatedAutomationInput }> = [];
  for (const [index, candidate] of parsed.data.automations.entries()) {
    try {
      inputs.push({ index, input: await validateAutomationOrThrow({ projectId: options.projectId, input: candidate }) });
    } catch (error) {
      if (!isAppError(error) || !error.issues) throw error;
      issues.push(...error.issues.map((issue) => ({ path: `automations.${index}.${issue.path}`.replace(/\.$/, ""), message: issue.message })));
    }
  }
  issues.push(...duplicateIssues(inputs));
  if (issues.length > 0) throw new AppError("validation_failed", "invalid import document", { issues });

  const db = await getPlatformDb();
  const result = await db.transaction(async (tx) => {
    let created = 0;
    let updated = 0;
    for (const { index, input } of inputs) {
      const columns = toAutomationColumns(input);
      try {
        const [existing] = await tx
          .select({ id: automations.id })
          .from(automations)
          .where(and(eq(automations.projectId, options.projectId), eq(automations.name, input.name)))
          .orderBy(asc(automations.createdAt), asc(automations.id))
          .limit(1);
        if (existing) {
          await tx
            .update(automations)
            .set({ ...columns, version: sql`${automations.version} + 1`, updatedAt: new Date() })
            .where(eq(automations.id, existing.id));
          updated++;
        } else {
          await tx.insert(automations).values({ id: newId("automation"), projectId: options.projectId, ...columns });
          created++;
        }
      } catch (error) {
        rethrowDuplicateForm(error, input, `automations.${index}.trigger.form`);
      }
    }
    return { created, updated };
  });
  await bumpProjectGeneration(options.projectId);
  const required = secretNamesInValue(inputs.map(({ input }) => input));
  const existing = new Set(required.length > 0 ? (await listSecrets({ projectId: options.projectId })).map((secret) => secret.name) : []);
  return { ...result, secrets: { required, missing: required.filter((name) => !existing.has(name)) } };
}
