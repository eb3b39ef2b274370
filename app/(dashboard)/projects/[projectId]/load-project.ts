import "server-only";
import { cache } from "react";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { getCurrentUser, type CurrentUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/permissions";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { findProjectMember } from "@/lib/http/project-member";
import { toProjectView, type ProjectView } from "@/lib/projects/project-view";
import type { WorkspaceMembership } from "@/lib/workspaces/get-workspace-membership-or-throw";

export interface LoadedProject {
  user: CurrentUser;
  /** The full row stays on the server: it holds the encrypted secrets. */
  row: ProjectRow;
  project: ProjectView;
  membership: WorkspaceMembership;
  canManage: boolean;
}

/**
 * The project a dashboard page shows, for the signed-in user. A project outside the user's
 * workspaces is a 404, exactly like one that does not exist (the membership check of the server
 * actions and API routes, lib/http/project-member.ts).
 */
export const loadProject = cache(async (projectId: string): Promise<LoadedProject> => {
  const user = await getCurrentUser({ returnTo: `/projects/${projectId}` });
  const { project: row, membership } = await findProjectMember({ projectId, userId: user.id }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  return { user, row, project: toProjectView(row), membership, canManage: roleAllows(membership.role, "project.manage") };
});
