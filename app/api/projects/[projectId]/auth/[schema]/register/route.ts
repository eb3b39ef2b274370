import { readJson } from "@/lib/http/read-json";
import { registerEndUser } from "@/lib/end-users/register-end-user";
import { END_USER_BODY_LIMIT_BYTES, endUserPreflight, withEndUserRoute } from "@/lib/http/with-end-user-route";

/** POST {email, password, ...fields} → 201 the profile; a verification mail goes out. */
export const POST = withEndUserRoute(async ({ request, auth, clientIp }) => {
  const input = await readJson(request, { limitBytes: END_USER_BODY_LIMIT_BYTES });
  return Response.json(await registerEndUser({ context: auth, input, clientIp }), { status: 201 });
});

export const OPTIONS = endUserPreflight("POST");
