import { eq, sql } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";

/**
 * Ends every dashboard session of the user, on every instance, from the next request on: session
 * tokens carry the sessionVersion they were issued under and are checked against it on every read.
 */
export async function revokeUserSessions(userId: string): Promise<void> {
  const db = await getPlatformDb();
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}
