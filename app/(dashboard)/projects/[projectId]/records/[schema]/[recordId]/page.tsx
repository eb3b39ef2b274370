import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { getRecordOrThrow } from "@/lib/records-service/get-record-or-throw";
import type { PublicRecord } from "@/lib/records-service/present-record";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { formatDateTime } from "@/components/ui/format-date";
import { DeleteRecordButton } from "@/components/records/delete-record-button";
import { RecordForm } from "@/components/records/record-form";
import { loadRecordFormContext, type RecordFormContext } from "../../../_data/load-record-form-context";
import { deleteRecordAction, findTakenUniqueValuesAction, searchRecordChoicesAction, updateRecordAction } from "../../actions";
import { loadRecordSchema } from "../load-record-schema";

export const metadata: Metadata = { title: "Record" };

export default async function RecordPage({ params }: { params: Promise<{ projectId: string; schema: string; recordId: string }> }) {
  const { projectId, schema: rawName, recordId } = await params;
  const { loaded, schema, schemas, crumbs } = await loadRecordSchema(projectId, rawName);
  let record: PublicRecord;
  let context: RecordFormContext;
  try {
    const store = await getProjectRecordStore({ project: loaded.row });
    record = await getRecordOrThrow({ store, schema, schemas, id: recordId });
    context = await loadRecordFormContext({ store, schema, schemas, record });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    if (isAppError(error) && error.isPublic) return <Notice tone="warning">Your database could not be read: {error.message}.</Notice>;
    throw error;
  }
  const { id, createdAt, updatedAt, ...values } = record;
  const listHref = `/projects/${projectId}/records/${schema.name}`;
  return (
    <>
      <PageHeader
        crumbs={[...crumbs, { label: id }]}
        title={<span className="font-mono text-xl">{id}</span>}
        description={`Created ${formatDateTime(new Date(createdAt))} · updated ${formatDateTime(new Date(updatedAt))}`}
        actions={<DeleteRecordButton listHref={listHref} action={deleteRecordAction.bind(null, projectId, schema.name, id)} />}
      />
      <Card>
        <CardHeader title="Field values" description="Checked like an API write: required fields, types, unique values and relations." />
        <CardBody>
          <RecordForm
            formId="record"
            projectId={projectId}
            {...context}
            record={values}
            recordId={id}
            submitLabel="Save record"
            action={updateRecordAction.bind(null, projectId, schema.name, id)}
            search={searchRecordChoicesAction.bind(null, projectId)}
            takenUniqueValues={findTakenUniqueValuesAction.bind(null, projectId, schema.name, id)}
          />
        </CardBody>
      </Card>
    </>
  );
}
