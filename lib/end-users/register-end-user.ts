import { hashPassword } from "@/lib/auth/password";
import { AppError, isAppError, validationError, type ErrorIssue } from "@/lib/errors";
import { log } from "@/lib/log";
import { createRecord } from "@/lib/records-service/create-record";
import { emitRecordChange } from "@/lib/records-service/record-events";
import { validateRecordInput } from "@/lib/records-service/validate-record";
import { ACCOUNT_FIELDS, newTokenEpoch, VERIFICATION_TOKEN_TTL_MS } from "./account-fields";
import type { AuthSchemaContext } from "./auth-schema-context";
import { newPasswordSchema, isPlainObject } from "./end-user-input";
import type { EndUserProfile } from "./end-user-profile";
import { enforceEndUserRateLimit } from "./end-user-rate-limits";
import { ensureAccountIndexes } from "./ensure-account-indexes";
import { createOneTimeToken } from "./one-time-token";
import { sendEndUserMail } from "./send-end-user-mail";

export interface RegisterEndUserOptions {
  context: AuthSchemaContext;
  /** `{email, password, ...the schema's own fields}`. */
  input: unknown;
  /** For the per-IP rate limit. */
  clientIp: string;
  now?: Date;
}

/**
 * Creates an end-user account and mails it a verification token (valid 48 hours, single-use).
 * `email` and the owner's fields are validated like a record (422 with paths, emails lowercased);
 * `password` must have 8–256 characters; `emailVerified` cannot be set by the end user. A taken
 * email is 409 (the database's unique index decides, also under concurrent sign-ups).
 *
 * All or nothing: when the mail cannot be sent, the account is removed again and the answer is
 * 503, so the end user can simply retry. The "create" record-change event (automations) is emitted
 * only once the account and its mail are through. Rate limit: 20 per hour per IP.
 */
export async function registerEndUser(options: RegisterEndUserOptions): Promise<EndUserProfile> {
  const { context } = options;
  const { project, schema, schemas, store } = context;
  await enforceEndUserRateLimit({ action: "register", projectId: project.id, schema: schema.name, by: "ip", value: options.clientIp });

  if (!isPlainObject(options.input)) throw validationError("a registration must be a JSON object", [{ path: "", message: "must be a JSON object" }]);
  const { password, ...fields } = options.input;
  const issues: ErrorIssue[] = [];
  const parsedPassword = newPasswordSchema.safeParse(password);
  if (!parsedPassword.success) issues.push({ path: "password", message: parsedPassword.error.issues[0]?.message ?? "is invalid" });
  if (Object.hasOwn(fields, "emailVerified")) issues.push({ path: "emailVerified", message: "is set by verifying the email address, not at registration" });
  let values: Record<string, unknown> = {};
  try {
    values = validateRecordInput({ schema, components: schemas, input: fields, mode: "create" });
  } catch (error) {
    if (!isAppError(error) || error.code !== "validation_failed") throw error;
    issues.push(...(error.issues ?? []));
  }
  if (issues.length > 0 || !parsedPassword.success) {
    throw validationError(`invalid registration: ${issues.map((issue) => `${issue.path || "body"}: ${issue.message}`).join("; ")}`, issues);
  }
  // The normalized (trimmed, lowercased) address, as the record will hold it.
  const email = String(values.email);

  await ensureAccountIndexes(context);
  const now = (options.now ?? new Date()).getTime();
  const verification = createOneTimeToken();
  const passwordHash = await hashPassword(parsedPassword.data);
  // origin "flow": no event yet; it is emitted below once the mail has gone out.
  const profile = await createRecord({
    store,
    schema,
    schemas,
    projectId: project.id,
    origin: "flow",
    input: fields,
    hiddenValues: {
      [ACCOUNT_FIELDS.passwordHash]: passwordHash,
      [ACCOUNT_FIELDS.tokenEpoch]: newTokenEpoch(),
      [ACCOUNT_FIELDS.verificationTokenHash]: verification.hash,
      [ACCOUNT_FIELDS.verificationExpiresAt]: now + VERIFICATION_TOKEN_TTL_MS,
      [ACCOUNT_FIELDS.verificationEmail]: email,
    },
  });

  try {
    await sendEndUserMail({ project, schema: schema.name, to: email, kind: "verification", token: verification.token });
  } catch (error) {
    await store.deleteMany(schema.name, [{ field: "id", op: "eq", value: profile.id }]).catch((deleteError: unknown) => {
      log.error("could not remove an end-user account whose verification mail failed", {
        projectId: project.id,
        schema: schema.name,
        accountId: profile.id,
        error: deleteError instanceof Error ? deleteError.message : String(deleteError),
      });
    });
    // The transport's message may name the owner's mail server: logged (as the cause), not shown to end users.
    throw new AppError("unavailable", "the verification email could not be sent, so the account was not created; try again later", { cause: error });
  }

  await emitRecordChange({ type: "create", projectId: project.id, schema: schema.name, record: profile });
  return { ...profile, email, emailVerified: profile.emailVerified === true };
}
