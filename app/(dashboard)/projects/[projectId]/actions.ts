"use server";

import { refresh } from "next/cache";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { getProjectDatabaseTarget } from "@/lib/projects/get-project-database-target";
import { testDatabaseConnection } from "@/lib/projects/test-database-connection";
import { updateProject } from "@/lib/projects/update-project";
import { createSecret } from "@/lib/secrets/create-secret";
import { deleteSecret } from "@/lib/secrets/delete-secret";
import { rotateSecret } from "@/lib/secrets/rotate-secret";
import { succeed, type FormState } from "@/lib/http/action-result";
import { projectAction } from "@/lib/http/project-action";
import { connectionTestFailure } from "@/lib/projects/connection-test-failure";
import { readDatabaseInput } from "@/lib/projects/read-database-input";
import { readStoredMailSettings } from "./settings/read-stored-mail-settings";

/*
 * Project settings, API keys and secrets are admin-only ("project.manage"); a project outside the
 * user's workspaces does not exist for them (projectAction).
 */

function generalValues(_previous: FormState, formData: FormData) {
  return {
    name: String(formData.get("name") ?? ""),
    logRetentionDays: String(formData.get("logRetentionDays") ?? ""),
    openapiPublic: formData.get("openapiPublic") === "on" ? "on" : "",
  };
}

export const updateGeneralSettingsAction = projectAction(
  "project.manage",
  async ({ projectId }, previous: FormState, formData: FormData) => {
    const values = generalValues(previous, formData);
    const days = Number(values.logRetentionDays);
    await updateProject({
      projectId,
      input: {
        name: values.name,
        logRetentionDays: Number.isFinite(days) && values.logRetentionDays !== "" ? days : values.logRetentionDays,
        openapiPublic: values.openapiPublic === "on",
      },
    });
    refresh();
    return succeed(undefined, { message: "Settings saved.", values });
  },
  { name: "update-project", fields: ["name", "logRetentionDays", "openapiPublic"], values: generalValues },
);

export const updateDatabaseAction = projectAction(
  "project.manage",
  async ({ projectId }, _previous: FormState, formData: FormData) => {
    await updateProject({ projectId, input: { database: readDatabaseInput(formData) } });
    refresh();
    return succeed(undefined, { message: "Database saved. The connection URL is stored encrypted." });
  },
  { name: "update-database", fields: ["database.kind", "database.url", "database.takeOver"] },
);

/** Tests a database the owner is about to save; a failed test is an outcome with its sentence, not a failed action. */
export const testDatabaseAction = projectAction(
  "project.manage",
  async ({ projectId }, input: { kind: string; url?: string }) => succeed(await testDatabaseConnection({ projectId, input }).catch(connectionTestFailure)),
  { name: "test-connection" },
);

/** Tests the database the project uses now, with the stored (decrypted) URL that the browser never sees. */
export const testCurrentDatabaseAction = projectAction(
  "project.manage",
  async ({ projectId, project }) => {
    const target = getProjectDatabaseTarget(project);
    const input = target.kind === "local" ? { kind: "local" } : { kind: target.kind, url: target.url };
    return succeed(await testDatabaseConnection({ projectId, input }).catch(connectionTestFailure));
  },
  { name: "test-connection" },
);

const MAIL_FIELDS = ["mail.host", "mail.port", "mail.secure", "mail.user", "mail.password", "mail.from"] as const;

export const updateMailSettingsAction = projectAction(
  "project.manage",
  async ({ projectId, project }, _previous: FormState, formData: FormData) => {
    const text = (name: string) => String(formData.get(name) ?? "").trim();
    const stored = readStoredMailSettings(project);
    const user = text("user");
    let password = String(formData.get("password") ?? "");
    // An empty password field means "keep the stored one" while the user name stays the same.
    if (password === "" && stored?.password !== undefined && user === (stored.user ?? "")) password = stored.password;
    const port = text("port");
    await updateProject({
      projectId,
      input: {
        mail: {
          host: text("host"),
          port: port === "" ? undefined : port,
          secure: formData.get("secure") === "on",
          user,
          password,
          from: text("from"),
        },
      },
    });
    refresh();
    return succeed(undefined, { message: "Mail server saved. The password is stored encrypted." });
  },
  { name: "update-mail", fields: MAIL_FIELDS },
);

export const removeMailSettingsAction = projectAction(
  "project.manage",
  async ({ projectId }) => {
    await updateProject({ projectId, input: { mail: null } });
    refresh();
    return succeed();
  },
  { name: "remove-mail" },
);

/** The full key, in this one answer only: it is not stored and cannot be shown again. */
export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  lastFour: string;
}

function apiKeyValues(_previous: FormState<CreatedApiKey>, formData: FormData) {
  return { name: String(formData.get("name") ?? "") };
}

export const createApiKeyAction = projectAction(
  "project.manage",
  async ({ projectId, userId }, previous: FormState<CreatedApiKey>, formData: FormData) => {
    const values = apiKeyValues(previous, formData);
    const created = await createApiKey({ projectId, input: { name: values.name, permissions: formData.getAll("permissions").map(String) }, createdBy: userId });
    refresh();
    return succeed<CreatedApiKey>({ id: created.id, name: created.name, key: created.key, prefix: created.prefix, lastFour: created.lastFour });
  },
  { name: "create-api-key", fields: ["name", "permissions"], values: apiKeyValues },
);

export const revokeApiKeyAction = projectAction(
  "project.manage",
  async ({ projectId }, keyId: string) => {
    await revokeApiKey({ projectId, keyId });
    refresh();
    return succeed();
  },
  { name: "revoke-api-key" },
);

function secretValues(_previous: FormState, formData: FormData) {
  return { name: String(formData.get("name") ?? "").trim() };
}

/** Secrets are admin-only like the other project settings; the value goes in once and never comes back. */
export const createSecretAction = projectAction(
  "project.manage",
  async ({ projectId, userId }, previous: FormState, formData: FormData) => {
    const values = secretValues(previous, formData);
    await createSecret({ projectId, input: { name: values.name, value: String(formData.get("value") ?? "") }, createdBy: userId });
    refresh();
    return succeed(undefined, { message: `Secret ${values.name} saved. Its value is stored encrypted and will not be shown again.` });
  },
  { name: "create-secret", fields: ["name", "value"], values: secretValues },
);

export const rotateSecretAction = projectAction(
  "project.manage",
  async ({ projectId }, name: string, _previous: FormState, formData: FormData) => {
    await rotateSecret({ projectId, name, input: { value: String(formData.get("value") ?? "") } });
    refresh();
    return succeed(undefined, { message: `Secret ${name} rotated. The next run uses the new value.` });
  },
  { name: "rotate-secret", fields: ["value"] },
);

export const deleteSecretAction = projectAction(
  "project.manage",
  async ({ projectId }, name: string) => {
    await deleteSecret({ projectId, name });
    refresh();
    return succeed();
  },
  { name: "delete-secret" },
);
