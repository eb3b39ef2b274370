import { assertNotBlockedByFailures, recordFailures, signInFailureSubjects } from "@/lib/auth/dashboard-auth-rate-limits";
import { authenticateUser, type AuthenticatedUser } from "./authenticate-user";

export interface SignInWithPasswordOptions {
  email: string;
  password: string;
  /** From getRequestClientIp; "unknown" is not counted per IP. */
  clientIp: string;
}

/**
 * Dashboard sign-in with email and password. Failures are counted per account (the normalized
 * email, whether or not it has an account, so a refusal reveals nothing) and per client IP; once a
 * limit is reached every attempt is refused with AppError("rate_limited") before any password is
 * checked. Answers null for an unknown email and for a wrong password alike (authenticateUser
 * does the same scrypt work for both).
 */
export async function signInWithPassword(options: SignInWithPasswordOptions): Promise<AuthenticatedUser | null> {
  const subjects = signInFailureSubjects(options.email, options.clientIp);
  await assertNotBlockedByFailures(subjects);
  const user = await authenticateUser({ email: options.email, password: options.password });
  if (!user) await recordFailures(subjects);
  return user;
}
