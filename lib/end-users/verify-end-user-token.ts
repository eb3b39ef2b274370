import { AppError } from "@/lib/errors";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { isValidRecordId } from "@/lib/records/record-names";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { tokenEpochOf } from "./account-fields";
import { readEndUserToken } from "./end-user-token";
import { toEndUserProfile, type EndUserProfile } from "./end-user-profile";

export interface VerifyEndUserTokenOptions {
  projectId: string;
  /** The auth schema's name the token must be for. */
  schema: string;
  /** The bearer token as received. */
  token: string;
  /** The project's customer database, when the caller has it (else it is looked up). */
  store?: RecordStore;
  /** The project's schema definitions, when the caller has them (else they are listed). */
  schemas?: readonly SchemaDefinition[];
}

/**
 * Authenticates an end user by session token (the `me` route; custom endpoints in end_user mode):
 * checks the signature and claims without any database, then reads the account with one findByIds
 * and checks that it still exists and that no password reset happened since the token was issued.
 * Answers the profile (no secrets) or throws AppError("unauthorized") — also for a schema that is
 * not (or no longer) an auth schema.
 */
export async function verifyEndUserToken(options: VerifyEndUserTokenOptions): Promise<EndUserProfile> {
  const claims = await readEndUserToken(options);
  const invalid = () => new AppError("unauthorized", "invalid token", { headers: { "www-authenticate": 'Bearer realm="end-users"' } });
  if (!isValidRecordId(claims.userId)) throw invalid();

  const schemas = options.schemas ?? (await listSchemas({ projectId: options.projectId }));
  const schema = schemas.find((candidate) => candidate.name === options.schema);
  if (!schema || schema.kind !== "auth") throw invalid();
  const store = options.store ?? (await getProjectRecordStore({ projectId: options.projectId }));

  const [account] = await store.findByIds(schema.name, [claims.userId]);
  if (!account || tokenEpochOf(account) !== claims.epoch) throw invalid();
  return toEndUserProfile({ schema, schemas, record: account });
}
