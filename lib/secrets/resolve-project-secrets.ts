import { eq } from "drizzle-orm";
import { decryptSecret } from "@/lib/crypto/secrets";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projectSecrets } from "@/lib/platform-db/schema";
import { readProjectGeneration } from "@/lib/projects/project-generation";
import { secretEnvelopeScope } from "./secret-envelope-scope";

/**
 * A project's envelopes (never plaintext) cached in process per project and checked against the
 * project's generation, which every secret change bumps: a rotation or deletion is seen by the
 * next run on every instance. The age limit bounds staleness while the key-value store is down.
 */
const MAX_AGE_MS = 30_000;
const MAX_PROJECTS = 5_000;

interface CachedEnvelopes {
  generation: string;
  loadedAt: number;
  envelopes: ReadonlyMap<string, string>;
}

const cache = new Map<string, CachedEnvelopes>();

async function projectEnvelopes(projectId: string): Promise<ReadonlyMap<string, string>> {
  const generation = await readProjectGeneration(projectId);
  const cached = cache.get(projectId);
  if (cached && cached.generation === generation && Date.now() - cached.loadedAt < MAX_AGE_MS) return cached.envelopes;
  const db = await getPlatformDb();
  const rows = await db.select({ name: projectSecrets.name, valueEncrypted: projectSecrets.valueEncrypted }).from(projectSecrets).where(eq(projectSecrets.projectId, projectId));
  const envelopes = new Map(rows.map((row) => [row.name, row.valueEncrypted]));
  if (cache.size >= MAX_PROJECTS && !cache.has(projectId)) cache.delete(cache.keys().next().value!);
  cache.set(projectId, { generation, loadedAt: Date.now(), envelopes });
  return envelopes;
}

/**
 * The decrypted values of the named secrets, for one outbound call. Names the project does not
 * have are left out (the caller reports them); values are decrypted per call, never cached.
 */
export async function resolveProjectSecrets(options: { projectId: string; names: readonly string[] }): Promise<Record<string, string>> {
  if (options.names.length === 0) return {};
  const envelopes = await projectEnvelopes(options.projectId);
  const values: Record<string, string> = {};
  for (const name of new Set(options.names)) {
    const envelope = envelopes.get(name);
    if (envelope !== undefined) values[name] = decryptSecret(envelope, secretEnvelopeScope(options.projectId, name));
  }
  return values;
}
