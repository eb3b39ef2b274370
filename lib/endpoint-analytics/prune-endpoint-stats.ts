import { sql } from "drizzle-orm";
import type { PlatformDb } from "@/lib/platform-db/client";

/** Minute rows serve the last hour and day; older views read hour rows. */
export const MINUTE_ROWS_KEPT_HOURS = 48;

/**
 * Deletes minute rows older than 48 hours and hour rows older than their project's log retention
 * (`projects.log_retention_days`). Idempotent: any instance may run it at any time.
 */
export async function pruneEndpointStats(db: PlatformDb, now = new Date()): Promise<void> {
  const minuteCutoff = new Date(now.getTime() - MINUTE_ROWS_KEPT_HOURS * 3_600_000).toISOString();
  await db.execute(sql`delete from endpoint_stats_minute where minute < ${minuteCutoff}::timestamptz`);
  await db.execute(sql`
    delete from endpoint_stats_hour h using projects p
    where p.id = h.project_id and h.hour < ${now.toISOString()}::timestamptz - make_interval(days => p.log_retention_days)`);
}
