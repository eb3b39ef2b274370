import { readJson } from "@/lib/http/read-json";
import { resetEndUserPassword } from "@/lib/end-users/reset-end-user-password";
import { END_USER_BODY_LIMIT_BYTES, endUserPreflight, withEndUserRoute } from "@/lib/http/with-end-user-route";

/** POST {token, password} → the profile; earlier session tokens stop working. */
export const POST = withEndUserRoute(async ({ request, auth, clientIp }) => {
  const input = await readJson(request, { limitBytes: END_USER_BODY_LIMIT_BYTES });
  return Response.json(await resetEndUserPassword({ context: auth, input, clientIp }));
});

export const OPTIONS = endUserPreflight("POST");
