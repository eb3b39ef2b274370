import type { ReactNode } from "react";
import { ProjectNav } from "@/components/projects/project-nav";
import { loadProject } from "./load-project";

export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { project, membership } = await loadProject(projectId);
  return (
    <div className="flex flex-col gap-8 md:flex-row">
      <aside className="md:w-52 md:shrink-0">
        <div className="mb-4 hidden md:block">
          <p className="truncate text-xs font-medium uppercase tracking-wide text-slate-600">{membership.workspaceName}</p>
          <p className="truncate font-semibold text-slate-900">{project.name}</p>
        </div>
        <ProjectNav projectId={project.id} />
      </aside>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
