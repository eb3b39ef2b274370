import { asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { getWorkspaceMembershipOrThrow } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { toProjectView, type ProjectView } from "./project-view";

export async function listProjects(options: { workspaceId: string; actorId: string }): Promise<ProjectView[]> {
  await getWorkspaceMembershipOrThrow({ workspaceId: options.workspaceId, userId: options.actorId });
  const db = await getPlatformDb();
  const rows = await db.select().from(projects).where(eq(projects.workspaceId, options.workspaceId)).orderBy(asc(projects.createdAt));
  return rows.map(toProjectView);
}
