import { decryptSecret } from "./decrypt-secret";
import { encryptSecret } from "./encrypt-secret";
import { needsReencryption } from "./needs-reencryption";

/** Rewrites an envelope under the newest key; returns the same string when it already uses it. */
export function reencryptSecret(envelope: string, options: { projectId: string }): string {
  if (!needsReencryption(envelope)) return envelope;
  return encryptSecret(decryptSecret(envelope, options), options);
}
