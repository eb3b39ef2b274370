import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { isDatabaseTakenError } from "@/lib/records/database-owner";
import { getRecordStore } from "@/lib/records/get-record-store";
import type { ProjectDatabaseInput } from "./project-database-input";

/** How long attaching waits for the database before saving anyway (the claim then happens on first use). */
const ATTACH_TIMEOUT_MS = 10_000;

export const DATABASE_TAKEN_MESSAGE =
  "this database is already attached to another Flowpoint project; use a separate database for each project, or set takeOver to move it to this project (the other project then stops using it)";

/**
 * "One database, one project": claims a pasted database for the project before the project is
 * saved with it (lib/records/database-owner.ts). A database that names another project is refused
 * with AppError("conflict") naming the situation but not the other project (an id of another
 * tenant), unless `takeOver`. A database that cannot be reached right now does not stop the save:
 * the store claims it when it first opens, and refuses to serve if another project holds it by then.
 * The built-in database is a directory of the project's own; it is claimed on first use.
 */
export async function attachProjectDatabase(options: { projectId: string; workspaceId: string; database: ProjectDatabaseInput }): Promise<void> {
  const { database, projectId, workspaceId } = options;
  if (database.kind === "local") return;
  const store = getRecordStore({ projectId, workspaceId, kind: database.kind, url: database.url });
  try {
    await store.claimOwnership({ projectId, workspaceId }, { takeOver: database.takeOver === true, timeoutMs: ATTACH_TIMEOUT_MS });
    if (database.takeOver) log.warn("project database taken over from another project", { projectId, workspaceId });
  } catch (error) {
    if (isDatabaseTakenError(error)) {
      throw new AppError("conflict", DATABASE_TAKEN_MESSAGE, {
        issues: [{ path: "database.url", message: "is already attached to another Flowpoint project" }],
        field: "database.takeOver",
        cause: error,
      });
    }
    if (isAppError(error) && (error.code === "unavailable" || error.code === "timeout")) {
      log.warn("project database: not reachable while attaching; it is claimed on first use", { projectId, code: error.code });
      return;
    }
    throw error;
  }
}
