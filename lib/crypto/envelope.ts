import { AppError } from "@/lib/errors";

/**
 * An encrypted secret as stored: `v1:<keyId>:<iv>:<ciphertext+tag>` (base64url parts). It names its
 * key, so rotation never needs a side table, and it is plain ASCII, so it fits a text column.
 */
export interface SecretEnvelope {
  version: "v1";
  keyId: string;
  iv: Buffer;
  /** The ciphertext followed by the 16-byte GCM tag. */
  sealed: Buffer;
}

export const ENVELOPE_VERSION = "v1";
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

const ENVELOPE_PATTERN = /^v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

export function formatEnvelope(envelope: SecretEnvelope): string {
  return [envelope.version, envelope.keyId, envelope.iv.toString("base64url"), envelope.sealed.toString("base64url")].join(":");
}

/** Throws AppError("internal") for anything that is not a well-formed envelope. */
export function parseEnvelope(value: string): SecretEnvelope {
  const match = typeof value === "string" ? ENVELOPE_PATTERN.exec(value) : null;
  if (!match) throw new AppError("internal", "decryption failed: the stored value is not an encrypted secret envelope");
  const iv = Buffer.from(match[2] ?? "", "base64url");
  const sealed = Buffer.from(match[3] ?? "", "base64url");
  if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) {
    throw new AppError("internal", "decryption failed: the stored value is not an encrypted secret envelope");
  }
  return { version: "v1", keyId: match[1] ?? "", iv, sealed };
}

export function isSecretEnvelope(value: unknown): value is string {
  return typeof value === "string" && ENVELOPE_PATTERN.test(value);
}

/** Binds a ciphertext to its format, key and owning project: moving it elsewhere makes it undecryptable. */
export function additionalData(keyId: string, projectId: string): Buffer {
  return Buffer.from(`flowpoint-secret:${ENVELOPE_VERSION}:${keyId}:${projectId}`, "utf8");
}

export function assertProjectId(projectId: string): void {
  if (typeof projectId !== "string" || projectId.length === 0) {
    throw new AppError("internal", "secrets are encrypted for a project: projectId is required");
  }
}
