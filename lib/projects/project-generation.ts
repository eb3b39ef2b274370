import { getConfig } from "@/lib/config";
import { getKv } from "@/lib/kv/get-kv";
import type { Kv, KvPubSub } from "@/lib/kv/kv";

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
const holder = globalThis as typeof globalThis & {
  __flowpointLocalGenerationBumps?: Map<string, number>;
  __flowpointGenerationWatches?: WeakMap<Kv, GenerationWatch | null>;
};
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

/** Every bump is announced here, after the counter moved: instances that reuse reads drop them. */
const BUMP_CHANNEL = "project-generation";
/**
 * A watched read is asked again after this long all the same: a bump whose message was dropped (its
 * publish failed while the subscription stayed up) reaches the watching instances within it.
 */
const WATCHED_READ_MAX_AGE_MS = 1000;

/** This instance's subscription to the bump messages, and when each project's last one came. */
interface GenerationWatch {
  pubsub: KvPubSub & Required<Pick<KvPubSub, "listeningSince">>;
  messageAt: Map<string, number>;
  /** When messageAt was last emptied (it keeps at most MAX_LOCAL_ENTRIES projects). */
  clearedAt: number;
}

/** Per kv tier (tests swap it); null where nothing is watched: no pub/sub that tells when it listens, or a serverless host. */
const watches = (holder.__flowpointGenerationWatches ??= new WeakMap<Kv, GenerationWatch | null>());

function generationWatch(kv: Kv): GenerationWatch | null {
  const known = watches.get(kv);
  if (known !== undefined) return known;
  const pubsub = kv.pubsub;
  // A serverless function is frozen between requests: what it would miss meanwhile is not worth a connection each.
  if (!pubsub?.listeningSince || getConfig().serverless) {
    watches.set(kv, null);
    return null;
  }
  const watch: GenerationWatch = { pubsub: pubsub as GenerationWatch["pubsub"], messageAt: new Map(), clearedAt: 0 };
  watches.set(kv, watch);
  void pubsub.subscribe(BUMP_CHANNEL, (projectId) => {
    const now = Date.now();
    if (watch.messageAt.size >= MAX_LOCAL_ENTRIES) {
      watch.messageAt.clear();
      watch.clearedAt = now;
    }
    watch.messageAt.set(projectId, now);
  });
  return watch;
}

/**
 * Whether a shared read begun at `readAt` is still the current counter: the bump messages have been
 * heard without a break since before it began, and none for this project came since it began. The
 * milliseconds of a tie count against the read. After the watch's messages were cleared (too many
 * projects), reads begun before that are not trusted either.
 */
function watchedReadHolds(projectId: string, readAt: number, now: number): boolean {
  if (now - readAt > WATCHED_READ_MAX_AGE_MS) return false;
  const watch = generationWatch(getKv());
  const since = watch?.pubsub.listeningSince(BUMP_CHANNEL) ?? null;
  if (!watch || since === null || readAt <= since) return false;
  const messageAt = watch.messageAt.get(projectId);
  return messageAt === undefined ? readAt > watch.clearedAt : readAt > messageAt;
}

export async function bumpProjectGeneration(projectId: string): Promise<void> {
  bumpLocally(projectId);
  const kv = getKv();
  await kv.cache.incr(generationKey(projectId));
  // Awaited, so that once the change is answered, every watching instance has the message in hand.
  await kv.pubsub?.publish(BUMP_CHANNEL, projectId);
}

/** The shared counter as last read (`readAt`: when the read began), per project, for readers that accept it slightly old. */
const sharedReads = new Map<string, { value: string; readAt: number; answered: boolean }>();
/** What a read answers when the store could not be asked (never a counter's value). */
const UNANSWERED = "unanswered";

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
 * `watched`: a read is reused while this instance hears every bump's message (Redis pub/sub) and
 * none has come for the project since the read began, for at most a second: API key calls, so that
 * a records API write waits for no round trip and a change made on another instance — a key
 * revoked — still counts for the next call (its bump awaits the publish). Without a subscription
 * that says it listens (memory, Upstash, serverless hosts, Redis reconnecting), the counter is read.
 */
export async function readProjectGeneration(projectId: string, options: { sharedMaxAgeMs?: number; watched?: boolean } = {}): Promise<string> {
  const local = localBumps.get(projectId) ?? 0;
  const recent = sharedReads.get(projectId);
  if (recent) {
    const now = Date.now();
    if (options.sharedMaxAgeMs && now - recent.readAt <= options.sharedMaxAgeMs) return `${recent.value}.${local}`;
    if (options.watched && recent.answered && watchedReadHolds(projectId, recent.readAt, now)) return `${recent.value}.${local}`;
  } else if (options.watched) {
    // Subscribes before the first read, so that the read can be trusted once the subscription is confirmed.
    generationWatch(getKv());
  }
  const lastRead = recent?.value ?? null;
  const readAt = Date.now();
  const answer = await getKv().cache.get(generationKey(projectId), { whenUnavailable: UNANSWERED });
  const answered = answer !== UNANSWERED;
  const shared = (answered ? answer : lastRead) ?? "0";
  if (sharedReads.size >= MAX_LOCAL_ENTRIES) sharedReads.clear();
  // An unanswered read keeps the value last read for background work, never for watched reads.
  sharedReads.set(projectId, { value: shared, readAt, answered });
  return `${shared}.${localBumps.get(projectId) ?? 0}`;
}
