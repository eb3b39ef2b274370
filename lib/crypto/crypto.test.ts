import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigError, resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { decryptSecret, encryptSecret, isSecretEnvelope, KEY_FILE_NAME, loadEncryptionKeys, needsReencryption, reencryptSecret, resetEncryptionKeysForTests } from "./secrets";

const originalEnv = { ...process.env };
const scratch = mkdtempSync(path.join(os.tmpdir(), "flowpoint-crypto-"));

function keySpec(keyId: string): string {
  return `${keyId}:${randomBytes(32).toString("base64")}`;
}

function useEnvironment(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
  resetEncryptionKeysForTests();
}

function expectAppError(run: () => unknown, code: AppError["code"], message: RegExp): AppError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppError);
  const error = caught as AppError;
  expect(error.code).toBe(code);
  expect(error.message).toMatch(message);
  return error;
}

const projectId = "prj_0000000000aaaaaaaaaaaaaaaa";
const otherProjectId = "prj_0000000000bbbbbbbbbbbbbbbb";
const secret = "postgres://app:s3cr3t-p@ss@db.example:5432/app";

beforeEach(() => {
  useEnvironment({ ENCRYPTION_KEYS: keySpec("k1"), DATA_DIR: path.join(scratch, randomBytes(4).toString("hex")) });
});

afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...originalEnv };
  resetConfigForTests();
  resetEncryptionKeysForTests();
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("encryptSecret / decryptSecret", () => {
  it("round-trips, with a fresh IV each time and no plaintext in the envelope", () => {
    const first = encryptSecret(secret, { projectId });
    const second = encryptSecret(secret, { projectId });
    expect(first).not.toBe(second);
    expect(first).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(first).not.toContain("s3cr3t");
    expect(isSecretEnvelope(first)).toBe(true);
    expect(decryptSecret(first, { projectId })).toBe(secret);
    expect(decryptSecret(second, { projectId })).toBe(secret);
  });

  it("round-trips unicode, JSON and the empty string", () => {
    for (const value of ["", "pässwörd ✓ 密码", JSON.stringify({ host: "smtp.example", password: "x" })]) {
      expect(decryptSecret(encryptSecret(value, { projectId }), { projectId })).toBe(value);
    }
  });

  it("binds the envelope to its project (additional authenticated data)", () => {
    const envelope = encryptSecret(secret, { projectId });
    const error = expectAppError(() => decryptSecret(envelope, { projectId: otherProjectId }), "internal", /^decryption failed for key id k1/);
    expect(error.message).not.toContain("s3cr3t");
  });

  it("rejects any tampering with the ciphertext, tag or IV", () => {
    const envelope = encryptSecret(secret, { projectId });
    const [version, keyId, iv, sealed] = envelope.split(":") as [string, string, string, string];
    const flip = (part: string, index: number) => {
      const bytes = Buffer.from(part, "base64url");
      bytes[index] = (bytes[index] ?? 0) ^ 0x01;
      return bytes.toString("base64url");
    };
    const sealedBytes = Buffer.from(sealed, "base64url").length;
    const tampered = [
      [version, keyId, iv, flip(sealed, 0)], // ciphertext
      [version, keyId, iv, flip(sealed, sealedBytes - 1)], // tag
      [version, keyId, flip(iv, 0), sealed], // iv
      [version, keyId, iv, Buffer.from(sealed, "base64url").subarray(1).toString("base64url")], // truncated
    ];
    for (const parts of tampered) {
      expectAppError(() => decryptSecret(parts.join(":"), { projectId }), "internal", /^decryption failed for key id k1/);
    }
  });

  it("refuses values that are not envelopes instead of returning something empty", () => {
    for (const value of ["", "plain text", "v2:k1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA", "v1:k1:short:AAAA"]) {
      expectAppError(() => decryptSecret(value, { projectId }), "internal", /^decryption failed/);
    }
  });

  it("requires a project id", () => {
    expectAppError(() => encryptSecret(secret, { projectId: "" }), "internal", /projectId is required/);
  });
});

describe("key rotation", () => {
  it("decrypts with an old key, encrypts with the newest and re-encrypts on demand", () => {
    const oldKey = keySpec("2024-old");
    useEnvironment({ ENCRYPTION_KEYS: oldKey });
    const written = encryptSecret(secret, { projectId });
    expect(needsReencryption(written)).toBe(false);

    useEnvironment({ ENCRYPTION_KEYS: `${keySpec("2025-new")},${oldKey}` });
    expect(loadEncryptionKeys().currentKeyId).toBe("2025-new");
    expect(decryptSecret(written, { projectId })).toBe(secret);
    expect(needsReencryption(written)).toBe(true);

    const fresh = encryptSecret(secret, { projectId });
    expect(fresh.startsWith("v1:2025-new:")).toBe(true);
    expect(needsReencryption(fresh)).toBe(false);

    const rotated = reencryptSecret(written, { projectId });
    expect(rotated.startsWith("v1:2025-new:")).toBe(true);
    expect(decryptSecret(rotated, { projectId })).toBe(secret);
    expect(reencryptSecret(rotated, { projectId })).toBe(rotated);
  });

  it("fails with the key id when the key is no longer configured", () => {
    const written = encryptSecret(secret, { projectId });
    useEnvironment({ ENCRYPTION_KEYS: keySpec("k2") });
    expectAppError(() => decryptSecret(written, { projectId }), "internal", /^decryption failed for key id k1: no such key/);
  });

  it("fails when a key id is reused for different key material", () => {
    const written = encryptSecret(secret, { projectId });
    useEnvironment({ ENCRYPTION_KEYS: keySpec("k1") });
    expectAppError(() => decryptSecret(written, { projectId }), "internal", /^decryption failed for key id k1/);
  });
});

describe("key loading", () => {
  it("generates a 0600 key file when ENCRYPTION_KEYS is unset, warns once and reuses it after a restart", () => {
    const dataDir = path.join(scratch, `generated-${randomBytes(4).toString("hex")}`);
    useEnvironment({ ENCRYPTION_KEYS: undefined, DATA_DIR: dataDir });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);

    const envelope = encryptSecret(secret, { projectId });
    const keyFile = path.join(dataDir, KEY_FILE_NAME);
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const keyId = loadEncryptionKeys().currentKeyId;
    expect(keyId).toMatch(/^local-[0-9a-f]{8}$/);
    expect(readFileSync(keyFile, "utf8")).toMatch(new RegExp(`^${keyId}:[A-Za-z0-9+/]{43}=\\n$`));
    encryptSecret("again", { projectId });

    const warnings = stderr.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("ENCRYPTION_KEYS is not set"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"level":"warn"');
    expect(warnings[0]).not.toContain(readFileSync(keyFile, "utf8").split(":")[1]?.trim());

    // A restart: module state gone, same data directory.
    resetConfigForTests();
    resetEncryptionKeysForTests();
    expect(loadEncryptionKeys().currentKeyId).toBe(keyId);
    expect(decryptSecret(envelope, { projectId })).toBe(secret);
    // The temporary file of the atomic write is gone.
    expect(readdirSync(dataDir).filter((name) => name.startsWith(KEY_FILE_NAME))).toEqual([KEY_FILE_NAME]);
  });

  it("refuses a corrupt key file rather than replacing it", () => {
    const dataDir = path.join(scratch, `corrupt-${randomBytes(4).toString("hex")}`);
    useEnvironment({ ENCRYPTION_KEYS: undefined, DATA_DIR: dataDir });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    encryptSecret(secret, { projectId });
    writeFileSync(path.join(dataDir, KEY_FILE_NAME), "garbage\n");
    resetEncryptionKeysForTests();
    expect(() => loadEncryptionKeys()).toThrow(ConfigError);
    expect(readFileSync(path.join(dataDir, KEY_FILE_NAME), "utf8")).toBe("garbage\n");
  });

  it("stops start-up in production without ENCRYPTION_KEYS", () => {
    useEnvironment({ NODE_ENV: "production", ENCRYPTION_KEYS: undefined, NEXTAUTH_SECRET: "x".repeat(32) });
    expect(() => loadEncryptionKeys()).toThrow(/ENCRYPTION_KEYS is required in production/);
    expect(existsSync(path.join(process.env.DATA_DIR ?? "", KEY_FILE_NAME))).toBe(false);
  });

  it("uses ENCRYPTION_KEYS in production and never touches the data directory", () => {
    useEnvironment({ NODE_ENV: "production", ENCRYPTION_KEYS: keySpec("prod1"), NEXTAUTH_SECRET: "x".repeat(32) });
    expect(decryptSecret(encryptSecret(secret, { projectId }), { projectId })).toBe(secret);
    expect(loadEncryptionKeys().source).toBe("environment");
    expect(existsSync(path.join(process.env.DATA_DIR ?? "", KEY_FILE_NAME))).toBe(false);
  });

  it("rejects duplicate key ids", () => {
    useEnvironment({ ENCRYPTION_KEYS: `${keySpec("same")},${keySpec("same")}` });
    expect(() => loadEncryptionKeys()).toThrow(/appears twice/);
  });
});
