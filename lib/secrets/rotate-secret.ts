import { and, eq } from "drizzle-orm";
import { encryptSecret } from "@/lib/crypto/secrets";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projectSecrets } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { secretEnvelopeScope } from "./secret-envelope-scope";
import { secretHint } from "./secret-hint";
import { rotateSecretInput, secretNameSchema, toSecretSummary, type SecretSummary } from "./secret-input";

/** Replaces the value of an existing secret (404 when there is none); the next run uses the new value. */
export async function rotateSecret(options: { projectId: string; name: string; input: unknown }): Promise<SecretSummary> {
  if (!secretNameSchema.safeParse(options.name).success) throw new AppError("not_found", "secret not found");
  const parsed = rotateSecretInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid secret", { issues: issuesFromZod(parsed.error) });
  const db = await getPlatformDb();
  const [row] = await db
    .update(projectSecrets)
    .set({
      valueEncrypted: encryptSecret(parsed.data.value, secretEnvelopeScope(options.projectId, options.name)),
      hint: secretHint(parsed.data.value),
      updatedAt: new Date(),
    })
    .where(and(eq(projectSecrets.projectId, options.projectId), eq(projectSecrets.name, options.name)))
    .returning();
  if (!row) throw new AppError("not_found", "secret not found");
  await bumpProjectGeneration(options.projectId);
  return toSecretSummary(row);
}
