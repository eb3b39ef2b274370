"use server";

import { refresh } from "next/cache";
import { AppError } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { deleteRecord } from "@/lib/records-service/delete-record";
import { findRecordChoices } from "@/lib/records-service/find-record-choices";
import { updateRecord } from "@/lib/records-service/update-record";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { succeed } from "@/lib/http/action-result";
import { projectAction, type ProjectActionContext } from "@/lib/http/project-action";

/** After the membership check: the customer database and the schema (a component or unknown name is not_found). */
async function recordContext({ projectId, project }: ProjectActionContext, schemaName: string) {
  const schemas = await listSchemas({ projectId });
  const schema = schemas.find((candidate) => candidate.name === schemaName);
  if (!schema || schema.kind === "component") throw new AppError("not_found", `no schema named "${schemaName}" holds records`);
  const store = await getProjectRecordStore({ project });
  return { store, schema, schemas, projectId, origin: "api" as const };
}

export const createRecordAction = projectAction(
  "records.create",
  async (context, schemaName: string, input: unknown) => {
    const record = await createRecord({ ...(await recordContext(context, schemaName)), input });
    return succeed({ id: record.id });
  },
  { name: "create-record" },
);

export const updateRecordAction = projectAction(
  "records.update",
  async (context, schemaName: string, id: string, input: unknown) => {
    const record = await updateRecord({ ...(await recordContext(context, schemaName)), id, input });
    refresh();
    return succeed({ id: record.id });
  },
  { name: "update-record" },
);

export const deleteRecordAction = projectAction(
  "records.delete",
  async (context, schemaName: string, id: string) => {
    await deleteRecord({ ...(await recordContext(context, schemaName)), id });
    return succeed();
  },
  { name: "delete-record" },
);

/**
 * The record form's relation picker: records of the related schema whose text fields contain
 * `search` (or whose id it is exactly), newest first, each as its id and a few short values.
 */
export const searchRecordChoicesAction = projectAction(
  "records.read",
  async (context, schemaName: string, search: string) => {
    if (typeof search !== "string") throw new AppError("validation_failed", "invalid search", { issues: [{ path: "search", message: "must be text" }] });
    const choices = await findRecordChoices({ ...(await recordContext(context, String(schemaName))), search, limit: 8 });
    return succeed(choices);
  },
  { name: "search-record-choices" },
);
