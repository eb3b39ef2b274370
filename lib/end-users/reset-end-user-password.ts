import { z } from "zod";
import { hashPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { ACCOUNT_FIELDS, millisecondsOf, newTokenEpoch } from "./account-fields";
import type { AuthSchemaContext } from "./auth-schema-context";
import { newPasswordSchema, oneTimeTokenInputSchema, parseEndUserInput } from "./end-user-input";
import { toEndUserProfile, type EndUserProfile } from "./end-user-profile";
import { enforceEndUserRateLimit } from "./end-user-rate-limits";
import { hashOneTimeToken, isOneTimeTokenShape } from "./one-time-token";

const resetInput = z.object({ token: oneTimeTokenInputSchema, password: newPasswordSchema });

export interface ResetEndUserPasswordOptions {
  context: AuthSchemaContext;
  /** `{token, password}`. */
  input: unknown;
  clientIp: string;
  now?: Date;
}

function invalidResetToken(): AppError {
  return new AppError("bad_request", "the reset token is invalid or has already been used");
}

/**
 * Sets a new password with the token from the reset mail. The token is single-use (cleared in the
 * same atomic update that checks it), expires after 1 hour and works only while the account still
 * has the address it was mailed to. The reset rotates the account's token epoch, so every session
 * token issued before it is refused from then on (tokens issued afterwards work, even within the
 * same second). It also marks the email verified — the token proved the address — and clears a
 * pending verification token. Refusals are 400. Answers the profile. Rate limit: 60/min per IP.
 */
export async function resetEndUserPassword(options: ResetEndUserPasswordOptions): Promise<EndUserProfile> {
  const { project, schema, schemas, store } = options.context;
  await enforceEndUserRateLimit({ action: "resetPassword", projectId: project.id, schema: schema.name, by: "ip", value: options.clientIp });
  const input = parseEndUserInput(resetInput, options.input, "reset-password");
  if (!isOneTimeTokenShape(input.token)) throw invalidResetToken();

  const hash = hashOneTimeToken(input.token);
  const now = (options.now ?? new Date()).getTime();
  const [account] = await store.find(schema.name, { where: [{ field: ACCOUNT_FIELDS.resetTokenHash, op: "eq", value: hash }], limit: 1 });
  if (!account) throw invalidResetToken();
  if (millisecondsOf(account, ACCOUNT_FIELDS.resetExpiresAt) <= now) throw new AppError("bad_request", "the reset token has expired; ask for a new one");
  const sentTo = account[ACCOUNT_FIELDS.resetEmail];
  if (typeof sentTo !== "string" || sentTo !== account.email) throw invalidResetToken();

  const passwordHash = await hashPassword(input.password);
  const result = await store.updateFirst(
    schema.name,
    [
      { field: "id", op: "eq", value: account.id },
      { field: ACCOUNT_FIELDS.resetTokenHash, op: "eq", value: hash },
      { field: ACCOUNT_FIELDS.resetExpiresAt, op: "gt", value: now },
      { field: "email", op: "eq", value: sentTo },
    ],
    {
      [ACCOUNT_FIELDS.passwordHash]: passwordHash,
      [ACCOUNT_FIELDS.tokenEpoch]: newTokenEpoch(),
      [ACCOUNT_FIELDS.passwordChangedAt]: now,
      [ACCOUNT_FIELDS.resetTokenHash]: null,
      [ACCOUNT_FIELDS.resetExpiresAt]: null,
      [ACCOUNT_FIELDS.resetEmail]: null,
      emailVerified: true,
      [ACCOUNT_FIELDS.verificationTokenHash]: null,
      [ACCOUNT_FIELDS.verificationExpiresAt]: null,
      [ACCOUNT_FIELDS.verificationEmail]: null,
    },
  );
  if (!result.matched || !result.record) throw invalidResetToken();
  return toEndUserProfile({ schema, schemas, record: result.record });
}
