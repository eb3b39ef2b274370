import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { createSecret } from "@/lib/secrets/create-secret";
import { listSecrets } from "@/lib/secrets/list-secrets";

const NO_STORE = { "cache-control": "no-store" };

/** Names, hints and dates of the project's secrets; values are never answered. */
export const GET = withProjectAuth(async ({ project }) => Response.json({ data: await listSecrets({ projectId: project.id }) }, { headers: NO_STORE }), {
  permission: "secrets.write",
});

/** `{name, value}` → 201 with the summary; 409 when the name exists (rotate with PUT /secrets/:name). */
export const POST = withProjectAuth(
  async ({ request, project, actor }) => {
    const created = await createSecret({
      projectId: project.id,
      input: await readJson(request, { limitBytes: 64_000 }),
      createdBy: actor.type === "user" ? actor.userId : null,
    });
    return Response.json(created, { status: 201, headers: NO_STORE });
  },
  { permission: "secrets.write" },
);
