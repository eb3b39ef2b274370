import { and, eq, gte } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpointStatsHour } from "@/lib/platform-db/schema";

const HOUR_MS = 3_600_000;
export const SPARKLINE_HOURS = 24;

export interface EndpointSparkline {
  /** Calls per hour, oldest first; the last is the current hour so far. */
  hourly: number[];
  total: number;
}

/** Every endpoint of a project with calls in the last 24 hours: its calls per hour (one query). */
export async function getEndpointsSparklines(options: { projectId: string; now?: Date }): Promise<Map<string, EndpointSparkline>> {
  const currentHour = Math.floor((options.now ?? new Date()).getTime() / HOUR_MS) * HOUR_MS;
  const from = currentHour - (SPARKLINE_HOURS - 1) * HOUR_MS;
  const db = await getPlatformDb();
  const rows = await db
    .select({ endpointId: endpointStatsHour.endpointId, hour: endpointStatsHour.hour, calls: endpointStatsHour.calls })
    .from(endpointStatsHour)
    .where(and(eq(endpointStatsHour.projectId, options.projectId), gte(endpointStatsHour.hour, new Date(from))));
  const sparklines = new Map<string, EndpointSparkline>();
  for (const row of rows) {
    const index = Math.floor((row.hour.getTime() - from) / HOUR_MS);
    if (index < 0 || index >= SPARKLINE_HOURS) continue;
    let sparkline = sparklines.get(row.endpointId);
    if (!sparkline) sparklines.set(row.endpointId, (sparkline = { hourly: new Array<number>(SPARKLINE_HOURS).fill(0), total: 0 }));
    sparkline.hourly[index]! += row.calls;
    sparkline.total += row.calls;
  }
  return sparklines;
}
