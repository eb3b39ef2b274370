import { AppError, isAppError, issuesFromZod } from "@/lib/errors";
import { log } from "@/lib/log";
import { readRecordStoreOwner, testRecordStoreConnection } from "@/lib/records/get-record-store";
import { projectDatabaseInput } from "./project-database-input";
import { checkDatabaseDestination } from "./check-database-destination";

export interface ConnectionTestResult {
  ok: boolean;
  /** A sentence for the owner: what is wrong, never the password. */
  message: string;
  /** Why it failed: a connection problem (lib/records/classify-connection-error.ts) or `attached_to_another_project`. */
  reason?: string;
}

/**
 * "Test connection": the host guard first, then a short real connection attempt, then whether the
 * database already belongs to another project (read only: testing claims nothing).
 */
export async function testDatabaseConnection(options: { projectId: string; input: unknown }): Promise<ConnectionTestResult> {
  const parsed = projectDatabaseInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid database settings", { issues: issuesFromZod(parsed.error, "database") });
  const database = parsed.data;
  try {
    await checkDatabaseDestination(database);
  } catch (error) {
    if (isAppError(error) && error.code === "validation_failed") return { ok: false, message: error.message };
    throw error;
  }
  if (database.kind === "local") return testRecordStoreConnection({ projectId: options.projectId, kind: "local" });
  const target = { projectId: options.projectId, kind: database.kind, url: database.url };
  const result = await testRecordStoreConnection(target);
  if (!result.ok) return result;
  try {
    const owner = await readRecordStoreOwner(target);
    if (owner && owner.projectId !== options.projectId) {
      return {
        ok: false,
        reason: "attached_to_another_project",
        message: `${result.message} But this database is already attached to another Flowpoint project: use a separate database, or take it over when saving (the other project then stops using it).`,
      };
    }
  } catch (error) {
    // The connection works; a marker that cannot be read now is checked again when saving.
    log.warn("database test: could not read the owner marker", { code: isAppError(error) ? error.code : "unknown" });
  }
  return result;
}
