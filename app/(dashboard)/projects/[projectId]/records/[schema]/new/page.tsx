import type { Metadata } from "next";
import { effectiveFields, type FieldDefinition } from "@/lib/schemas/schema-definition";
import { Card, CardBody } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RecordJsonForm } from "@/components/records/record-json-form";
import { createRecordAction } from "../../actions";
import { loadRecordSchema } from "../load-record-schema";

export const metadata: Metadata = { title: "New record" };

/** A starting value per field, so the JSON shows every field to fill in. */
function sampleValue(field: FieldDefinition): unknown {
  if ("default" in field && field.default !== undefined) return field.default;
  switch (field.type) {
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "enum":
      return field.values[0] ?? "";
    case "relation":
      return field.many ? [] : null;
    case "component":
      return field.repeatable ? [] : null;
    case "dynamic_zone":
      return [];
    case "json":
    case "file":
      return null;
    default:
      return "";
  }
}

export default async function NewRecordPage({ params }: { params: Promise<{ projectId: string; schema: string }> }) {
  const { projectId, schema: rawName } = await params;
  const { schema, crumbs } = await loadRecordSchema(projectId, rawName);
  const fields = effectiveFields(schema).filter((field) => field.name !== "emailVerified");
  const sample = Object.fromEntries(fields.map((field) => [field.name, sampleValue(field)]));
  return (
    <>
      <PageHeader
        crumbs={[...crumbs, { label: "New" }]}
        title={`New ${schema.name} record`}
        description="Checked like an API write: required fields, types, unique values and relations."
      />
      <Card>
        <CardBody>
          <RecordJsonForm
            id="record-json"
            label="Field values (JSON)"
            initialText={JSON.stringify(sample, null, 2)}
            submitLabel="Create record"
            action={createRecordAction.bind(null, projectId, schema.name)}
            redirectTo={`/projects/${projectId}/records/${schema.name}/{id}`}
          />
        </CardBody>
      </Card>
    </>
  );
}
