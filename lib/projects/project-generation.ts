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

/**
 * Bumps made by this process, counted here as well: a change made on this instance is visible to
 * its next call even when the shared store dropped the bump (unreachable, timed out). Kept on
 * globalThis because Next.js' route bundles and the invocation fast path load this module apart.
 */
const holder = globalThis as typeof globalThis & { __flowpointLocalGenerationBumps?: Map<string, number> };
const localBumps = (holder.__flowpointLocalGenerationBumps ??= new Map<string, number>());
const MAX_LOCAL_ENTRIES = 10_000;

function bumpLocally(projectId: string): void {
  const next = (localBumps.get(projectId) ?? 0) + 1;
  localBumps.delete(projectId);
  if (localBumps.size >= MAX_LOCAL_ENTRIES) {
    // Dropping the oldest project's count changes its generation string, which only costs it one reload.
    localBumps.delete(localBumps.keys().next().value!);
  }
  localBumps.set(projectId, next);
}

export async function bumpProjectGeneration(projectId: string): Promise<void> {
  bumpLocally(projectId);
  await getKv().cache.incr(generationKey(projectId));
}

/** The shared counter as last read, per project, for readers that accept it slightly old. */
const sharedReads = new Map<string, { value: string; readAt: number }>();

/**
 * The current generation: the shared counter ("0" before any change) and this process's own
 * bumps. While the store is unreachable the shared part is the value last read (or "0" when none
 * was): caches loaded for it stay current, so a stall or an outage of the store does not send every
 * project's next call to reload its runtime from the platform database, and the store's return does
 * not send them a second time. Other instances' bumps are not seen meanwhile, so in-process caches
 * additionally expire on their own (see lib/endpoints/invoke/project-runtime.ts).
 *
 * `sharedMaxAgeMs`: background work (automation runs) may reuse a shared counter read that long
 * ago instead of asking the store per job; this process's own bumps always count at once.
 */
export async function readProjectGeneration(projectId: string, options: { sharedMaxAgeMs?: number } = {}): Promise<string> {
  const local = localBumps.get(projectId) ?? 0;
  const recent = options.sharedMaxAgeMs ? sharedReads.get(projectId) : undefined;
  if (recent && Date.now() - recent.readAt <= options.sharedMaxAgeMs!) return `${recent.value}.${local}`;
  const lastRead = sharedReads.get(projectId)?.value ?? null;
  const shared = (await getKv().cache.get(generationKey(projectId), { whenUnavailable: lastRead })) ?? "0";
  if (sharedReads.size >= MAX_LOCAL_ENTRIES) sharedReads.clear();
  sharedReads.set(projectId, { value: shared, readAt: Date.now() });
  return `${shared}.${localBumps.get(projectId) ?? 0}`;
}
