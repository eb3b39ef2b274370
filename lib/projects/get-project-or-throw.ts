import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";

export type ProjectRow = typeof projects.$inferSelect;

export async function getProjectOrThrow(options: { projectId: string }): Promise<ProjectRow> {
  const db = await getPlatformDb();
  const [row] = await db.select().from(projects).where(eq(projects.id, options.projectId)).limit(1);
  if (!row) throw new AppError("not_found", "project not found");
  return row;
}
