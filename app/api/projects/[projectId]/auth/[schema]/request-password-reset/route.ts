import { readJson } from "@/lib/http/read-json";
import { requestEndUserPasswordReset } from "@/lib/end-users/request-end-user-password-reset";
import { END_USER_BODY_LIMIT_BYTES, endUserPreflight, withEndUserRoute } from "@/lib/http/with-end-user-route";

/** POST {email} → always 202 (whether or not the email has an account); the mail goes out afterwards. */
export const POST = withEndUserRoute(async ({ request, auth, clientIp }) => {
  const input = await readJson(request, { limitBytes: END_USER_BODY_LIMIT_BYTES });
  await requestEndUserPasswordReset({ context: auth, input, clientIp });
  return Response.json({ message: "if an account uses this email, a reset link is on its way" }, { status: 202 });
});

export const OPTIONS = endUserPreflight("POST");
