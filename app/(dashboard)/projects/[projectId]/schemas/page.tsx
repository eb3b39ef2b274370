import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { formatDateTime } from "@/components/ui/format-date";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { SCHEMA_KIND_LABELS } from "@/components/schemas/field-types";
import { loadProject } from "../load-project";

export const metadata: Metadata = { title: "Schemas" };

const KIND_TONES: Record<string, BadgeTone> = { collection: "indigo", auth: "green", component: "neutral" };

export default async function SchemasPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const schemas = await listSchemas({ projectId });
  const newButton = (
    <ButtonLink href={`/projects/${projectId}/schemas/new`} size="sm">
      New schema
    </ButtonLink>
  );
  return (
    <>
      <PageHeader
        crumbs={projectCrumbs(loaded, "Schemas")}
        title="Schemas"
        description="The typed collections your records follow, auth schemas for your site's users, and reusable components."
        actions={schemas.length > 0 ? newButton : undefined}
      />
      <Card>
        {schemas.length === 0 ? (
          <CardBody>
            <EmptyState title="No schemas yet" description="Define a schema to get a records API for it and to query it from your endpoints." action={newButton} />
          </CardBody>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-5 py-2 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Kind
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Fields
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Updated
                  </th>
                  <th scope="col" className="px-5 py-2 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {schemas.map((schema) => (
                  <tr key={schema.id} className="hover:bg-slate-50/60">
                    <td className="px-5 py-3">
                      <Link href={`/projects/${projectId}/schemas/${schema.name}`} className="font-mono font-medium text-slate-900 hover:text-indigo-600">
                        {schema.name}
                      </Link>
                    </td>
                    <td className="px-3 py-3">
                      <Badge tone={KIND_TONES[schema.kind]}>{SCHEMA_KIND_LABELS[schema.kind].label}</Badge>
                    </td>
                    <td className="px-3 py-3 text-slate-600">
                      <span className="tabular-nums">{schema.fields.length}</span>
                      <span className="ml-2 hidden text-xs text-slate-500 lg:inline">
                        {schema.fields
                          .slice(0, 4)
                          .map((field) => field.name)
                          .join(", ")}
                        {schema.fields.length > 4 ? ", …" : ""}
                      </span>
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap text-slate-500">{formatDateTime(new Date(schema.updatedAt))}</td>
                    <td className="px-5 py-3 text-right whitespace-nowrap">
                      {schema.kind !== "component" && (
                        <Link href={`/projects/${projectId}/records/${schema.name}`} className="mr-4 text-sm font-medium text-slate-600 hover:text-slate-900">
                          Records
                        </Link>
                      )}
                      <Link href={`/projects/${projectId}/schemas/${schema.name}`} className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
                        Edit
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
