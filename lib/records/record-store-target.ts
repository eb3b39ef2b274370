import { AppError, type ErrorIssue } from "@/lib/errors";

/** Which customer database a project uses. `url` is the decrypted connection string (never logged). */
export interface RecordStoreTarget {
  projectId: string;
  kind: "local" | "postgres" | "mongodb";
  url?: string;
  /** Written into the ownership marker when the pool claims the database (database-owner.ts). */
  workspaceId?: string;
}

const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SCHEMES: Record<"postgres" | "mongodb", RegExp> = {
  postgres: /^postgres(ql)?:\/\//i,
  mongodb: /^mongodb(\+srv)?:\/\//i,
};

/** Checks a target; the messages never repeat the URL. */
export function checkRecordStoreTarget(target: RecordStoreTarget): void {
  const issues: ErrorIssue[] = [];
  // The project id becomes a directory name for local stores: no dots, no slashes.
  if (typeof target.projectId !== "string" || !PROJECT_ID.test(target.projectId)) issues.push({ path: "projectId", message: "must be a project id" });
  if (target.kind === "postgres" || target.kind === "mongodb") {
    if (typeof target.url !== "string" || !SCHEMES[target.kind].test(target.url)) {
      issues.push({ path: "url", message: target.kind === "postgres" ? "must start with postgres:// or postgresql://" : "must start with mongodb:// or mongodb+srv://" });
    }
  } else if (target.kind !== "local") {
    issues.push({ path: "kind", message: "must be local, postgres or mongodb" });
  }
  if (issues.length) throw new AppError("validation_failed", "invalid database settings", { issues });
}
