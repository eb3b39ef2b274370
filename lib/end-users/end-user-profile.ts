import type { StoredRecord } from "@/lib/records/record-store";
import { presentRecord, type PublicRecord } from "@/lib/records-service/present-record";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";

/**
 * An end user as the auth routes and verifyEndUserToken answer it: `id`, `email`, `emailVerified`,
 * the auth schema's own fields, `createdAt`, `updatedAt`. Never the password hash or any token
 * (the same whitelist as the records API).
 */
export type EndUserProfile = PublicRecord & { email: string; emailVerified: boolean };

export function toEndUserProfile(options: { schema: SchemaDefinition; schemas: readonly SchemaDefinition[]; record: StoredRecord }): EndUserProfile {
  const record = presentRecord({ schema: options.schema, components: options.schemas, record: options.record });
  return { ...record, email: String(record.email ?? ""), emailVerified: record.emailVerified === true };
}
