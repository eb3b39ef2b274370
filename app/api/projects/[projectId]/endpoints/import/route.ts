import { AppError } from "@/lib/errors";
import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { importEndpoints } from "@/lib/endpoints/import-endpoints";

function readDryRun(url: URL): boolean {
  const value = url.searchParams.get("dryRun");
  if (value === null || value === "false") return false;
  if (value === "true" || value === "") return true;
  throw new AppError("bad_request", "invalid query", { issues: [{ path: "dryRun", message: "must be true or false" }] });
}

/**
 * Creates or replaces endpoints from an export document, all or nothing; `?dryRun=true` answers the
 * same plan (created / replaced with the differing fields / unchanged) without writing anything.
 */
export const POST = withProjectAuth(
  async ({ request, project }) => {
    const dryRun = readDryRun(new URL(request.url));
    return Response.json(await importEndpoints({ projectId: project.id, document: await readJson(request, { limitBytes: 5_000_000 }), dryRun }));
  },
  { permission: ["endpoints.create", "endpoints.update"], requireAll: true },
);
