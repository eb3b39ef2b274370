import { encryptSecret } from "@/lib/crypto/secrets";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import { projectSecrets } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { secretEnvelopeScope } from "./secret-envelope-scope";
import { secretHint } from "./secret-hint";
import { createSecretInput, toSecretSummary, type SecretSummary } from "./secret-input";

/**
 * Stores a new secret, encrypted. An existing name is a conflict (409): replacing a value is an
 * explicit rotation (rotate-secret.ts), never a side effect of creating.
 */
export async function createSecret(options: { projectId: string; input: unknown; createdBy?: string | null }): Promise<SecretSummary> {
  const parsed = createSecretInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid secret", { issues: issuesFromZod(parsed.error) });
  const { name, value } = parsed.data;
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .insert(projectSecrets)
      .values({
        id: newId("secret"),
        projectId: options.projectId,
        name,
        valueEncrypted: encryptSecret(value, secretEnvelopeScope(options.projectId, name)),
        hint: secretHint(value),
        createdBy: options.createdBy ?? null,
      })
      .returning();
    await bumpProjectGeneration(options.projectId);
    return toSecretSummary(row!);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `a secret named ${name} already exists; rotate it to change its value`, { field: "name" });
    }
    throw error;
  }
}
