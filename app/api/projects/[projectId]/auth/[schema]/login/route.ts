import { readJson } from "@/lib/http/read-json";
import { logInEndUser } from "@/lib/end-users/log-in-end-user";
import { END_USER_BODY_LIMIT_BYTES, endUserPreflight, withEndUserRoute } from "@/lib/http/with-end-user-route";

/** POST {email, password} → {token, expiresAt, user}. */
export const POST = withEndUserRoute(async ({ request, auth, clientIp }) => {
  const input = await readJson(request, { limitBytes: END_USER_BODY_LIMIT_BYTES });
  return Response.json(await logInEndUser({ context: auth, input, clientIp }));
});

export const OPTIONS = endUserPreflight("POST");
