import { parseMailAddress } from "@/lib/mail/mail-address";
import { listLocalMailbox, type LocalMailboxMessage } from "@/lib/mail/list-local-mailbox";
import { listProjects } from "@/lib/projects/list-projects";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";

export interface VisibleMail extends LocalMailboxMessage {
  projectName: string | null;
}

const LIMIT = 100;

/**
 * The local mailbox as one user may see it: platform mail addressed to them (an invitation link
 * is for its recipient only), and the mail of the projects in their workspaces.
 */
export async function listVisibleMail(user: { id: string; email: string }): Promise<VisibleMail[]> {
  const email = user.email.toLowerCase();
  const workspaces = await listWorkspaces({ userId: user.id });
  const projects = (await Promise.all(workspaces.map((workspace) => listProjects({ workspaceId: workspace.id, actorId: user.id })))).flat();
  const [platform, ...perProject] = await Promise.all([
    listLocalMailbox({ projectId: null, limit: 200 }),
    ...projects.map((project) => listLocalMailbox({ projectId: project.id, limit: LIMIT })),
  ]);
  const names = new Map(projects.map((project) => [project.id, project.name]));
  const mine = (platform ?? []).filter((message) => message.to.some((to) => parseMailAddress(to)?.address.toLowerCase() === email));
  return [...mine, ...perProject.flat()]
    .map((message) => ({ ...message, projectName: message.projectId ? (names.get(message.projectId) ?? null) : null }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, LIMIT);
}
