import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, getConfig } from "@/lib/config";
import { log } from "@/lib/log";

/**
 * The keys that encrypt secrets at rest. The first key encrypts; every key decrypts, so an operator
 * rotates by putting a new key in front and re-encrypting at leisure (see needsReencryption).
 */
export interface EncryptionKeyring {
  /** Id of the newest key: the one new envelopes are written with. */
  currentKeyId: string;
  keys: ReadonlyMap<string, Buffer>;
  source: "environment" | "file";
}

export const KEY_FILE_NAME = "encryption-keys";
const KEY_SPEC = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/]{43}=)$/;

/** Parses `keyId:base64,keyId:base64` (newest first; commas or newlines). */
export function parseEncryptionKeys(spec: string, source: EncryptionKeyring["source"]): EncryptionKeyring {
  const keys = new Map<string, Buffer>();
  let currentKeyId: string | undefined;
  for (const part of spec
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = KEY_SPEC.exec(part);
    const key = match ? Buffer.from(match[2] ?? "", "base64") : undefined;
    if (!match || !key || key.length !== 32) {
      throw new ConfigError(`Invalid encryption key entry (expected keyId:base64 of exactly 32 bytes) in ${describeSource(source)}`);
    }
    const keyId = match[1] ?? "";
    if (keys.has(keyId)) throw new ConfigError(`Encryption key id "${keyId}" appears twice in ${describeSource(source)}`);
    keys.set(keyId, key);
    currentKeyId ??= keyId;
  }
  if (!currentKeyId) throw new ConfigError(`No encryption key found in ${describeSource(source)}`);
  return { currentKeyId, keys, source };
}

function describeSource(source: EncryptionKeyring["source"]): string {
  return source === "environment" ? "ENCRYPTION_KEYS" : `the ${KEY_FILE_NAME} file`;
}

let cached: { cacheKey: string; keyring: EncryptionKeyring } | undefined;
const warnedFiles = new Set<string>();

/**
 * Loads the keyring: from ENCRYPTION_KEYS, or (outside production) from `${DATA_DIR}/encryption-keys`,
 * generating a random key there on first start. Production without keys is a ConfigError.
 */
export function loadEncryptionKeys(): EncryptionKeyring {
  const config = getConfig();
  const keyFile = path.resolve(config.DATA_DIR, KEY_FILE_NAME);
  const cacheKey = config.ENCRYPTION_KEYS ? `env:${config.ENCRYPTION_KEYS}` : `file:${keyFile}`;
  if (cached?.cacheKey === cacheKey) return cached.keyring;

  let keyring: EncryptionKeyring;
  if (config.ENCRYPTION_KEYS) {
    keyring = parseEncryptionKeys(config.ENCRYPTION_KEYS, "environment");
  } else if (config.isProduction) {
    throw new ConfigError("ENCRYPTION_KEYS is required in production: stored secrets cannot be encrypted without it");
  } else {
    const { keyring: fromFile, generated } = readOrCreateKeyFile(keyFile);
    keyring = fromFile;
    if (!warnedFiles.has(keyFile)) {
      warnedFiles.add(keyFile);
      log.warn(
        generated
          ? "ENCRYPTION_KEYS is not set: generated a development encryption key. Set ENCRYPTION_KEYS in production; losing this file makes stored secrets unreadable."
          : "ENCRYPTION_KEYS is not set: using the development encryption key from the data directory. Set ENCRYPTION_KEYS in production.",
        { keyFile, keyId: keyring.currentKeyId },
      );
    }
  }
  cached = { cacheKey, keyring };
  return keyring;
}

function readOrCreateKeyFile(keyFile: string): { keyring: EncryptionKeyring; generated: boolean } {
  const existing = readKeyFile(keyFile);
  if (existing !== undefined) return { keyring: parseEncryptionKeys(existing, "file"), generated: false };

  mkdirSync(path.dirname(keyFile), { recursive: true });
  const keyId = `local-${randomBytes(4).toString("hex")}`;
  const content = `${keyId}:${randomBytes(32).toString("base64")}\n`;
  // Write aside, then link into place: link fails if another process got there first, so two
  // processes starting together agree on one key and nobody reads a half-written file.
  const temporary = `${keyFile}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: "wx" });
  chmodSync(temporary, 0o600); // the umask may have narrowed the mode above, never widened it
  try {
    linkSync(temporary, keyFile);
    return { keyring: parseEncryptionKeys(content, "file"), generated: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { keyring: parseEncryptionKeys(readKeyFile(keyFile) ?? "", "file"), generated: false };
  } finally {
    unlinkSync(temporary);
  }
}

function readKeyFile(keyFile: string): string | undefined {
  try {
    return readFileSync(keyFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Tests change ENCRYPTION_KEYS and DATA_DIR between cases. */
export function resetEncryptionKeysForTests(): void {
  cached = undefined;
  warnedFiles.clear();
}
