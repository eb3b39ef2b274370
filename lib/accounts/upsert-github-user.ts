import { eq, sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import type { AuthenticatedUser } from "./authenticate-user";

/**
 * GitHub sign-in: the account with this GitHub id, else the account with this (verified by GitHub)
 * email, linked now, else a new account without a password.
 */
export async function upsertGithubUser(options: { githubId: string; email: string; name?: string | null }): Promise<AuthenticatedUser> {
  const db = await getPlatformDb();
  const email = options.email.trim().toLowerCase();
  const [byGithub] = await db.select().from(users).where(eq(users.githubId, options.githubId)).limit(1);
  if (byGithub) return { id: byGithub.id, email: byGithub.email, name: byGithub.name, sessionVersion: byGithub.sessionVersion };
  const [byEmail] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (byEmail) {
    await db.update(users).set({ githubId: options.githubId }).where(eq(users.id, byEmail.id));
    return { id: byEmail.id, email: byEmail.email, name: byEmail.name, sessionVersion: byEmail.sessionVersion };
  }
  const id = newId("user");
  await db.insert(users).values({ id, email, name: options.name ?? null, githubId: options.githubId });
  return { id, email, name: options.name ?? null, sessionVersion: 0 };
}
