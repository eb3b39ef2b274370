import type { WorkspaceRole } from "@/lib/platform-db/schema";

/** The fixed list of permissions an API key can carry (issue 3, docs/DESIGN.md section 5). */
export const PERMISSIONS = [
  "endpoints.invoke",
  "endpoints.read",
  "endpoints.create",
  "endpoints.update",
  "endpoints.delete",
  "records.read",
  "records.create",
  "records.update",
  "records.delete",
  "schemas.read",
  "schemas.write",
  "automations.read",
  "automations.write",
  "automations.run",
  "secrets.write",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * What a dashboard member may do in a project of their workspace. Both roles work with a project's
 * content; only admins change the workspace, its members, project settings and API keys.
 */
export type ProjectAction = Permission | "project.manage";

export function roleAllows(role: WorkspaceRole, action: ProjectAction): boolean {
  if (role === "admin") return true;
  // Secrets are project settings: members use them in flows by name but never manage or list them.
  return action !== "project.manage" && action !== "secrets.write";
}
