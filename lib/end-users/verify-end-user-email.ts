import { z } from "zod";
import { AppError } from "@/lib/errors";
import { ACCOUNT_FIELDS, millisecondsOf } from "./account-fields";
import type { AuthSchemaContext } from "./auth-schema-context";
import { oneTimeTokenInputSchema, parseEndUserInput } from "./end-user-input";
import { toEndUserProfile, type EndUserProfile } from "./end-user-profile";
import { enforceEndUserRateLimit } from "./end-user-rate-limits";
import { hashOneTimeToken, isOneTimeTokenShape } from "./one-time-token";

const verifyInput = z.object({ token: oneTimeTokenInputSchema });

export interface VerifyEndUserEmailOptions {
  context: AuthSchemaContext;
  /** `{token}` from the verification mail. */
  input: unknown;
  clientIp: string;
  now?: Date;
}

export function invalidVerificationToken(): AppError {
  return new AppError("bad_request", "the verification token is invalid or has already been used");
}

/**
 * Marks the account's email as verified with the token mailed at registration. The token is
 * single-use (cleared in the same atomic update that checks it), expires after 48 hours and
 * verifies only the address it was sent to (not one the owner changed it to since). Refusals are
 * 400. Answers the profile. Rate limit: 60 per minute per IP.
 */
export async function verifyEndUserEmail(options: VerifyEndUserEmailOptions): Promise<EndUserProfile> {
  const { project, schema, schemas, store } = options.context;
  await enforceEndUserRateLimit({ action: "verifyEmail", projectId: project.id, schema: schema.name, by: "ip", value: options.clientIp });
  const { token } = parseEndUserInput(verifyInput, options.input, "verify-email");
  if (!isOneTimeTokenShape(token)) throw invalidVerificationToken();

  const hash = hashOneTimeToken(token);
  const now = (options.now ?? new Date()).getTime();
  const [account] = await store.find(schema.name, { where: [{ field: ACCOUNT_FIELDS.verificationTokenHash, op: "eq", value: hash }], limit: 1 });
  if (!account) throw invalidVerificationToken();
  if (millisecondsOf(account, ACCOUNT_FIELDS.verificationExpiresAt) <= now) {
    throw new AppError("bad_request", "the verification token has expired (a password reset also verifies the address)");
  }
  const sentTo = account[ACCOUNT_FIELDS.verificationEmail];
  if (typeof sentTo !== "string" || sentTo !== account.email) throw invalidVerificationToken();

  // The conditions repeat every check, so a concurrent use or change in between makes this match nothing.
  const result = await store.updateFirst(
    schema.name,
    [
      { field: "id", op: "eq", value: account.id },
      { field: ACCOUNT_FIELDS.verificationTokenHash, op: "eq", value: hash },
      { field: ACCOUNT_FIELDS.verificationExpiresAt, op: "gt", value: now },
      { field: "email", op: "eq", value: sentTo },
    ],
    {
      emailVerified: true,
      [ACCOUNT_FIELDS.verificationTokenHash]: null,
      [ACCOUNT_FIELDS.verificationExpiresAt]: null,
      [ACCOUNT_FIELDS.verificationEmail]: null,
    },
  );
  if (!result.matched || !result.record) throw invalidVerificationToken();
  return toEndUserProfile({ schema, schemas, record: result.record });
}
