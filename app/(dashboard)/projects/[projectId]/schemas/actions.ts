"use server";

import { refresh } from "next/cache";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { deleteSchema } from "@/lib/schemas/delete-schema";
import type { SchemaChangeEffects } from "@/lib/schemas/describe-schema-change";
import { updateSchema } from "@/lib/schemas/update-schema";
import { toActionFailure, type ActionResult } from "@/components/endpoints/action-result";
import { requireProjectMember } from "@/components/endpoints/require-project-member";

/** Saves a new schema definition; the editor then opens it. */
export async function createSchemaAction(projectId: string, definition: unknown): Promise<ActionResult<{ name: string; version: number }>> {
  try {
    const { row } = await requireProjectMember(projectId, "schemas.write");
    const store = await getProjectRecordStore({ project: row });
    const saved = await createSchema({ projectId, definition, store });
    refresh();
    return { ok: true, data: { name: saved.name, version: saved.version } };
  } catch (error) {
    return toActionFailure(error, "create-schema");
  }
}

/**
 * Replaces a schema's definition. The editor first calls it with dryRun to learn the effects and
 * asks the owner to confirm those that hide or reinterpret stored data, then saves with the
 * version it edited (a save by someone else meanwhile is a conflict, not a silent overwrite).
 */
export async function updateSchemaAction(
  projectId: string,
  name: string,
  definition: unknown,
  options: { dryRun: boolean; expectedVersion: number },
): Promise<ActionResult<{ version: number; effects: SchemaChangeEffects }>> {
  try {
    const { row } = await requireProjectMember(projectId, "schemas.write");
    const store = await getProjectRecordStore({ project: row });
    const result = await updateSchema({ projectId, name, definition, store, dryRun: options.dryRun, expectedVersion: options.expectedVersion });
    if (!options.dryRun) refresh();
    return { ok: true, data: { version: result.schema.version, effects: result.effects } };
  } catch (error) {
    return toActionFailure(error, "update-schema");
  }
}

/** Deletes a schema; one with records is refused (conflict, saying how many) unless `confirm`. */
export async function deleteSchemaAction(projectId: string, name: string, confirm: boolean): Promise<ActionResult<{ deletedRecords: number }>> {
  try {
    const { row } = await requireProjectMember(projectId, "schemas.write");
    const store = await getProjectRecordStore({ project: row });
    const result = await deleteSchema({ projectId, name, store, confirm });
    return { ok: true, data: result };
  } catch (error) {
    return toActionFailure(error, "delete-schema");
  }
}
