import { AppError, issuesFromZod } from "@/lib/errors";
import { testRecordStoreConnection } from "@/lib/records/get-record-store";
import { projectDatabaseInput } from "./project-database-input";
import { checkDatabaseDestination } from "./check-database-destination";

export interface ConnectionTestResult {
  ok: boolean;
  /** A sentence for the owner: what is wrong, never the password. */
  message: string;
}

/** "Test connection": the host guard first, then a short real connection attempt. */
export async function testDatabaseConnection(options: { projectId: string; input: unknown }): Promise<ConnectionTestResult> {
  const parsed = projectDatabaseInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid database settings", { issues: issuesFromZod(parsed.error, "database") });
  const database = parsed.data;
  try {
    await checkDatabaseDestination(database);
  } catch (error) {
    if (error instanceof AppError && error.code === "validation_failed") return { ok: false, message: error.message };
    throw error;
  }
  return testRecordStoreConnection({ projectId: options.projectId, kind: database.kind, url: database.kind === "local" ? undefined : database.url });
}
