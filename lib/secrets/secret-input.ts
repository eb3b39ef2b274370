import { z } from "zod";
import { SECRET_NAME_PATTERN } from "./secret-name";

export { SECRET_NAME_PATTERN };
export const SECRET_VALUE_MAX_BYTES = 8_192;

export const secretNameSchema = z.string().regex(SECRET_NAME_PATTERN, "must start with an upper-case letter and contain only A-Z, 0-9 and _ (at most 64)");

export const secretValueSchema = z
  .string({ error: "a value is required" })
  .min(1, "a value is required")
  .refine((value) => new TextEncoder().encode(value).length <= SECRET_VALUE_MAX_BYTES, `a value is at most ${SECRET_VALUE_MAX_BYTES} bytes`)
  .refine((value) => !value.includes("\0"), "a value cannot contain NUL characters");

export const createSecretInput = z.object({ name: secretNameSchema, value: secretValueSchema }).strict();
export const rotateSecretInput = z.object({ value: secretValueSchema }).strict();

/** What the API and the dashboard show of a secret: never its value. */
export interface SecretSummary {
  name: string;
  /** A masked preview such as `sk_…f3a9`. */
  hint: string;
  createdAt: Date;
  updatedAt: Date;
}

export function toSecretSummary(row: { name: string; hint: string; createdAt: Date; updatedAt: Date }): SecretSummary {
  return { name: row.name, hint: row.hint, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
