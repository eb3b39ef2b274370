import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { isAppError } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { loadProject } from "../load-project";

export const metadata: Metadata = { title: "Records" };

export default async function RecordsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const schemas = (await listSchemas({ projectId })).filter((schema) => schema.kind !== "component");
  let counts: (number | null)[] = schemas.map(() => null);
  let problem: string | undefined;
  if (schemas.length > 0) {
    try {
      const store = await getProjectRecordStore({ project: loaded.row });
      counts = await Promise.all(schemas.map((schema) => store.count(schema.name)));
    } catch (error) {
      if (!(isAppError(error) && error.isPublic)) throw error;
      problem = `Your database could not be read: ${error.message}.`;
    }
  }
  return (
    <>
      <PageHeader crumbs={projectCrumbs(loaded, "Records")} title="Records" description="Browse and edit the records of each schema, stored in your database." />
      {problem && (
        <Notice tone="warning" className="mb-4">
          {problem}
        </Notice>
      )}
      <Card>
        {schemas.length === 0 ? (
          <CardBody>
            <EmptyState
              title="No schemas with records yet"
              description="Records belong to a collection or auth schema."
              action={
                <ButtonLink href={`/projects/${projectId}/schemas/new`} size="sm">
                  New schema
                </ButtonLink>
              }
            />
          </CardBody>
        ) : (
          <ul className="divide-y divide-slate-100">
            {schemas.map((schema, index) => (
              <li key={schema.id}>
                <Link href={`/projects/${projectId}/records/${schema.name}`} className="flex items-center gap-3 px-5 py-3 hover:bg-slate-50/60">
                  <span className="font-mono text-sm font-medium text-slate-900">{schema.name}</span>
                  {schema.kind === "auth" && <Badge tone="green">Auth</Badge>}
                  <span className="ml-auto text-sm tabular-nums text-slate-500">
                    {counts[index] === null ? "—" : counts[index] === 1 ? "1 record" : `${counts[index]} records`}
                  </span>
                  <span aria-hidden="true" className="text-slate-500">
                    →
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
