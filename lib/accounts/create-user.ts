import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import { hashPassword, PASSWORD_RULES } from "@/lib/auth/password";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: "must be a valid email address" }));

export const signUpInput = z.object({
  email: emailSchema,
  password: z.string().min(PASSWORD_RULES.minLength, `must be at least ${PASSWORD_RULES.minLength} characters`).max(PASSWORD_RULES.maxLength),
  name: z.string().trim().max(100).optional(),
});

export interface PublicUser {
  id: string;
  email: string;
  name: string | null;
}

export async function createUser(input: unknown): Promise<PublicUser> {
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid sign-up details", { issues: issuesFromZod(parsed.error) });
  const { email, password, name } = parsed.data;
  const db = await getPlatformDb();
  const id = newId("user");
  try {
    await db.insert(users).values({ id, email, name: name || null, passwordHash: await hashPassword(password) });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", "an account with this email already exists", { field: "email" });
    throw error;
  }
  return { id, email, name: name || null };
}
