"use server";

import { refresh } from "next/cache";
import { AppError, isAppError, type ErrorIssue } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { deleteRecord } from "@/lib/records-service/delete-record";
import { findRecordChoices } from "@/lib/records-service/find-record-choices";
import { findTakenUniqueValues, type FindTakenUniqueValuesOptions } from "@/lib/records-service/find-taken-unique-values";
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

/**
 * Runs a dashboard write so that a refused one lists every problem at once: a write checks unique
 * values only as it stores the record, once everything else passed (and names one field), so the
 * form's other issues and its taken unique values are reported together here. The records API
 * answers as docs/DESIGN.md says (422, or 409 for a taken value); only this action's answer merges them.
 */
async function writeWithEveryIssue<T>(write: () => Promise<T>, check: FindTakenUniqueValuesOptions): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isAppError(error) || (error.code !== "validation_failed" && error.code !== "unique_violation")) throw error;
    const issues: ErrorIssue[] = [...(error.issues ?? [])];
    for (const taken of await findTakenUniqueValues(check)) if (!issues.some((issue) => issue.path === taken.path)) issues.push(taken);
    if (issues.length === (error.issues?.length ?? 0)) throw error;
    // Taken values alone stay a conflict; with invalid values it is one refusal of invalid input.
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new AppError(error.code, `${issues[0]!.path}: ${issues[0]!.message}${more}`, {
      issues,
      field: error.field,
      cause: error,
    });
  }
}

export const createRecordAction = projectAction(
  "records.create",
  async (context, schemaName: string, input: unknown) => {
    const records = await recordContext(context, schemaName);
    const record = await writeWithEveryIssue(() => createRecord({ ...records, input }), { ...records, input, mode: "create" });
    return succeed({ id: record.id });
  },
  { name: "create-record" },
);

export const updateRecordAction = projectAction(
  "records.update",
  async (context, schemaName: string, id: string, input: unknown) => {
    const records = await recordContext(context, schemaName);
    const record = await writeWithEveryIssue(() => updateRecord({ ...records, id, input }), { ...records, input, mode: "update", recordId: id });
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

/**
 * The record form's check after the records API refused a save with uploads (a multipart write,
 * which server actions cannot carry): the unique fields of `input` another record holds, so that
 * they are shown with the API's other issues. `recordId`: the record being edited, or null.
 */
export const findTakenUniqueValuesAction = projectAction(
  "records.read",
  async (context, schemaName: string, recordId: string | null, input: unknown) => {
    if (recordId !== null && typeof recordId !== "string") {
      throw new AppError("validation_failed", "invalid record id", { issues: [{ path: "recordId", message: "must be a record id or null" }] });
    }
    const records = await recordContext(context, String(schemaName));
    const issues = await findTakenUniqueValues({ ...records, input, mode: recordId ? "update" : "create", recordId: recordId ?? undefined });
    return succeed(issues);
  },
  { name: "find-taken-unique-values" },
);
