import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { describeApiKey, generateApiKey, hashApiKey } from "./api-key-format";

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1, "a name is required").max(100),
  permissions: z
    .array(z.enum(PERMISSIONS, { error: `must be one of ${PERMISSIONS.join(", ")}` }))
    .min(1, "choose at least one permission")
    .transform((list) => [...new Set(list)]),
});

export interface CreatedApiKey {
  id: string;
  /** The full key: shown once, never stored. */
  key: string;
  prefix: string;
  lastFour: string;
  name: string;
  permissions: string[];
  createdAt: Date;
}

export async function createApiKey(options: { projectId: string; input: unknown; createdBy?: string | null }): Promise<CreatedApiKey> {
  const parsed = createApiKeyInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid API key", { issues: issuesFromZod(parsed.error) });
  const key = generateApiKey();
  const { prefix, lastFour } = describeApiKey(key);
  const id = newId("apiKey");
  const db = await getPlatformDb();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id,
      projectId: options.projectId,
      name: parsed.data.name,
      keyHash: hashApiKey(key),
      prefix,
      lastFour,
      permissions: parsed.data.permissions,
      createdBy: options.createdBy ?? null,
    })
    .returning();
  // Project runtimes cache the live keys: the new one should be found there, not looked up per call.
  await bumpProjectGeneration(options.projectId);
  return { id, key, prefix, lastFour, name: parsed.data.name, permissions: parsed.data.permissions, createdAt: row!.createdAt };
}
