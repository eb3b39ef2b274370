import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import type { EndpointDefinition } from "./endpoint-definition";
import { toEndpointDefinition } from "./endpoint-row";

export async function getEndpointOrThrow(options: { projectId: string; endpointId: string }): Promise<EndpointDefinition> {
  const db = await getPlatformDb();
  const [row] = await db
    .select()
    .from(endpoints)
    .where(and(eq(endpoints.id, options.endpointId), eq(endpoints.projectId, options.projectId)))
    .limit(1);
  if (!row) throw new AppError("not_found", "endpoint not found");
  return toEndpointDefinition(row);
}
