import { sql } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import { getDecoyPasswordHash, verifyPassword } from "@/lib/auth/password";
import type { PublicUser } from "./create-user";

export interface AuthenticatedUser extends PublicUser {
  /** Stamped into the session token; see users.sessionVersion. */
  sessionVersion: number;
}

/**
 * The user for these credentials, or null. Unknown emails, accounts without a password (GitHub
 * only) and wrong passwords all cost one scrypt run and answer the same null.
 */
export async function authenticateUser(options: { email: string; password: string }): Promise<AuthenticatedUser | null> {
  const db = await getPlatformDb();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${options.email.trim().toLowerCase()}`)
    .limit(1);
  const hash = user?.passwordHash ?? (await getDecoyPasswordHash());
  const valid = await verifyPassword(options.password, hash);
  if (!user?.passwordHash || !valid) return null;
  return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
}
