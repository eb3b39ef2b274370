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

/*
 * Stored as one line of JSON with everything but the body, a newline, then the body as it is: a hit
 * parses only the small head (JSON.stringify never writes a raw newline) and answers the body
 * without parsing and re-serializing it. An entry written whole as JSON (before this format) has
 * no newline and is still read.
 */
export async function readCachedResponse(key: string): Promise<CachedResponse | null> {
  const raw = await getKv().cache.get(key);
  if (raw === null) return null;
  try {
    const split = raw.indexOf("\n");
    if (split === -1) return JSON.parse(raw) as CachedResponse;
    const head = JSON.parse(raw.slice(0, split)) as Omit<CachedResponse, "body">;
    return { status: head.status, contentType: head.contentType, headers: head.headers, body: raw.slice(split + 1) };
  } catch {
    return null;
  }
}

export async function storeCachedResponse(key: string, response: CachedResponse, ttlSeconds: number): Promise<void> {
  const head = JSON.stringify({ status: response.status, contentType: response.contentType, headers: response.headers });
  await getKv().cache.set(key, `${head}\n${response.body}`, ttlSeconds);
}

const inFlight = new Map<string, Promise<unknown>>();

/**
 * Produces the answer for a key whose lookup missed, once per instance however many callers missed
 * at once: followers wait for the leader's result. The leader looks in the cache again first,
 * because a caller whose lookup missed just before another flight stored its entry can get here
 * after that flight has ended; it then reuses the entry instead of running the work a second time.
 * (Across instances each may run once; the store then holds one answer.)
 */
export function produceOnMiss<T>(key: string, produce: () => Promise<T>, reuse: (stored: CachedResponse) => T): { leader: boolean; result: Promise<T> } {
  const existing = inFlight.get(key) as Promise<T> | undefined;
  if (existing) return { leader: false, result: existing };
  const result = readCachedResponse(key).then((stored) => (stored ? reuse(stored) : produce()));
  inFlight.set(key, result);
  void result.finally(() => inFlight.delete(key)).catch(() => undefined);
  return { leader: true, result };
}
