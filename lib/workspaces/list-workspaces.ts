import { asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships, workspaces } from "@/lib/platform-db/schema";
import type { WorkspaceSummary } from "./create-workspace";

/** The workspaces a user is a member of, oldest first. */
export async function listWorkspaces(options: { userId: string }): Promise<WorkspaceSummary[]> {
  const db = await getPlatformDb();
  return db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, options.userId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
}
