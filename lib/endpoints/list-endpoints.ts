import { asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import type { EndpointDefinition } from "./endpoint-definition";
import { toEndpointDefinition } from "./endpoint-row";

/** A project's endpoints ordered by slug then method (the dashboard groups them by `group`). */
export async function listEndpoints(options: { projectId: string }): Promise<EndpointDefinition[]> {
  const db = await getPlatformDb();
  const rows = await db.select().from(endpoints).where(eq(endpoints.projectId, options.projectId)).orderBy(asc(endpoints.slug), asc(endpoints.method));
  return rows.map(toEndpointDefinition);
}
