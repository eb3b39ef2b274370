import { readBearerToken } from "@/lib/end-users/end-user-token";
import { verifyEndUserToken } from "@/lib/end-users/verify-end-user-token";
import { endUserPreflight, withEndUserRoute } from "@/lib/http/with-end-user-route";

/** GET with Authorization: Bearer <token> → the profile. */
export const GET = withEndUserRoute(async ({ request, auth }) => {
  const token = readBearerToken(request);
  const profile = await verifyEndUserToken({ projectId: auth.project.id, schema: auth.schema.name, token, store: auth.store, schemas: auth.schemas });
  return Response.json(profile);
});

export const OPTIONS = endUserPreflight("GET");
