import { createCipheriv, randomBytes } from "node:crypto";
import { additionalData, assertProjectId, ENVELOPE_VERSION, formatEnvelope, IV_BYTES } from "./envelope";
import { loadEncryptionKeys } from "./encryption-keys";

/**
 * Encrypts a secret (a connection string, mail settings JSON, ...) with AES-256-GCM under the newest
 * key, bound to its project. Returns the envelope string to store.
 */
export function encryptSecret(plaintext: string, options: { projectId: string }): string {
  assertProjectId(options.projectId);
  const keyring = loadEncryptionKeys();
  const keyId = keyring.currentKeyId;
  const key = keyring.keys.get(keyId);
  if (!key) throw new Error(`encryption key ${keyId} missing from its own keyring`);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(additionalData(keyId, options.projectId));
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return formatEnvelope({ version: ENVELOPE_VERSION, keyId, iv, sealed });
}
