import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import type { FormSubmission } from "@/lib/forms/form-submission";
import { listFormSubmissions } from "@/lib/forms/list-form-submissions";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { buttonClasses, ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { AutomationTabs } from "@/components/automations/automation-tabs";
import { SubmissionFields } from "@/components/automations/submission-fields";
import { TriggerBadge } from "@/components/automations/trigger-badge";
import type { SearchParams } from "../../../_data/load-executions";
import { formatRunTime } from "@/components/endpoints/status-badges";
import { loadAutomation } from "../load-automation";

type Props = { params: Promise<{ projectId: string; automationId: string }>; searchParams: Promise<SearchParams> };

const PAGE_SIZE = 25;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { projectId, automationId } = await params;
  const { automation } = await loadAutomation(projectId, automationId);
  return { title: `Submissions of ${automation.name}` };
}

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text || undefined;
}

function hrefWith(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return query ? `${path}?${query}` : path;
}

export default async function AutomationSubmissionsPage({ params, searchParams }: Props) {
  const { projectId, automationId } = await params;
  const { loaded, automation, crumbs } = await loadAutomation(projectId, automationId);
  if (automation.trigger.type !== "form") notFound();
  const query = await searchParams;
  const search = first(query.search)?.slice(0, 200);
  const before = first(query.before);
  const path = `/projects/${projectId}/automations/${automation.id}/submissions`;
  const csvHref = hrefWith(`/api/projects/${projectId}/automations/${automation.id}/submissions`, { format: "csv", search });

  let page: { ok: true; data: FormSubmission[]; nextBefore: string | null } | { ok: false; message: string };
  try {
    const store = await getProjectRecordStore({ project: loaded.row });
    page = { ok: true, ...(await listFormSubmissions({ store, automationId: automation.id, query: { search, before, limit: PAGE_SIZE } })) };
  } catch (error) {
    if (!isAppError(error) || !error.isPublic) throw error;
    page = { ok: false, message: error.code === "bad_request" ? "This search or page link is not valid." : `The submissions could not be read: ${error.message}.` };
  }

  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title={automation.name}
        description={<TriggerBadge trigger={automation.trigger} />}
        actions={
          // A plain link: the route answers a CSV download (same selection as the search), not a page.
          <a href={csvHref} className={buttonClasses("secondary", "sm")}>
            Export CSV
          </a>
        }
      />
      <AutomationTabs projectId={projectId} automationId={automation.id} form active="submissions" />
      <div className="space-y-4">
        <form method="get" action={path} role="search" className="flex flex-wrap items-end gap-2">
          <div className="w-full max-w-sm">
            <label htmlFor="submission-search" className="text-sm font-medium text-slate-700">
              Search submissions
            </label>
            <Input id="submission-search" name="search" type="search" defaultValue={search ?? ""} placeholder="ada@example.com" className="mt-1" maxLength={200} />
          </div>
          <button type="submit" className={buttonClasses("secondary", "md")}>
            Search
          </button>
          {search && (
            <ButtonLink href={path} variant="ghost">
              Clear
            </ButtonLink>
          )}
        </form>
        {!page.ok ? (
          <Notice tone="warning">{page.message}</Notice>
        ) : (
          <>
            <Card>
              {page.data.length === 0 ? (
                <CardBody>
                  <EmptyState
                    title={search || before ? "No submissions match" : "No submissions yet"}
                    description="Every accepted post to the form's URL is stored in your database and listed here, newest first."
                  />
                </CardBody>
              ) : (
                <div className="overflow-x-auto">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">Form submissions, newest first</caption>
                    <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
                      <tr>
                        <th scope="col" className="px-5 py-2 font-medium">
                          Submitted
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Fields
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          From
                        </th>
                        <th scope="col" className="px-5 py-2 font-medium">
                          Run
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {page.data.map((submission) => (
                        <tr key={submission.id} className="align-top">
                          <td className="px-5 py-2.5 text-xs whitespace-nowrap text-slate-700">
                            {formatRunTime(submission.submittedAt)}
                            <span className="block font-mono text-[11px] text-slate-500">{submission.id}</span>
                          </td>
                          <td className="px-3 py-2.5">
                            <SubmissionFields fields={submission.fields} />
                          </td>
                          <td className="px-3 py-2.5 text-xs text-slate-600">
                            <span className="font-mono">{submission.ip}</span>
                            {submission.origin && <span className="block max-w-48 truncate font-mono text-slate-500">{submission.origin}</span>}
                          </td>
                          <td className="px-5 py-2.5 text-xs whitespace-nowrap">
                            {submission.queued ? <span className="text-slate-600">Queued</span> : <span className="text-amber-800">Not queued</span>}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Card>
            {(page.nextBefore || before) && (
              <div className="flex justify-between">
                {before ? (
                  <ButtonLink href={hrefWith(path, { search })} variant="secondary" size="sm">
                    ← Newest
                  </ButtonLink>
                ) : (
                  <span />
                )}
                {page.nextBefore && (
                  <ButtonLink href={hrefWith(path, { search, before: page.nextBefore })} variant="secondary" size="sm">
                    Older →
                  </ButtonLink>
                )}
              </div>
            )}
          </>
        )}
      </div>
    </>
  );
}
