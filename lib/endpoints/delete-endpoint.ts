import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

export async function deleteEndpoint(options: { projectId: string; endpointId: string }): Promise<void> {
  const db = await getPlatformDb();
  const deleted = await db
    .delete(endpoints)
    .where(and(eq(endpoints.id, options.endpointId), eq(endpoints.projectId, options.projectId)))
    .returning({ id: endpoints.id });
  if (deleted.length === 0) throw new AppError("not_found", "endpoint not found");
  await bumpProjectGeneration(options.projectId);
}
