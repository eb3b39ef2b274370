"use server";

import { refresh } from "next/cache";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { deleteSchema } from "@/lib/schemas/delete-schema";
import type { SchemaChangeEffects } from "@/lib/schemas/describe-schema-change";
import { updateSchema } from "@/lib/schemas/update-schema";
import { succeed } from "@/lib/http/action-result";
import { projectAction } from "@/lib/http/project-action";

/** Saves a new schema definition; the editor then opens it. */
export const createSchemaAction = projectAction(
  "schemas.write",
  async ({ projectId, project }, definition: unknown) => {
    const store = await getProjectRecordStore({ project });
    const saved = await createSchema({ projectId, definition, store });
    refresh();
    return succeed({ name: saved.name, version: saved.version });
  },
  { name: "create-schema" },
);

/**
 * Replaces a schema's definition. The editor first calls it with dryRun to learn the effects and
 * asks the owner to confirm those that hide or reinterpret stored data, then saves with the
 * version it edited (a save by someone else meanwhile is a conflict, not a silent overwrite).
 */
export const updateSchemaAction = projectAction(
  "schemas.write",
  async ({ projectId, project }, name: string, definition: unknown, options: { dryRun: boolean; expectedVersion: number }) => {
    const store = await getProjectRecordStore({ project });
    const result = await updateSchema({ projectId, name, definition, store, dryRun: options.dryRun, expectedVersion: options.expectedVersion });
    if (!options.dryRun) refresh();
    const effects: SchemaChangeEffects = result.effects;
    return succeed({ version: result.schema.version, effects });
  },
  { name: "update-schema" },
);

/** Deletes a schema; one with records is refused (conflict, saying how many) unless `confirm`. */
export const deleteSchemaAction = projectAction(
  "schemas.write",
  async ({ projectId, project }, name: string, confirm: boolean) => {
    const store = await getProjectRecordStore({ project });
    return succeed(await deleteSchema({ projectId, name, store, confirm }));
  },
  { name: "delete-schema" },
);
