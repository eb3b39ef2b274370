import type { Metadata } from "next";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { SchemaEditor } from "@/components/schemas/schema-editor";
import { newFieldDraft } from "@/components/schemas/field-draft";
import { loadProject } from "../../load-project";
import { createSchemaAction, updateSchemaAction } from "../actions";

export const metadata: Metadata = { title: "New schema" };

export default async function NewSchemaPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const schemas = await listSchemas({ projectId });
  const crumbs = projectCrumbs(loaded, "Schemas");
  crumbs[crumbs.length - 1] = { label: "Schemas", href: `/projects/${projectId}/schemas` };
  return (
    <>
      <PageHeader crumbs={[...crumbs, { label: "New" }]} title="New schema" />
      <SchemaEditor
        projectId={projectId}
        initial={null}
        initialFields={[newFieldDraft()]}
        schemas={schemas.map(({ name, kind }) => ({ name, kind }))}
        actions={{ create: createSchemaAction.bind(null, projectId), update: updateSchemaAction.bind(null, projectId, "") }}
      />
    </>
  );
}
