import type { Crumb } from "@/components/ui/page-header";

/** Workspaces / workspace / project / section. */
export function projectCrumbs(loaded: { membership: { workspaceId: string; workspaceName: string }; project: { id: string; name: string } }, section?: string): Crumb[] {
  const crumbs: Crumb[] = [
    { label: "Workspaces", href: "/workspaces" },
    { label: loaded.membership.workspaceName, href: `/workspaces/${loaded.membership.workspaceId}` },
    { label: loaded.project.name, href: section ? `/projects/${loaded.project.id}` : undefined },
  ];
  if (section) crumbs.push({ label: section });
  return crumbs;
}
