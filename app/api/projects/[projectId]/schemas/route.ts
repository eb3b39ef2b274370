import { AppError } from "@/lib/errors";
import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { SCHEMA_KINDS, type SchemaKind } from "@/lib/schemas/schema-definition";
import { assertKnownParameters } from "./_lib/schema-route-input";

/** `GET /schemas[?kind=collection|auth|component]` → `{ data: [schema, ...] }`, by name. */
export const GET = withProjectAuth(
  async ({ request, project }) => {
    const params = new URL(request.url).searchParams;
    assertKnownParameters(params, ["kind"]);
    const kind = params.get("kind");
    if (kind !== null && !(SCHEMA_KINDS as readonly string[]).includes(kind)) {
      throw new AppError("bad_request", `kind: must be one of ${SCHEMA_KINDS.join(", ")}`, { issues: [{ path: "kind", message: `must be one of ${SCHEMA_KINDS.join(", ")}` }] });
    }
    return Response.json({ data: await listSchemas({ projectId: project.id, ...(kind ? { kind: kind as SchemaKind } : {}) }) });
  },
  { permission: "schemas.read" },
);

/** `POST /schemas` with a definition → 201 with the saved schema (409 for a taken name or duplicates in existing data). */
export const POST = withProjectAuth(
  async ({ request, project }) => {
    const definition = await readJson(request);
    const schema = await createSchema({ projectId: project.id, definition, store: await getProjectRecordStore({ project }) });
    return Response.json(schema, { status: 201, headers: { location: `${new URL(request.url).pathname}/${schema.name}` } });
  },
  { permission: "schemas.write" },
);
