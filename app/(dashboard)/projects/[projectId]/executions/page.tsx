import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { ExecutionList, ExecutionSearchForm } from "@/components/endpoints/execution-list";
import { findExecutionById, loadExecutions, type SearchParams } from "../_data/load-executions";
import { loadProject } from "../load-project";

export const metadata: Metadata = { title: "Executions" };

export default async function ExecutionsPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<SearchParams> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const path = `/projects/${projectId}/executions`;
  const query = await searchParams;
  const searchedId = typeof query.executionId === "string" ? query.executionId.trim() : undefined;
  const search = searchedId ? await findExecutionById({ project: loaded.row, executionId: searchedId }) : null;
  if (search?.found) redirect(`${path}/${search.executionId}`);
  const result = await loadExecutions({ project: loaded.row, searchParams: query });
  return (
    <>
      <PageHeader
        crumbs={projectCrumbs(loaded, "Executions")}
        title="Executions"
        description={`Every run of an endpoint, test run and automation, step by step. Kept ${loaded.project.logRetentionDays} days in your database.`}
        actions={<ExecutionSearchForm path={path} value={searchedId} problem={search && !search.found ? search.message : undefined} />}
      />
      <ExecutionList
        projectId={projectId}
        path={path}
        entries={result.ok ? result.entries : []}
        nextBefore={result.ok ? result.nextBefore : null}
        filters={result.filters}
        endpointLabels={result.endpointLabels}
        automationLabels={result.automationLabels}
        problem={result.ok ? undefined : result.message}
        showSourceFilter
      />
    </>
  );
}
