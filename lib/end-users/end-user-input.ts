import { z } from "zod";
import { PASSWORD_RULES } from "@/lib/auth/password";
import { issuesFromZod, validationError } from "@/lib/errors";

/** A new password (register, reset-password). */
export const newPasswordSchema = z
  .string({ error: "is required" })
  .min(PASSWORD_RULES.minLength, `must be at least ${PASSWORD_RULES.minLength} characters`)
  .max(PASSWORD_RULES.maxLength, `must be at most ${PASSWORD_RULES.maxLength} characters`);

/** An email as typed: compared lowercased and trimmed, as the records service stores it. */
export const emailInputSchema = z
  .string({ error: "is required" })
  .max(320, "must be at most 320 characters")
  .transform((email) => email.trim().toLowerCase())
  .refine((email) => email.length > 0, "is required");

/** A single-use token as received (its shape is checked separately, without revealing more). */
export const oneTimeTokenInputSchema = z.string({ error: "is required" }).min(1, "is required").max(256, "is not a valid token");

/** Parses a request body with a zod object schema or throws AppError("validation_failed") with paths. */
export function parseEndUserInput<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(`invalid ${what} request`, issuesFromZod(result.error));
  return result.data;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
