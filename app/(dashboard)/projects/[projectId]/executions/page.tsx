import type { Metadata } from "next";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { ExecutionList } from "@/components/endpoints/execution-list";
import { loadExecutions, type SearchParams } from "../_data/load-executions";
import { loadProject } from "../load-project";

export const metadata: Metadata = { title: "Executions" };

export default async function ExecutionsPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<SearchParams> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const result = await loadExecutions({ project: loaded.row, searchParams: await searchParams });
  return (
    <>
      <PageHeader
        crumbs={projectCrumbs(loaded, "Executions")}
        title="Executions"
        description={`Every run of an endpoint, test run and automation, step by step. Kept ${loaded.project.logRetentionDays} days in your database.`}
      />
      {result.ok ? (
        <ExecutionList
          projectId={projectId}
          path={`/projects/${projectId}/executions`}
          entries={result.entries}
          nextBefore={result.nextBefore}
          filters={result.filters}
          endpointLabels={result.endpointLabels}
          showSourceFilter
        />
      ) : (
        <Notice tone="warning">{result.message}</Notice>
      )}
    </>
  );
}
