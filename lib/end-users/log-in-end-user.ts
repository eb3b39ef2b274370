import { z } from "zod";
import { getDecoyPasswordHash, verifyPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { ACCOUNT_FIELDS, tokenEpochOf } from "./account-fields";
import type { AuthSchemaContext } from "./auth-schema-context";
import { emailInputSchema, parseEndUserInput } from "./end-user-input";
import { toEndUserProfile, type EndUserProfile } from "./end-user-profile";
import { enforceEndUserRateLimit } from "./end-user-rate-limits";
import { signEndUserToken } from "./end-user-token";

const loginInput = z.object({
  email: emailInputSchema,
  // Longer than any password register accepts, but bounded: scrypt should not be fed megabytes.
  password: z.string({ error: "is required" }).min(1, "is required").max(1024, "must be at most 1024 characters"),
});

export interface LogInEndUserOptions {
  context: AuthSchemaContext;
  /** `{email, password}`. */
  input: unknown;
  clientIp: string;
}

export interface EndUserSession {
  /** HS256 JWT, valid 7 days, for this project and auth schema only. */
  token: string;
  /** ISO 8601. */
  expiresAt: string;
  user: EndUserProfile;
}

/**
 * Signs an end user in. An unknown email, an account without a password (created through the
 * records API) and a wrong password all answer the same 401 after the same scrypt work (a decoy
 * hash stands in for a missing one). Unverified accounts may sign in: `user.emailVerified` tells
 * the site, and endpoints can check it. Rate limits: 30 per minute per IP (every request), then
 * 10 per minute per email (known or not).
 */
export async function logInEndUser(options: LogInEndUserOptions): Promise<EndUserSession> {
  const { project, schema, schemas, store } = options.context;
  await enforceEndUserRateLimit({ action: "login", projectId: project.id, schema: schema.name, by: "ip", value: options.clientIp });
  const input = parseEndUserInput(loginInput, options.input, "login");
  await enforceEndUserRateLimit({ action: "login", projectId: project.id, schema: schema.name, by: "email", value: input.email });

  const decoy = getDecoyPasswordHash();
  const [account] = await store.find(schema.name, { where: [{ field: "email", op: "eq", value: input.email }], limit: 1 });
  const storedHash = account?.[ACCOUNT_FIELDS.passwordHash];
  const hasPassword = typeof storedHash === "string" && storedHash.length > 0;
  const matches = await verifyPassword(input.password, hasPassword ? storedHash : await decoy);
  if (!account || !hasPassword || !matches) throw new AppError("unauthorized", "invalid email or password");

  const session = await signEndUserToken({ projectId: project.id, schema: schema.name, userId: account.id, epoch: tokenEpochOf(account) });
  return { ...session, user: toEndUserProfile({ schema, schemas, record: account }) };
}
