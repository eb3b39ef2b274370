import { hkdfSync } from "node:crypto";
import { getAuthSecret } from "@/lib/auth/session";

const MAX_CACHED_KEYS = 10_000;
const keys = new Map<string, { secret: string; key: Uint8Array }>();

/**
 * The HS256 key of a project's end-user tokens: HKDF-SHA256 of the platform secret (NEXTAUTH_SECRET)
 * with info `end-user-tokens:<projectId>`, so a token of one project can never verify for another
 * and no per-project secret has to be stored. Cached per project in process (re-derived if the
 * platform secret changes).
 */
export function getEndUserTokenKey(projectId: string): Uint8Array {
  const secret = getAuthSecret();
  const cached = keys.get(projectId);
  if (cached && cached.secret === secret) return cached.key;
  const key = new Uint8Array(hkdfSync("sha256", secret, "flowpoint", `end-user-tokens:${projectId}`, 32));
  if (keys.size >= MAX_CACHED_KEYS) {
    const oldest = keys.keys().next().value;
    if (oldest !== undefined) keys.delete(oldest);
  }
  keys.set(projectId, { secret, key });
  return key;
}
