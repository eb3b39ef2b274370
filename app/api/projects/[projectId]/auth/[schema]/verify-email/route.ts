import { readJson } from "@/lib/http/read-json";
import { verifyEndUserEmail } from "@/lib/end-users/verify-end-user-email";
import { END_USER_BODY_LIMIT_BYTES, endUserPreflight, withEndUserRoute } from "@/lib/http/with-end-user-route";

/** POST {token} → the profile, now with emailVerified: true. */
export const POST = withEndUserRoute(async ({ request, auth, clientIp }) => {
  const input = await readJson(request, { limitBytes: END_USER_BODY_LIMIT_BYTES });
  return Response.json(await verifyEndUserEmail({ context: auth, input, clientIp }));
});

export const OPTIONS = endUserPreflight("POST");
