import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { getCurrentUser } from "@/lib/auth/current-user";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";
import { listProjects } from "@/lib/projects/list-projects";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { CreateWorkspaceForm } from "./create-workspace-form";

export const metadata: Metadata = { title: "Workspaces" };

export default async function WorkspacesPage() {
  const user = await getCurrentUser({ returnTo: "/workspaces" });
  const workspaces = await listWorkspaces({ userId: user.id });
  const projectCounts = await Promise.all(workspaces.map((workspace) => listProjects({ workspaceId: workspace.id, actorId: user.id }).then((list) => list.length)));

  return (
    <>
      <PageHeader title="Workspaces" description="A workspace groups projects and the people who work on them." />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {workspaces.length === 0 ? (
            <Card>
              <CardBody className="py-10 text-center">
                <p className="text-base font-semibold">Welcome to Flowpoint</p>
                <p className="mx-auto mt-1 max-w-md text-sm text-slate-500">
                  You are not in any workspace yet. Create one to start your first project, or open an invitation link a teammate sent you.
                </p>
              </CardBody>
            </Card>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2" aria-label="Your workspaces">
              {workspaces.map((workspace, index) => (
                <li key={workspace.id}>
                  <Link
                    href={`/workspaces/${workspace.id}`}
                    className="group flex h-full flex-col justify-between rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow"
                  >
                    <div className="flex items-start justify-between gap-3">
                      <span className="flex min-w-0 items-center gap-3">
                        <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-indigo-50 text-sm font-semibold text-indigo-700" aria-hidden="true">
                          {workspace.name.slice(0, 1).toUpperCase()}
                        </span>
                        <span className="truncate font-semibold text-slate-900 group-hover:text-indigo-700">{workspace.name}</span>
                      </span>
                      <Badge tone={workspace.role === "admin" ? "indigo" : "neutral"}>{workspace.role}</Badge>
                    </div>
                    <p className="mt-4 text-sm text-slate-500">{projectCounts[index] === 1 ? "1 project" : `${projectCounts[index] ?? 0} projects`}</p>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
        <Card className="h-fit">
          <CardHeader title="New workspace" />
          <CardBody>
            <CreateWorkspaceForm />
          </CardBody>
        </Card>
      </div>
    </>
  );
}
