import { z } from "zod";
import { eq } from "drizzle-orm";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { encryptSecret } from "@/lib/crypto/secrets";
import { maskConnectionString } from "@/lib/log";
import { mailSettingsSchema } from "@/lib/mail/mail-settings";
import { projectDatabaseInput } from "./project-database-input";
import { checkDatabaseDestination } from "./check-database-destination";
import { checkMailDestination } from "./check-mail-destination";
import { toProjectView, type ProjectView } from "./project-view";
import { bumpProjectGeneration } from "./project-generation";
import { attachProjectDatabase } from "./attach-project-database";
import { getProjectOrThrow } from "./get-project-or-throw";

export const updateProjectInput = z
  .object({
    name: z.string().trim().min(1).max(80),
    database: projectDatabaseInput,
    /** null removes the project's mail server: mail then goes to the local mailbox. */
    mail: mailSettingsSchema.nullable(),
    logRetentionDays: z.number().int().min(1).max(365),
    /** Serve the project's OpenAPI document (GET /openapi.json) to anyone, without credentials. */
    openapiPublic: z.boolean(),
  })
  .partial()
  .strict();

/**
 * Changes a project's name, database, mail server, log retention or whether its OpenAPI document is
 * public. Secrets are re-encrypted. A new database is claimed for the project first
 * (`database.takeOver` moves one another project holds).
 */
export async function updateProject(options: { projectId: string; input: unknown }): Promise<ProjectView> {
  const parsed = updateProjectInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid project settings", { issues: issuesFromZod(parsed.error) });
  const { name, database, mail, logRetentionDays, openapiPublic } = parsed.data;
  // Checked before the database is attached: a refused mail host must not leave half the change applied.
  if (mail) await checkMailDestination(mail);
  const changes: Partial<typeof projects.$inferInsert> = { updatedAt: new Date() };
  if (name !== undefined) changes.name = name;
  if (logRetentionDays !== undefined) changes.logRetentionDays = logRetentionDays;
  if (openapiPublic !== undefined) changes.openapiPublic = openapiPublic;
  if (database) {
    await checkDatabaseDestination(database);
    const { workspaceId } = await getProjectOrThrow({ projectId: options.projectId });
    await attachProjectDatabase({ projectId: options.projectId, workspaceId, database });
    changes.databaseKind = database.kind;
    changes.databaseUrlEncrypted = database.kind === "local" ? null : encryptSecret(database.url, { projectId: options.projectId });
    changes.databaseUrlHint = database.kind === "local" ? null : maskConnectionString(database.url);
  }
  if (mail !== undefined) {
    changes.mailSettingsEncrypted = mail === null ? null : encryptSecret(JSON.stringify(mail), { projectId: options.projectId });
  }
  const db = await getPlatformDb();
  const [row] = await db.update(projects).set(changes).where(eq(projects.id, options.projectId)).returning();
  if (!row) throw new AppError("not_found", "project not found");
  await bumpProjectGeneration(options.projectId);
  return toProjectView(row);
}
