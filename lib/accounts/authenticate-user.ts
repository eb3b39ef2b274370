import { sql } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import { getDecoyPasswordHash, verifyPassword } from "@/lib/auth/password";
import type { PublicUser } from "./create-user";

/** The user for these credentials, or null. Unknown emails cost as much time as wrong passwords. */
export async function authenticateUser(options: { email: string; password: string }): Promise<PublicUser | null> {
  const db = await getPlatformDb();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${options.email.trim().toLowerCase()}`)
    .limit(1);
  const hash = user?.passwordHash ?? (await getDecoyPasswordHash());
  const valid = await verifyPassword(options.password, hash);
  if (!user?.passwordHash || !valid) return null;
  return { id: user.id, email: user.email, name: user.name };
}
