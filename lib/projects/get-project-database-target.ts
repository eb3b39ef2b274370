import { decryptSecret } from "@/lib/crypto/secrets";
import type { ProjectRow } from "./get-project-or-throw";

export interface ProjectDatabaseTarget {
  projectId: string;
  kind: "local" | "postgres" | "mongodb";
  url?: string;
  /** Written into the database's ownership marker. */
  workspaceId?: string;
}

/** The decrypted connection target of a project's customer database. */
export function getProjectDatabaseTarget(project: ProjectRow): ProjectDatabaseTarget {
  if (project.databaseKind === "local" || !project.databaseUrlEncrypted) return { projectId: project.id, workspaceId: project.workspaceId, kind: "local" };
  return {
    projectId: project.id,
    workspaceId: project.workspaceId,
    kind: project.databaseKind,
    url: decryptSecret(project.databaseUrlEncrypted, { projectId: project.id }),
  };
}
