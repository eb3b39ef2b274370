import { getKv } from "@/lib/kv/get-kv";

/**
 * A per-project counter in the shared key-value store, bumped on every change the invocation hot
 * path depends on (endpoints, schemas, project settings). Instances
 * compare it with the generation of their in-process definitions cache on each call, so an edit or
 * a disable is visible to the very next call on every instance. Response cache entries are keyed by
 * the endpoint's version, so an edit orphans them everywhere at once.
 */
function generationKey(projectId: string): string {
  return `prj-gen:${projectId}`;
}

export async function bumpProjectGeneration(projectId: string): Promise<void> {
  await getKv().cache.incr(generationKey(projectId));
}

/**
 * The current generation; "0" before any change. While the store is unreachable this also reads
 * "0" (and bumps are lost), so in-process caches additionally expire on their own (see
 * lib/endpoints/invoke/project-runtime.ts).
 */
export async function readProjectGeneration(projectId: string): Promise<string> {
  return (await getKv().cache.get(generationKey(projectId))) ?? "0";
}
