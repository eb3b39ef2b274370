import { getKv } from "@/lib/kv/get-kv";

/** A cached answer of a public GET endpoint. Only 2xx answers of completed runs are stored. */
export interface CachedResponse {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string;
}

/** Keyed by endpoint, its version (an edit orphans old entries everywhere) and the full query string. */
export function responseCacheKey(endpointId: string, version: number, search: string): string {
  return `resp:${endpointId}:${version}:${search}`;
}

export async function readCachedResponse(key: string): Promise<CachedResponse | null> {
  const raw = await getKv().cache.get(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as CachedResponse;
  } catch {
    return null;
  }
}

export async function storeCachedResponse(key: string, response: CachedResponse, ttlSeconds: number): Promise<void> {
  await getKv().cache.set(key, JSON.stringify(response), ttlSeconds);
}

const inFlight = new Map<string, Promise<unknown>>();

/**
 * Concurrent misses on one key run the work once per instance: followers wait for the leader's
 * result. (Across instances each may run once; the store then holds one answer.)
 */
export function singleFlight<T>(key: string, work: () => Promise<T>): { leader: boolean; result: Promise<T> } {
  const existing = inFlight.get(key) as Promise<T> | undefined;
  if (existing) return { leader: false, result: existing };
  const result = work();
  inFlight.set(key, result);
  void result.finally(() => inFlight.delete(key)).catch(() => undefined);
  return { leader: true, result };
}
