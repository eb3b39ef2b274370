"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { newId } from "@/lib/ids";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { renameWorkspace } from "@/lib/workspaces/rename-workspace";
import { inviteMember } from "@/lib/workspaces/invite-member";
import { removeMember } from "@/lib/workspaces/remove-member";
import { getWorkspaceMembershipOrThrow } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { createProject } from "@/lib/projects/create-project";
import { testDatabaseConnection, type ConnectionTestResult } from "@/lib/projects/test-database-connection";
import { succeed, type ActionResult, type FormState } from "@/lib/http/action-result";
import { toActionFailure } from "@/lib/http/action-failure";
import { readDatabaseInput } from "@/lib/projects/read-database-input";
import { connectionTestFailure } from "@/lib/projects/connection-test-failure";

export async function renameWorkspaceAction(workspaceId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  const actorId = await getCurrentUserId();
  const name = String(formData.get("name") ?? "");
  try {
    await renameWorkspace({ workspaceId, actorId, name });
  } catch (error) {
    return toActionFailure(error, { fields: ["name"], values: { name }, action: "rename-workspace" });
  }
  refresh();
  return succeed(undefined, { message: "Workspace renamed.", values: { name } });
}

export async function inviteMemberAction(workspaceId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  const actorId = await getCurrentUserId();
  const values = { email: String(formData.get("email") ?? ""), role: String(formData.get("role") ?? "member") };
  try {
    const invitation = await inviteMember({ workspaceId, actorId, input: values });
    refresh();
    return succeed(undefined, { message: `Invitation sent to ${invitation.email}.` });
  } catch (error) {
    return toActionFailure(error, { fields: ["email", "role"], values, action: "invite-member" });
  }
}

export async function removeMemberAction(workspaceId: string, userId: string): Promise<ActionResult> {
  const actorId = await getCurrentUserId();
  try {
    await removeMember({ workspaceId, actorId, userId });
  } catch (error) {
    return toActionFailure(error, { action: "remove-member" });
  }
  if (userId === actorId) redirect("/workspaces");
  refresh();
  return succeed();
}

export async function createProjectAction(workspaceId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  const actorId = await getCurrentUserId();
  const name = String(formData.get("name") ?? "");
  let projectId: string;
  try {
    projectId = (await createProject({ workspaceId, actorId, input: { name, database: readDatabaseInput(formData) } })).id;
  } catch (error) {
    return toActionFailure(error, { fields: ["name", "database.kind", "database.url"], action: "create-project" });
  }
  redirect(`/projects/${projectId}`);
}

/**
 * "Test connection" in the new-project form. Only admins (who may create projects) can make the
 * server open a connection; the project does not exist yet, so the test runs under a fresh id.
 */
export async function testNewProjectDatabaseAction(workspaceId: string, input: { kind: string; url?: string }): Promise<ConnectionTestResult> {
  const userId = await getCurrentUserId();
  try {
    await getWorkspaceMembershipOrThrow({ workspaceId, userId, requireAdmin: true });
    return await testDatabaseConnection({ projectId: newId("project"), input });
  } catch (error) {
    return connectionTestFailure(error);
  }
}
