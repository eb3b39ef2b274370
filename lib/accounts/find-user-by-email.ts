import { sql } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";

export async function findUserByEmail(email: string): Promise<typeof users.$inferSelect | null> {
  const db = await getPlatformDb();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return user ?? null;
}
