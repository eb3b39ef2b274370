import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getWorkspaceMembershipOrThrow, type WorkspaceMembership } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { listMembers } from "@/lib/workspaces/list-members";
import { listProjects } from "@/lib/projects/list-projects";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { formatDate } from "@/components/ui/format-date";
import { DatabaseBadge } from "@/components/projects/database-badge";
import { CreateProjectDialog } from "./create-project-dialog";
import { InviteMemberForm } from "./invite-member-form";
import { RemoveMemberButton } from "./remove-member-button";
import { RenameWorkspaceForm } from "./rename-workspace-form";

type Params = { params: Promise<{ workspaceId: string }> };

async function loadMembership(workspaceId: string, userId: string): Promise<WorkspaceMembership> {
  try {
    return await getWorkspaceMembershipOrThrow({ workspaceId, userId });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { workspaceId } = await params;
  const user = await getCurrentUser({ returnTo: `/workspaces/${workspaceId}` });
  const membership = await getWorkspaceMembershipOrThrow({ workspaceId, userId: user.id }).catch(() => null);
  return { title: membership?.workspaceName ?? "Workspace" };
}

export default async function WorkspacePage({ params }: Params) {
  const { workspaceId } = await params;
  const user = await getCurrentUser({ returnTo: `/workspaces/${workspaceId}` });
  const membership = await loadMembership(workspaceId, user.id);
  const isAdmin = membership.role === "admin";
  const [projects, { members, pendingInvitations }] = await Promise.all([listProjects({ workspaceId, actorId: user.id }), listMembers({ workspaceId, actorId: user.id })]);
  // Removing is for admins (themselves included), and the last admin cannot go: the service refuses both otherwise.
  const adminCount = members.filter((member) => member.role === "admin").length;

  return (
    <>
      <PageHeader
        crumbs={[{ label: "Workspaces", href: "/workspaces" }, { label: membership.workspaceName }]}
        title={
          <span className="flex items-center gap-3">
            {membership.workspaceName}
            <Badge tone={isAdmin ? "indigo" : "neutral"}>{isAdmin ? "You are an admin" : "You are a member"}</Badge>
          </span>
        }
        actions={isAdmin ? <CreateProjectDialog workspaceId={workspaceId} /> : undefined}
      />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card aria-labelledby="projects-heading">
            <CardHeader title={<span id="projects-heading">Projects</span>} description="Each project has its own database, endpoints and API keys." />
            <div>
              {projects.length === 0 ? (
                <div className="p-5">
                  <EmptyState
                    title="No projects yet"
                    description={isAdmin ? "Create a project and attach your database, or start on the built-in one." : "An admin of this workspace can create the first project."}
                    action={isAdmin ? <CreateProjectDialog workspaceId={workspaceId} triggerLabel="Create your first project" /> : undefined}
                  />
                </div>
              ) : (
                <ul className="divide-y divide-slate-100" aria-label="Projects">
                  {projects.map((project) => (
                    <li key={project.id}>
                      <Link href={`/projects/${project.id}`} className="flex items-center justify-between gap-4 px-5 py-4 hover:bg-slate-50">
                        <div className="min-w-0">
                          <p className="truncate font-medium text-slate-900">{project.name}</p>
                          <p className="mt-0.5 truncate font-mono text-xs text-slate-500">{project.database.hint ?? project.slug}</p>
                        </div>
                        <div className="flex shrink-0 items-center gap-3">
                          <DatabaseBadge kind={project.database.kind} />
                          <span className="hidden text-xs text-slate-500 sm:inline">Created {formatDate(project.createdAt)}</span>
                          <span aria-hidden="true" className="text-slate-300">
                            ›
                          </span>
                        </div>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </Card>

          <Card aria-labelledby="members-heading">
            <CardHeader title={<span id="members-heading">Members</span>} description={`${members.length} ${members.length === 1 ? "person" : "people"} in this workspace.`} />
            <div>
              <ul className="divide-y divide-slate-100" aria-label="Members">
                {members.map((member) => (
                  <li key={member.userId} className="flex items-center justify-between gap-3 px-5 py-3">
                    <div className="flex min-w-0 flex-1 items-center gap-3">
                      <span className="grid size-8 shrink-0 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600" aria-hidden="true">
                        {(member.name || member.email).slice(0, 1).toUpperCase()}
                      </span>
                      <div className="min-w-0">
                        <p className="truncate text-sm font-medium text-slate-900">
                          {member.name || member.email}
                          {member.userId === user.id && <span className="ml-1.5 font-normal text-slate-500">(you)</span>}
                        </p>
                        {member.name && <p className="truncate text-xs text-slate-500">{member.email}</p>}
                      </div>
                    </div>
                    <div className="flex shrink-0 items-center gap-3">
                      <Badge tone={member.role === "admin" ? "indigo" : "neutral"}>{member.role}</Badge>
                      <span className="hidden text-xs text-slate-500 sm:inline">Joined {formatDate(member.joinedAt)}</span>
                      {isAdmin && (member.userId !== user.id || adminCount > 1) && (
                        <RemoveMemberButton workspaceId={workspaceId} userId={member.userId} email={member.email} isSelf={member.userId === user.id} />
                      )}
                    </div>
                  </li>
                ))}
              </ul>
              {pendingInvitations.length > 0 && (
                <div className="border-t border-slate-100 px-5 py-3">
                  <p className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-500">Pending invitations</p>
                  <ul className="space-y-2" aria-label="Pending invitations">
                    {pendingInvitations.map((invitation) => (
                      <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                        <span className="truncate text-slate-700">{invitation.email}</span>
                        <span className="flex items-center gap-3">
                          <Badge tone="amber">invited as {invitation.role}</Badge>
                          <span className="text-xs text-slate-500">Expires {formatDate(invitation.expiresAt)}</span>
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
            {isAdmin && (
              <div className="border-t border-slate-100 bg-slate-50/60 px-5 py-4">
                <InviteMemberForm workspaceId={workspaceId} />
              </div>
            )}
          </Card>
        </div>

        <Card className="h-fit" aria-labelledby="settings-heading">
          <CardHeader title={<span id="settings-heading">Workspace settings</span>} />
          <CardBody>
            <RenameWorkspaceForm workspaceId={workspaceId} name={membership.workspaceName} canEdit={isAdmin} />
          </CardBody>
        </Card>
      </div>
    </>
  );
}
