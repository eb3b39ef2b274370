import { afterAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { listLocalMailbox } from "@/lib/mail/list-local-mailbox";
import { createTestUser } from "@/test/fixtures";
import { createWorkspace } from "./create-workspace";
import { renameWorkspace } from "./rename-workspace";
import { inviteMember } from "./invite-member";
import { acceptInvitation } from "./accept-invitation";
import { listMembers } from "./list-members";
import { removeMember } from "./remove-member";
import { listWorkspaces } from "./list-workspaces";

afterAll(closePlatformDb);

function tokenFrom(text: string | null | undefined): string {
  const match = /\/invitations\/([A-Za-z0-9_-]+)/.exec(text ?? "");
  if (!match) throw new Error("no invitation link in the mail");
  return match[1]!;
}

describe("workspaces", () => {
  it("lets admins rename, invite by mail and remove; members see but do not change; anyone may leave", async () => {
    const admin = await createTestUser("admin");
    const invitee = await createTestUser("invitee");
    const stranger = await createTestUser("stranger");
    const workspace = await createWorkspace({ userId: admin.id, name: "Acme" });
    await expect(createWorkspace({ userId: admin.id, name: "  " })).rejects.toMatchObject({ code: "validation_failed" });

    expect(await renameWorkspace({ workspaceId: workspace.id, actorId: admin.id, name: "Acme Inc" })).toEqual({ id: workspace.id, name: "Acme Inc" });
    await expect(renameWorkspace({ workspaceId: workspace.id, actorId: stranger.id, name: "Mine" })).rejects.toMatchObject({ code: "not_found" });

    await inviteMember({ workspaceId: workspace.id, actorId: admin.id, input: { email: invitee.email.toUpperCase(), role: "member" } });
    const [mail] = (await listLocalMailbox({ projectId: null, limit: 50 })).filter((message) => message.to.includes(invitee.email));
    expect(mail?.subject).toContain("Acme Inc");
    const token = tokenFrom(mail?.text);

    await expect(acceptInvitation({ token, userId: stranger.id })).rejects.toMatchObject({ code: "forbidden" });
    expect(await acceptInvitation({ token, userId: invitee.id })).toEqual({ workspaceId: workspace.id });
    await expect(acceptInvitation({ token, userId: invitee.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await listWorkspaces({ userId: invitee.id })).map((w) => [w.name, w.role])).toEqual([["Acme Inc", "member"]]);

    await expect(renameWorkspace({ workspaceId: workspace.id, actorId: invitee.id, name: "Mine" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(inviteMember({ workspaceId: workspace.id, actorId: invitee.id, input: { email: stranger.email, role: "admin" } })).rejects.toMatchObject({ code: "forbidden" });
    await expect(inviteMember({ workspaceId: workspace.id, actorId: admin.id, input: { email: invitee.email, role: "admin" } })).rejects.toMatchObject({ code: "conflict" });
    await expect(removeMember({ workspaceId: workspace.id, actorId: invitee.id, userId: admin.id })).rejects.toMatchObject({ code: "forbidden" });
    await expect(removeMember({ workspaceId: workspace.id, actorId: admin.id, userId: admin.id })).rejects.toMatchObject({ code: "conflict" });

    const members = await listMembers({ workspaceId: workspace.id, actorId: invitee.id });
    expect(members.members.map((member) => member.role).sort()).toEqual(["admin", "member"]);
    await removeMember({ workspaceId: workspace.id, actorId: invitee.id, userId: invitee.id });
    expect(await listWorkspaces({ userId: invitee.id })).toEqual([]);
    await expect(listMembers({ workspaceId: workspace.id, actorId: invitee.id })).rejects.toMatchObject({ code: "not_found" });
  });
});
