import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships, workspaces } from "@/lib/platform-db/schema";

export const workspaceNameSchema = z.string().trim().min(1, "a name is required").max(80, "at most 80 characters");

export interface WorkspaceSummary {
  id: string;
  name: string;
  role: "admin" | "member";
}

/** Creates a workspace with its creator as admin. */
export async function createWorkspace(options: { userId: string; name: unknown }): Promise<WorkspaceSummary> {
  const parsed = workspaceNameSchema.safeParse(options.name);
  if (!parsed.success) throw new AppError("validation_failed", "invalid workspace name", { issues: issuesFromZod(parsed.error, "name") });
  const db = await getPlatformDb();
  const id = newId("workspace");
  await db.transaction(async (tx) => {
    await tx.insert(workspaces).values({ id, name: parsed.data });
    await tx.insert(memberships).values({ workspaceId: id, userId: options.userId, role: "admin" });
  });
  return { id, name: parsed.data, role: "admin" };
}
