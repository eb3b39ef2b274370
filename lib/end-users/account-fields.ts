import { randomBytes } from "node:crypto";

/**
 * Server-side fields of an end-user account document, stored next to the schema's own fields in
 * the customer database and never answered: presentRecord (lib/records-service) lists what may be
 * seen (id, email, emailVerified, the declared fields, timestamps), so none of these leave through
 * the auth routes, the records API, record-change events or flows.
 *
 * `passwordHash` is a name auth schemas reserve; every other hidden field starts with an underscore,
 * which no declared field name can (FIELD_NAME_PATTERN starts with a letter), so the owner's fields
 * can never collide with them.
 */
export const ACCOUNT_FIELDS = {
  /** scrypt hash (lib/auth/password.ts). Absent for accounts created through the records API. */
  passwordHash: "passwordHash",
  /**
   * Random text carried by every session token as the `ver` claim and rotated by a password reset:
   * tokens issued before the reset no longer match. (A random value instead of comparing `iat` with
   * the reset time: no second-precision edge, and no read-modify-write of a counter.)
   */
  tokenEpoch: "_tokenEpoch",
  /** Epoch milliseconds of the last password reset (informational). */
  passwordChangedAt: "_passwordChangedAt",
  /** SHA-256 (hex) of the outstanding email-verification token; null once used. */
  verificationTokenHash: "_verificationTokenHash",
  /** Epoch milliseconds after which the verification token is refused. */
  verificationExpiresAt: "_verificationExpiresAt",
  /** The address the verification token was mailed to: it verifies only that address. */
  verificationEmail: "_verificationEmail",
  /** SHA-256 (hex) of the outstanding password-reset token; null once used. */
  resetTokenHash: "_resetTokenHash",
  /** Epoch milliseconds after which the reset token is refused. */
  resetExpiresAt: "_resetExpiresAt",
  /** The address the reset token was mailed to: the reset works only while the account still has it. */
  resetEmail: "_resetEmail",
} as const;

/** Fields that get a (partial, nulls allowed) unique index: lookups by email and by token hash. */
export const INDEXED_ACCOUNT_FIELDS = ["email", ACCOUNT_FIELDS.verificationTokenHash, ACCOUNT_FIELDS.resetTokenHash] as const;

export const VERIFICATION_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The token epoch of an account (accounts that never had one share the initial epoch "0"). */
export function tokenEpochOf(account: Record<string, unknown>): string {
  const epoch = account[ACCOUNT_FIELDS.tokenEpoch];
  return typeof epoch === "string" && epoch.length > 0 ? epoch : "0";
}

/** Reads an epoch-milliseconds field; anything else counts as already expired. */
export function millisecondsOf(account: Record<string, unknown>, field: string): number {
  const value = account[field];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** A fresh token epoch (see ACCOUNT_FIELDS.tokenEpoch): set at registration, rotated by a password reset. */
export function newTokenEpoch(): string {
  return randomBytes(12).toString("base64url");
}
