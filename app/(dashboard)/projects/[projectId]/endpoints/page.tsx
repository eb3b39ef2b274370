import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { listEndpoints } from "@/lib/endpoints/list-endpoints";
import { getEndpointsSparklines, SPARKLINE_HOURS } from "@/lib/endpoint-analytics/get-endpoints-sparklines";
import { CallsSparkline } from "@/components/endpoints/calls-sparkline";
import type { EndpointDefinition } from "@/lib/endpoints/endpoint-definition";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { EnabledSwitch } from "@/components/endpoints/enabled-switch";
import { ImportExportButtons } from "@/components/endpoints/import-export";
import { invocationBase } from "@/lib/http/invocation-origin";
import { AUTH_MODE_LABELS, MethodBadge } from "@/components/endpoints/status-badges";
import { loadProject } from "../load-project";
import { exportEndpointsAction, importEndpointsAction, setEndpointEnabledAction } from "./actions";

export const metadata: Metadata = { title: "Endpoints" };

const NO_CALLS: readonly number[] = new Array<number>(SPARKLINE_HOURS).fill(0);

/** Endpoints in sections by group (ungrouped last), each section by slug. */
function groupEndpoints(endpoints: EndpointDefinition[]): { group: string | null; endpoints: EndpointDefinition[] }[] {
  const groups = new Map<string | null, EndpointDefinition[]>();
  for (const endpoint of endpoints) {
    const key = endpoint.group?.trim() || null;
    groups.set(key, [...(groups.get(key) ?? []), endpoint]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b))).map(([group, items]) => ({ group, endpoints: items }));
}

export default async function EndpointsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const [endpoints, sparklines] = await Promise.all([listEndpoints({ projectId }), getEndpointsSparklines({ projectId })]);
  const base = invocationBase(projectId);
  const newButton = (
    <ButtonLink href={`/projects/${projectId}/endpoints/new`} size="sm">
      New endpoint
    </ButtonLink>
  );
  return (
    <>
      <PageHeader
        crumbs={projectCrumbs(loaded, "Endpoints")}
        title="Endpoints"
        description="HTTP routes that run your flows, without server code."
        actions={
          <>
            <ProjectImportExport projectId={projectId} slug={loaded.project.slug} />
            {newButton}
          </>
        }
      />
      {endpoints.length === 0 ? (
        <Card>
          <CardBody>
            <EmptyState
              title="No endpoints yet"
              description="Build one: choose a route, add steps such as Query records and Transform, shape the response and test-run it before saving."
              action={newButton}
            />
          </CardBody>
        </Card>
      ) : (
        <div className="space-y-6">
          {groupEndpoints(endpoints).map(({ group, endpoints: items }) => (
            <Card key={group ?? "-"} aria-label={group ?? "Ungrouped"}>
              <div className="flex items-baseline justify-between border-b border-slate-100 px-5 py-2.5">
                <h2 className="text-sm font-semibold text-slate-900">{group ?? "Ungrouped"}</h2>
                <span className="text-xs text-slate-500">{items.length === 1 ? "1 endpoint" : `${items.length} endpoints`}</span>
              </div>
              <ul className="divide-y divide-slate-100">
                {items.map((endpoint) => {
                  const url = `${base}${endpoint.slug}`;
                  const identity = `${endpoint.method} ${endpoint.slug}`;
                  return (
                    <li key={endpoint.id} aria-label={identity} className={endpoint.enabled ? "px-5 py-3" : "bg-slate-50/70 px-5 py-3"}>
                      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                        <MethodBadge method={endpoint.method} />
                        <div className="min-w-0 flex-1">
                          <Link href={`/projects/${projectId}/endpoints/${endpoint.id}`} className="font-mono text-sm font-medium text-slate-900 hover:text-indigo-600">
                            /{endpoint.slug}
                          </Link>
                          <p className="truncate text-xs text-slate-500">
                            {endpoint.name} · {AUTH_MODE_LABELS[endpoint.auth].label}
                            {endpoint.auth === "end_user" && endpoint.authSchema ? ` (${endpoint.authSchema})` : ""} ·{" "}
                            {endpoint.steps.length === 1 ? "1 step" : `${endpoint.steps.length} steps`}
                            {endpoint.cacheSeconds > 0 ? ` · cached ${endpoint.cacheSeconds} s` : ""}
                          </p>
                        </div>
                        <CallsSparkline hourly={sparklines.get(endpoint.id)?.hourly ?? NO_CALLS} total={sparklines.get(endpoint.id)?.total ?? 0} identity={identity} />
                        <EnabledSwitch enabled={endpoint.enabled} label={`Enabled: ${identity}`} action={setEndpointEnabledAction.bind(null, projectId, endpoint.id)} />
                        <Link
                          href={`/projects/${projectId}/endpoints/${endpoint.id}`}
                          className="text-sm font-medium text-indigo-600 hover:text-indigo-500"
                          aria-label={`Edit ${identity}`}
                        >
                          Edit
                        </Link>
                      </div>
                      <div className="mt-2 flex items-center gap-2 sm:pl-20">
                        <code className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-600" title={url}>
                          {url}
                        </code>
                        <CopyButton value={url} label="Copy URL" aria-label={`Copy URL of ${identity}`} />
                      </div>
                    </li>
                  );
                })}
              </ul>
            </Card>
          ))}
        </div>
      )}
    </>
  );
}

function ProjectImportExport({ projectId, slug }: { projectId: string; slug: string }) {
  return (
    <ImportExportButtons projectSlug={slug} exportAction={exportEndpointsAction.bind(null, projectId)} importAction={importEndpointsAction.bind(null, projectId)} previewable />
  );
}
