import { parseEnvelope } from "./envelope";
import { loadEncryptionKeys } from "./encryption-keys";

/** True when the envelope was written with a key other than the newest (rotate it with reencryptSecret). */
export function needsReencryption(envelope: string): boolean {
  return parseEnvelope(envelope).keyId !== loadEncryptionKeys().currentKeyId;
}
