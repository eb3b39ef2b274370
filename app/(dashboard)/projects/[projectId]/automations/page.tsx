import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { ComingSoon } from "@/components/projects/coming-soon";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { loadProject } from "../load-project";

export const metadata: Metadata = { title: "Automations" };

export default async function AutomationsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  return (
    <>
      <PageHeader crumbs={projectCrumbs(loaded, "Automations")} title="Automations" />
      <ComingSoon
        projectId={loaded.project.id}
        section="Automations"
        summary="Automations run the same flows as endpoints, started by a form submission, a record change or by hand."
      />
    </>
  );
}
