"use server";

import { refresh } from "next/cache";
import { AppError } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { deleteRecord } from "@/lib/records-service/delete-record";
import { updateRecord } from "@/lib/records-service/update-record";
import { listSchemas } from "@/lib/schemas/list-schemas";
import type { ProjectAction } from "@/lib/auth/permissions";
import { toActionFailure, type ActionResult } from "@/components/endpoints/action-result";
import { requireProjectMember } from "@/components/endpoints/require-project-member";

/** Membership first, then the customer database and the schema (a component or unknown name is not_found). */
async function recordContext(projectId: string, schemaName: string, action: ProjectAction) {
  const { row } = await requireProjectMember(projectId, action);
  const schemas = await listSchemas({ projectId });
  const schema = schemas.find((candidate) => candidate.name === schemaName);
  if (!schema || schema.kind === "component") throw new AppError("not_found", `no schema named "${schemaName}" holds records`);
  const store = await getProjectRecordStore({ project: row });
  return { store, schema, schemas, projectId, origin: "api" as const };
}

export async function createRecordAction(projectId: string, schemaName: string, input: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    const record = await createRecord({ ...(await recordContext(projectId, schemaName, "records.create")), input });
    return { ok: true, data: { id: record.id } };
  } catch (error) {
    return toActionFailure(error, "create-record");
  }
}

export async function updateRecordAction(projectId: string, schemaName: string, id: string, input: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    const record = await updateRecord({ ...(await recordContext(projectId, schemaName, "records.update")), id, input });
    refresh();
    return { ok: true, data: { id: record.id } };
  } catch (error) {
    return toActionFailure(error, "update-record");
  }
}

export async function deleteRecordAction(projectId: string, schemaName: string, id: string): Promise<{ error?: string }> {
  try {
    await deleteRecord({ ...(await recordContext(projectId, schemaName, "records.delete")), id });
  } catch (error) {
    return { error: toActionFailure(error, "delete-record").error };
  }
  return {};
}
