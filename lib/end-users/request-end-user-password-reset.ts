import { z } from "zod";
import { ACCOUNT_FIELDS, RESET_TOKEN_TTL_MS } from "./account-fields";
import { runAfterResponse } from "@/lib/http/after-response";
import type { AuthSchemaContext } from "./auth-schema-context";
import { emailInputSchema, parseEndUserInput } from "./end-user-input";
import { enforceEndUserRateLimit } from "./end-user-rate-limits";
import { ensureAccountIndexes } from "./ensure-account-indexes";
import { createOneTimeToken } from "./one-time-token";
import { sendEndUserMail } from "./send-end-user-mail";

const requestInput = z.object({ email: emailInputSchema });

export interface RequestEndUserPasswordResetOptions {
  context: AuthSchemaContext;
  /** `{email}`. */
  input: unknown;
  clientIp: string;
  now?: Date;
}

/**
 * Accepts a password-reset request without revealing whether the email has an account: after the
 * rate limits (20 per hour per IP, 5 per hour per email, known or not) it returns at once, and the
 * lookup, the new token (valid 1 hour, single-use, replacing any earlier reset token) and the mail
 * happen after the response (runAfterResponse), so neither the answer nor its timing differs. Mail
 * failures are logged only.
 */
export async function requestEndUserPasswordReset(options: RequestEndUserPasswordResetOptions): Promise<void> {
  const { context } = options;
  const { project, schema, store } = context;
  await enforceEndUserRateLimit({ action: "requestPasswordReset", projectId: project.id, schema: schema.name, by: "ip", value: options.clientIp });
  const { email } = parseEndUserInput(requestInput, options.input, "request-password-reset");
  await enforceEndUserRateLimit({ action: "requestPasswordReset", projectId: project.id, schema: schema.name, by: "email", value: email });
  const now = (options.now ?? new Date()).getTime();

  runAfterResponse("end-user password reset mail", async () => {
    const [account] = await store.find(schema.name, { where: [{ field: "email", op: "eq", value: email }], limit: 1 });
    if (!account) return;
    await ensureAccountIndexes(context);
    const reset = createOneTimeToken();
    const result = await store.updateFirst(
      schema.name,
      [
        { field: "id", op: "eq", value: account.id },
        { field: "email", op: "eq", value: email },
      ],
      {
        [ACCOUNT_FIELDS.resetTokenHash]: reset.hash,
        [ACCOUNT_FIELDS.resetExpiresAt]: now + RESET_TOKEN_TTL_MS,
        [ACCOUNT_FIELDS.resetEmail]: email,
      },
    );
    if (!result.matched) return;
    await sendEndUserMail({ project, schema: schema.name, to: email, kind: "password_reset", token: reset.token });
  });
}
