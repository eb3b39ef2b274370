import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes as base64url: what the verification and reset mails carry. */
const ONE_TIME_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface OneTimeToken {
  /** Sent to the end user; never stored. */
  token: string;
  /** Stored on the account instead of the token. */
  hash: string;
}

/** A new single-use token (email verification, password reset) and the hash to store. */
export function createOneTimeToken(): OneTimeToken {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashOneTimeToken(token) };
}

/** SHA-256 in hex: the token has 256 random bits, so a fast hash is enough (no guessing to slow down). */
export function hashOneTimeToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Whether text has the shape of a token we issued (checked before any database read). */
export function isOneTimeTokenShape(text: string): boolean {
  return ONE_TIME_TOKEN.test(text);
}
