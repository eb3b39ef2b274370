import { eq } from "drizzle-orm";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { workspaces } from "@/lib/platform-db/schema";
import { workspaceNameSchema } from "./create-workspace";
import { getWorkspaceMembershipOrThrow } from "./get-workspace-membership-or-throw";

export async function renameWorkspace(options: { workspaceId: string; actorId: string; name: unknown }): Promise<{ id: string; name: string }> {
  await getWorkspaceMembershipOrThrow({ workspaceId: options.workspaceId, userId: options.actorId, requireAdmin: true });
  const parsed = workspaceNameSchema.safeParse(options.name);
  if (!parsed.success) throw new AppError("validation_failed", "invalid workspace name", { issues: issuesFromZod(parsed.error, "name") });
  const db = await getPlatformDb();
  await db.update(workspaces).set({ name: parsed.data, updatedAt: new Date() }).where(eq(workspaces.id, options.workspaceId));
  return { id: options.workspaceId, name: parsed.data };
}
