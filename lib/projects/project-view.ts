import type { projects } from "@/lib/platform-db/schema";

export interface ProjectView {
  id: string;
  workspaceId: string;
  name: string;
  slug: string;
  database: { kind: "local" | "postgres" | "mongodb"; hint: string | null };
  mail: { configured: boolean };
  logRetentionDays: number;
  /** The project's OpenAPI document is served without credentials. */
  openapiPublic: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What callers may see of a project: never the encrypted URL or the mail password. */
export function toProjectView(row: typeof projects.$inferSelect): ProjectView {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    slug: row.slug,
    database: { kind: row.databaseKind, hint: row.databaseUrlHint },
    mail: { configured: Boolean(row.mailSettingsEncrypted) },
    logRetentionDays: row.logRetentionDays,
    openapiPublic: row.openapiPublic,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
