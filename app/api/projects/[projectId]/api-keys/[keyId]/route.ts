import { withProjectAuth } from "@/lib/http/with-project-auth";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";

/** Revokes the key (it stays listed as revoked). */
export const DELETE = withProjectAuth<{ projectId: string; keyId: string }>(
  async ({ project, params }) => {
    await revokeApiKey({ projectId: project.id, keyId: params.keyId });
    return new Response(null, { status: 204 });
  },
  { permission: "project.manage", sessionOnly: true },
);
