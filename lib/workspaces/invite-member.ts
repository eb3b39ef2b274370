import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getAppUrl } from "@/lib/app-url";
import { getPlatformDb } from "@/lib/platform-db/client";
import { invitations, memberships, users, WORKSPACE_ROLES, type WorkspaceRole } from "@/lib/platform-db/schema";
import { getPlatformMailTransport } from "@/lib/mail/get-platform-mail-transport";
import { emailSchema } from "@/lib/accounts/create-user";
import { getWorkspaceMembershipOrThrow } from "./get-workspace-membership-or-throw";

const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const inviteMemberInput = z.object({ email: emailSchema, role: z.enum(WORKSPACE_ROLES) });

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface InvitationSummary {
  id: string;
  email: string;
  role: WorkspaceRole;
  expiresAt: Date;
}

/** Invites by email: the link in the mail carries a single-use token; only its hash is stored. */
export async function inviteMember(options: { workspaceId: string; actorId: string; input: unknown }): Promise<InvitationSummary> {
  const membership = await getWorkspaceMembershipOrThrow({ workspaceId: options.workspaceId, userId: options.actorId, requireAdmin: true });
  const parsed = inviteMemberInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid invitation", { issues: issuesFromZod(parsed.error) });
  const { email, role } = parsed.data;
  const db = await getPlatformDb();
  const [existingMember] = await db
    .select({ userId: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, options.workspaceId), sql`lower(${users.email}) = ${email}`))
    .limit(1);
  if (existingMember) throw new AppError("conflict", "this person is already a member of the workspace", { field: "email" });

  const token = randomBytes(32).toString("base64url");
  const invitation = { id: newId("invitation"), email, role, expiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS) };
  await db.insert(invitations).values({ ...invitation, workspaceId: options.workspaceId, tokenHash: hashInvitationToken(token), invitedBy: options.actorId });

  const link = `${getAppUrl()}/invitations/${token}`;
  const workspaceName = membership.workspaceName;
  await getPlatformMailTransport().send({
    to: [email],
    subject: `You are invited to ${workspaceName.replace(/[\r\n]+/g, " ")} on Flowpoint`,
    text: `You have been invited to join the workspace "${workspaceName}" as ${role}.\n\nAccept the invitation: ${link}\n\nThe link is valid for 7 days.`,
    html: `<p>You have been invited to join the workspace <strong>${escapeHtml(workspaceName)}</strong> as ${role}.</p><p><a href="${link}">Accept the invitation</a></p><p>The link is valid for 7 days.</p>`,
  });
  return invitation;
}
