import type { RecordStore } from "@/lib/records/record-store";
import { getRecordStore } from "@/lib/records/get-record-store";
import { getProjectOrThrow, type ProjectRow } from "./get-project-or-throw";
import { getProjectDatabaseTarget } from "./get-project-database-target";

/** The project's customer database (pooled per project; see lib/records/get-record-store.ts). */
export async function getProjectRecordStore(options: { projectId: string } | { project: ProjectRow }): Promise<RecordStore> {
  const project = "project" in options ? options.project : await getProjectOrThrow(options);
  return getRecordStore(getProjectDatabaseTarget(project));
}
