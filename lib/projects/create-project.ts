import { z } from "zod";
import { and, eq, like } from "drizzle-orm";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { encryptSecret } from "@/lib/crypto/secrets";
import { maskConnectionString } from "@/lib/log";
import { getWorkspaceMembershipOrThrow } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { projectDatabaseInput } from "./project-database-input";
import { checkDatabaseDestination } from "./check-database-destination";
import { attachProjectDatabase } from "./attach-project-database";
import { toProjectView, type ProjectView } from "./project-view";

export const createProjectInput = z.object({
  name: z.string().trim().min(1, "a name is required").max(80),
  database: projectDatabaseInput.default({ kind: "local" }),
});

function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return slug || "project";
}

/**
 * Creates a project in a workspace (admins only). A pasted database URL is host-checked, claimed
 * for the project (one database, one project: attach-project-database.ts) and stored encrypted.
 */
export async function createProject(options: { workspaceId: string; actorId: string; input: unknown }): Promise<ProjectView> {
  await getWorkspaceMembershipOrThrow({ workspaceId: options.workspaceId, userId: options.actorId, requireAdmin: true });
  const parsed = createProjectInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid project", { issues: issuesFromZod(parsed.error) });
  const { name, database } = parsed.data;
  await checkDatabaseDestination(database);

  const id = newId("project");
  // Before the project exists: a database another project holds is refused with nothing saved.
  await attachProjectDatabase({ projectId: id, workspaceId: options.workspaceId, database });

  const db = await getPlatformDb();
  const base = slugify(name);
  const taken = new Set(
    (
      await db
        .select({ slug: projects.slug })
        .from(projects)
        .where(and(eq(projects.workspaceId, options.workspaceId), like(projects.slug, `${base}%`)))
    ).map((row) => row.slug),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;

  const [row] = await db
    .insert(projects)
    .values({
      id,
      workspaceId: options.workspaceId,
      name,
      slug,
      databaseKind: database.kind,
      databaseUrlEncrypted: database.kind === "local" ? null : encryptSecret(database.url, { projectId: id }),
      databaseUrlHint: database.kind === "local" ? null : maskConnectionString(database.url),
    })
    .returning();
  return toProjectView(row!);
}
