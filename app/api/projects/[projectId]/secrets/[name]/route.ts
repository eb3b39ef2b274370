import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { deleteSecret } from "@/lib/secrets/delete-secret";
import { rotateSecret } from "@/lib/secrets/rotate-secret";

type Params = { projectId: string; name: string };

/** Rotates: `{value}` → 200 with the summary; 404 when the secret does not exist. */
export const PUT = withProjectAuth<Params>(
  async ({ request, project, params }) => {
    const rotated = await rotateSecret({ projectId: project.id, name: params.name, input: await readJson(request, { limitBytes: 64_000 }) });
    return Response.json(rotated, { headers: { "cache-control": "no-store" } });
  },
  { permission: "secrets.write" },
);

export const DELETE = withProjectAuth<Params>(
  async ({ project, params }) => {
    await deleteSecret({ projectId: project.id, name: params.name });
    return new Response(null, { status: 204 });
  },
  { permission: "secrets.write" },
);
