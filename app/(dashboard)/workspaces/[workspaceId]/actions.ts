"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { newId } from "@/lib/ids";
import { renameWorkspace } from "@/lib/workspaces/rename-workspace";
import { inviteMember } from "@/lib/workspaces/invite-member";
import { removeMember } from "@/lib/workspaces/remove-member";
import { getWorkspaceMembershipOrThrow } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { createProject } from "@/lib/projects/create-project";
import { testDatabaseConnection } from "@/lib/projects/test-database-connection";
import { succeed, type FormState } from "@/lib/http/action-result";
import { workspaceAction } from "@/lib/http/workspace-action";
import { readDatabaseInput } from "@/lib/projects/read-database-input";
import { connectionTestFailure } from "@/lib/projects/connection-test-failure";

function nameValues(_previous: FormState, formData: FormData) {
  return { name: String(formData.get("name") ?? "") };
}

function invitationValues(_previous: FormState, formData: FormData) {
  return { email: String(formData.get("email") ?? ""), role: String(formData.get("role") ?? "member") };
}

export const renameWorkspaceAction = workspaceAction(
  async ({ workspaceId, userId }, previous: FormState, formData: FormData) => {
    const values = nameValues(previous, formData);
    await renameWorkspace({ workspaceId, actorId: userId, name: values.name });
    refresh();
    return succeed(undefined, { message: "Workspace renamed.", values });
  },
  { name: "rename-workspace", fields: ["name"], values: nameValues },
);

export const inviteMemberAction = workspaceAction(
  async ({ workspaceId, userId }, previous: FormState, formData: FormData) => {
    const invitation = await inviteMember({ workspaceId, actorId: userId, input: invitationValues(previous, formData) });
    refresh();
    return succeed(undefined, { message: `Invitation sent to ${invitation.email}.` });
  },
  { name: "invite-member", fields: ["email", "role"], values: invitationValues },
);

export const removeMemberAction = workspaceAction(
  async ({ workspaceId, userId: actorId }, userId: string) => {
    await removeMember({ workspaceId, actorId, userId });
    if (userId === actorId) redirect("/workspaces");
    refresh();
    return succeed();
  },
  { name: "remove-member" },
);

export const createProjectAction = workspaceAction(
  async ({ workspaceId, userId }, previous: FormState, formData: FormData) => {
    const project = await createProject({ workspaceId, actorId: userId, input: { name: nameValues(previous, formData).name, database: readDatabaseInput(formData) } });
    redirect(`/projects/${project.id}`);
  },
  { name: "create-project", fields: ["name", "database.kind", "database.url"] },
);

/**
 * "Test connection" in the new-project form. Only admins (who may create projects) can make the
 * server open a connection; the project does not exist yet, so the test runs under a fresh id. A
 * failed test is an outcome with its sentence (the form shows it beside the button), not a failed
 * action; a refusal is the action's failure, which the form shows as a failed test too
 * (connectionTestOutcome).
 */
export const testNewProjectDatabaseAction = workspaceAction(
  async ({ workspaceId, userId }, input: { kind: string; url?: string }) => {
    await getWorkspaceMembershipOrThrow({ workspaceId, userId, requireAdmin: true });
    return succeed(await testDatabaseConnection({ projectId: newId("project"), input }).catch(connectionTestFailure));
  },
  { name: "test-connection" },
);
