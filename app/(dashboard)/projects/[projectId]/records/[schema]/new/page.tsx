import type { Metadata } from "next";
import { Card, CardBody } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RecordForm } from "@/components/records/record-form";
import { loadRecordFormContext } from "../../../_data/load-record-form-context";
import { createRecordAction, findTakenUniqueValuesAction, searchRecordChoicesAction } from "../../actions";
import { loadRecordSchema } from "../load-record-schema";

export const metadata: Metadata = { title: "New record" };

export default async function NewRecordPage({ params }: { params: Promise<{ projectId: string; schema: string }> }) {
  const { projectId, schema: rawName } = await params;
  const { schema, schemas, crumbs } = await loadRecordSchema(projectId, rawName);
  const context = await loadRecordFormContext({ store: null, schema, schemas, record: null });
  return (
    <>
      <PageHeader
        crumbs={[...crumbs, { label: "New" }]}
        title={`New ${schema.name} record`}
        description="Checked like an API write: required fields, types, unique values and relations."
      />
      <Card>
        <CardBody>
          <RecordForm
            formId="record"
            projectId={projectId}
            {...context}
            record={null}
            submitLabel="Create record"
            action={createRecordAction.bind(null, projectId, schema.name)}
            search={searchRecordChoicesAction.bind(null, projectId)}
            takenUniqueValues={findTakenUniqueValuesAction.bind(null, projectId, schema.name, null)}
            redirectTo={`/projects/${projectId}/records/${schema.name}/{id}`}
          />
        </CardBody>
      </Card>
    </>
  );
}
