import { inArray } from "drizzle-orm";
import { flushWhenSettling, trackAfterResponse } from "@/lib/http/after-response";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";

/**
 * A key's `lastUsedAt` is recorded at most once a minute per key and process, off the request's
 * path, and the keys used within a second share one UPDATE. Callers that rotate over many keys (the
 * automation benchmark's 375) used to send one statement per key, every minute all at once, queued
 * on the platform pool ahead of the runtime reloads that calls wait for. A graceful shutdown (or a
 * test settling its background work) writes what is gathered at once.
 */
const PRECISION_MS = 60_000;
const GATHER_MS = 1_000;
const MAX_IDS_PER_UPDATE = 1_000;
const MAX_REMEMBERED_KEYS = 10_000;

interface KeyUses {
  /** When this process last recorded each key's use (or gathered it to be recorded). */
  recordedAt: Map<string, number>;
  gathered: { keyIds: Set<string>; timer: ReturnType<typeof setTimeout> } | null;
}

/**
 * On globalThis: `npm start` serves records API calls both through Next's bundles and its own, each
 * with a copy of this module, and the flush registered for settling is one per label.
 */
const uses = ((globalThis as Record<symbol, KeyUses | undefined>)[Symbol.for("flowpoint.apiKeyUses")] ??= { recordedAt: new Map(), gathered: null });

flushWhenSettling("API key last-used update", writeGatheredUses);

export function recordApiKeyUse(keyId: string): void {
  const now = Date.now();
  if ((uses.recordedAt.get(keyId) ?? 0) > now - PRECISION_MS) return;
  if (uses.recordedAt.size >= MAX_REMEMBERED_KEYS) uses.recordedAt.clear();
  uses.recordedAt.set(keyId, now);
  if (uses.gathered) {
    uses.gathered.keyIds.add(keyId);
    return;
  }
  const timer = setTimeout(() => void trackAfterResponse(writeGatheredUses(), "API key last-used update"), GATHER_MS);
  timer.unref?.();
  uses.gathered = { keyIds: new Set([keyId]), timer };
}

/** Writes the gathered uses; a key whose UPDATE failed is tried again at its next use. */
async function writeGatheredUses(): Promise<void> {
  const { gathered } = uses;
  if (!gathered) return;
  uses.gathered = null;
  clearTimeout(gathered.timer);
  const keyIds = [...gathered.keyIds];
  const usedAt = new Date();
  for (let start = 0; start < keyIds.length; start += MAX_IDS_PER_UPDATE) {
    const batch = keyIds.slice(start, start + MAX_IDS_PER_UPDATE);
    try {
      const db = await getPlatformDb();
      await db.update(apiKeys).set({ lastUsedAt: usedAt }).where(inArray(apiKeys.id, batch));
    } catch (error) {
      for (const keyId of batch) uses.recordedAt.delete(keyId);
      log.warn("API key last-used times could not be recorded: the next use tries again", { keys: batch.length, error });
    }
  }
}
