import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { deleteSchemaFiles } from "@/lib/files/delete-schema-files";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { deleteSchema } from "@/lib/schemas/delete-schema";
import { getSchemaOrThrow } from "@/lib/schemas/get-schema-or-throw";
import { updateSchema } from "@/lib/schemas/update-schema";
import { assertKnownParameters, assertPossibleSchemaName, readFlag, readSchemaPatch } from "../_lib/schema-route-input";

type Params = { projectId: string; name: string };

export const GET = withProjectAuth<Params>(
  async ({ project, params }) => {
    assertPossibleSchemaName(params.name);
    return Response.json(await getSchemaOrThrow({ projectId: project.id, name: params.name }));
  },
  { permission: "schemas.read" },
);

/**
 * `PATCH /schemas/:name[?dryRun=true]` with the whole new definition (see readSchemaPatch: `fields`
 * is the complete list; name and kind may be left out; `version` for optimistic concurrency).
 * Answers `{ schema, effects, dryRun }`: `effects` says what happens to stored data (removed
 * fields keep their values, hidden; type changes do not convert; indexes created and dropped) and
 * `requiresConfirmation` — with dryRun=true nothing is saved, so a client can show the effects and
 * ask before saving.
 */
export const PATCH = withProjectAuth<Params>(
  async ({ request, project, params }) => {
    const searchParams = new URL(request.url).searchParams;
    assertKnownParameters(searchParams, ["dryRun"]);
    const dryRun = readFlag(searchParams, "dryRun");
    assertPossibleSchemaName(params.name);
    const current = await getSchemaOrThrow({ projectId: project.id, name: params.name });
    const { definition, expectedVersion } = readSchemaPatch(await readJson(request), current);
    const result = await updateSchema({
      projectId: project.id,
      name: current.name,
      definition,
      store: await getProjectRecordStore({ project }),
      dryRun,
      ...(expectedVersion === undefined ? {} : { expectedVersion }),
    });
    return Response.json({ ...result, dryRun });
  },
  { permission: "schemas.write" },
);

/**
 * `DELETE /schemas/:name[?confirm=true]` (or a body `{"confirm": true}`). A schema with records is
 * refused with 409 saying how many records would go, unless confirmed; then its records and
 * uploaded files are deleted with it. Answers `{ deleted, deletedRecords, deletedFiles }`.
 */
export const DELETE = withProjectAuth<Params>(
  async ({ request, project, params }) => {
    const searchParams = new URL(request.url).searchParams;
    assertKnownParameters(searchParams, ["confirm"]);
    assertPossibleSchemaName(params.name);
    const body = await readJson(request);
    const confirm = readFlag(searchParams, "confirm") || (typeof body === "object" && body !== null && (body as { confirm?: unknown }).confirm === true);
    const store = await getProjectRecordStore({ project });
    const { deletedRecords } = await deleteSchema({ projectId: project.id, name: params.name, store, confirm });
    const deletedFiles = await deleteSchemaFiles({ store, schema: params.name });
    return Response.json({ deleted: params.name, deletedRecords, deletedFiles });
  },
  { permission: "schemas.write" },
);
