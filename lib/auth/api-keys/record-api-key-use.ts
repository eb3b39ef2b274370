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

/** When this process last recorded each key's use (or gathered it to be recorded). */
const recordedAt = new Map<string, number>();
let gathered: { keyIds: Set<string>; timer: ReturnType<typeof setTimeout> } | null = null;

export function recordApiKeyUse(keyId: string): void {
  const now = Date.now();
  if ((recordedAt.get(keyId) ?? 0) > now - PRECISION_MS) return;
  if (recordedAt.size >= MAX_REMEMBERED_KEYS) recordedAt.clear();
  recordedAt.set(keyId, now);
  if (gathered) {
    gathered.keyIds.add(keyId);
    return;
  }
  const timer = setTimeout(() => void trackAfterResponse(writeGatheredUses(), "API key last-used update"), GATHER_MS);
  timer.unref?.();
  gathered = { keyIds: new Set([keyId]), timer };
  flushWhenSettling("API key last-used update", writeGatheredUses);
}

/** Writes the gathered uses; a key whose UPDATE failed is tried again at its next use. */
async function writeGatheredUses(): Promise<void> {
  if (!gathered) return;
  const keyIds = [...gathered.keyIds];
  clearTimeout(gathered.timer);
  gathered = null;
  const usedAt = new Date();
  for (let start = 0; start < keyIds.length; start += MAX_IDS_PER_UPDATE) {
    const batch = keyIds.slice(start, start + MAX_IDS_PER_UPDATE);
    try {
      const db = await getPlatformDb();
      await db.update(apiKeys).set({ lastUsedAt: usedAt }).where(inArray(apiKeys.id, batch));
    } catch (error) {
      for (const keyId of batch) recordedAt.delete(keyId);
      log.warn("API key last-used times could not be recorded: the next use tries again", { keys: batch.length, error });
    }
  }
}
