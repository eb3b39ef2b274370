import { createDecipheriv } from "node:crypto";
import { AppError } from "@/lib/errors";
import { additionalData, assertProjectId, parseEnvelope, TAG_BYTES } from "./envelope";
import { loadEncryptionKeys } from "./encryption-keys";

/**
 * Decrypts an envelope written by encryptSecret for the same project. Any failure (unknown key id,
 * another project, tampering, a malformed value) throws AppError("internal"); it never returns an
 * empty or partial value, and the message never contains the secret.
 */
export function decryptSecret(envelope: string, options: { projectId: string }): string {
  assertProjectId(options.projectId);
  const parsed = parseEnvelope(envelope);
  const key = loadEncryptionKeys().keys.get(parsed.keyId);
  if (!key) {
    throw new AppError("internal", `decryption failed for key id ${parsed.keyId}: no such key is configured in ENCRYPTION_KEYS`);
  }
  const ciphertext = parsed.sealed.subarray(0, parsed.sealed.length - TAG_BYTES);
  const tag = parsed.sealed.subarray(parsed.sealed.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, parsed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(parsed.keyId, options.projectId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    // GCM says only "unable to authenticate": wrong project, wrong key material or tampering.
    throw new AppError("internal", `decryption failed for key id ${parsed.keyId}: the value was altered, belongs to another project or the key is wrong`);
  }
}
