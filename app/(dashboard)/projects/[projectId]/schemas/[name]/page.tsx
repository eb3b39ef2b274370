import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { getSchemaOrThrow } from "@/lib/schemas/get-schema-or-throw";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { DeleteSchemaButton } from "@/components/schemas/delete-schema-button";
import { SchemaEditor } from "@/components/schemas/schema-editor";
import { toFieldDraft } from "@/components/schemas/field-draft";
import { SCHEMA_KIND_LABELS } from "@/components/schemas/field-types";
import { loadProject } from "../../load-project";
import { createSchemaAction, deleteSchemaAction, updateSchemaAction } from "../actions";

type Params = { params: Promise<{ projectId: string; name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Schema ${decodeURIComponent((await params).name)}` };
}

export default async function EditSchemaPage({ params }: Params) {
  const { projectId, name: rawName } = await params;
  const loaded = await loadProject(projectId);
  const name = decodeURIComponent(rawName);
  const schema = await getSchemaOrThrow({ projectId, name }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  const schemas = await listSchemas({ projectId });
  const crumbs = projectCrumbs(loaded, "Schemas");
  crumbs[crumbs.length - 1] = { label: "Schemas", href: `/projects/${projectId}/schemas` };
  return (
    <>
      <PageHeader
        crumbs={[...crumbs, { label: schema.name }]}
        title={
          <span className="flex items-center gap-3">
            <span className="font-mono">{schema.name}</span>
            <Badge tone="indigo">{SCHEMA_KIND_LABELS[schema.kind].label}</Badge>
          </span>
        }
        description={`Version ${schema.version}`}
        actions={
          <>
            {schema.kind !== "component" && (
              <ButtonLink href={`/projects/${projectId}/records/${schema.name}`} variant="secondary" size="sm">
                Browse records
              </ButtonLink>
            )}
            <DeleteSchemaButton projectId={projectId} name={schema.name} action={deleteSchemaAction.bind(null, projectId, schema.name)} />
          </>
        }
      />
      <SchemaEditor
        projectId={projectId}
        initial={{ name: schema.name, kind: schema.kind, version: schema.version }}
        initialFields={schema.fields.map(toFieldDraft)}
        schemas={schemas.filter((other) => other.id !== schema.id).map(({ name: otherName, kind }) => ({ name: otherName, kind }))}
        actions={{ create: createSchemaAction.bind(null, projectId), update: updateSchemaAction.bind(null, projectId, schema.name) }}
      />
    </>
  );
}
