"use server";

import { refresh } from "next/cache";
import { AppError, isAppError } from "@/lib/errors";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { getProjectOrThrow, type ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectDatabaseTarget } from "@/lib/projects/get-project-database-target";
import { testDatabaseConnection, type ConnectionTestResult } from "@/lib/projects/test-database-connection";
import { updateProject } from "@/lib/projects/update-project";
import { getWorkspaceMembershipOrThrow } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { createSecret } from "@/lib/secrets/create-secret";
import { deleteSecret } from "@/lib/secrets/delete-secret";
import { rotateSecret } from "@/lib/secrets/rotate-secret";
import type { FormState } from "@/components/forms/form-state";
import { toFormState } from "@/components/forms/to-form-state";
import { readDatabaseInput } from "@/components/forms/read-database-input";
import { connectionTestFailure } from "@/components/forms/connection-test-failure";
import { readStoredMailSettings } from "./settings/read-stored-mail-settings";

/** Project settings and API keys are admin-only ("project.manage"); a project outside the user's workspaces does not exist for them. */
async function requireProjectAdmin(projectId: string): Promise<{ userId: string; row: ProjectRow }> {
  const userId = await getCurrentUserId();
  const row = await getProjectOrThrow({ projectId });
  await getWorkspaceMembershipOrThrow({ workspaceId: row.workspaceId, userId, requireAdmin: true }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") throw new AppError("not_found", "project not found");
    throw error;
  });
  return { userId, row };
}

export async function updateGeneralSettingsAction(projectId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  const values = { name: String(formData.get("name") ?? ""), logRetentionDays: String(formData.get("logRetentionDays") ?? "") };
  try {
    await requireProjectAdmin(projectId);
    const days = Number(values.logRetentionDays);
    await updateProject({ projectId, input: { name: values.name, logRetentionDays: Number.isFinite(days) && values.logRetentionDays !== "" ? days : values.logRetentionDays } });
  } catch (error) {
    return toFormState(error, { fields: ["name", "logRetentionDays"], values, action: "update-project" });
  }
  refresh();
  return { ok: true, message: "Settings saved.", values };
}

export async function updateDatabaseAction(projectId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  try {
    await requireProjectAdmin(projectId);
    await updateProject({ projectId, input: { database: readDatabaseInput(formData) } });
  } catch (error) {
    return toFormState(error, { fields: ["database.kind", "database.url", "database.takeOver"], action: "update-database" });
  }
  refresh();
  return { ok: true, message: "Database saved. The connection URL is stored encrypted." };
}

/** Tests a database the owner is about to save. */
export async function testDatabaseAction(projectId: string, input: { kind: string; url?: string }): Promise<ConnectionTestResult> {
  try {
    await requireProjectAdmin(projectId);
    return await testDatabaseConnection({ projectId, input });
  } catch (error) {
    return connectionTestFailure(error);
  }
}

/** Tests the database the project uses now, with the stored (decrypted) URL that the browser never sees. */
export async function testCurrentDatabaseAction(projectId: string): Promise<ConnectionTestResult> {
  try {
    const { row } = await requireProjectAdmin(projectId);
    const target = getProjectDatabaseTarget(row);
    return await testDatabaseConnection({ projectId, input: target.kind === "local" ? { kind: "local" } : { kind: target.kind, url: target.url } });
  } catch (error) {
    return connectionTestFailure(error);
  }
}

const MAIL_FIELDS = ["mail.host", "mail.port", "mail.secure", "mail.user", "mail.password", "mail.from"] as const;

export async function updateMailSettingsAction(projectId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  const text = (name: string) => String(formData.get(name) ?? "").trim();
  try {
    const { row } = await requireProjectAdmin(projectId);
    const stored = readStoredMailSettings(row);
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
  } catch (error) {
    return toFormState(error, { fields: MAIL_FIELDS, action: "update-mail" });
  }
  refresh();
  return { ok: true, message: "Mail server saved. The password is stored encrypted." };
}

export async function removeMailSettingsAction(projectId: string): Promise<{ error?: string }> {
  try {
    await requireProjectAdmin(projectId);
    await updateProject({ projectId, input: { mail: null } });
  } catch (error) {
    return { error: toFormState(error, { action: "remove-mail" }).error };
  }
  refresh();
  return {};
}

export interface ApiKeyFormState extends FormState {
  /** The full key, in this one answer only: it is not stored and cannot be shown again. */
  created?: { id: string; name: string; key: string; prefix: string; lastFour: string };
}

export async function createApiKeyAction(projectId: string, _previous: ApiKeyFormState, formData: FormData): Promise<ApiKeyFormState> {
  const values = { name: String(formData.get("name") ?? "") };
  try {
    const { userId } = await requireProjectAdmin(projectId);
    const created = await createApiKey({
      projectId,
      input: { name: values.name, permissions: formData.getAll("permissions").map(String) },
      createdBy: userId,
    });
    refresh();
    return { ok: true, created: { id: created.id, name: created.name, key: created.key, prefix: created.prefix, lastFour: created.lastFour } };
  } catch (error) {
    return toFormState(error, { fields: ["name", "permissions"], values, action: "create-api-key" });
  }
}

export async function revokeApiKeyAction(projectId: string, keyId: string): Promise<{ error?: string }> {
  try {
    await requireProjectAdmin(projectId);
    await revokeApiKey({ projectId, keyId });
  } catch (error) {
    return { error: toFormState(error, { action: "revoke-api-key" }).error };
  }
  refresh();
  return {};
}

/** Secrets are admin-only like the other project settings; the value goes in once and never comes back. */
export async function createSecretAction(projectId: string, _previous: FormState, formData: FormData): Promise<FormState> {
  const values = { name: String(formData.get("name") ?? "").trim() };
  try {
    const { userId } = await requireProjectAdmin(projectId);
    await createSecret({ projectId, input: { name: values.name, value: String(formData.get("value") ?? "") }, createdBy: userId });
  } catch (error) {
    return toFormState(error, { fields: ["name", "value"], values, action: "create-secret" });
  }
  refresh();
  return { ok: true, message: `Secret ${values.name} saved. Its value is stored encrypted and will not be shown again.` };
}

export async function rotateSecretAction(projectId: string, name: string, _previous: FormState, formData: FormData): Promise<FormState> {
  try {
    await requireProjectAdmin(projectId);
    await rotateSecret({ projectId, name, input: { value: String(formData.get("value") ?? "") } });
  } catch (error) {
    return toFormState(error, { fields: ["value"], action: "rotate-secret" });
  }
  refresh();
  return { ok: true, message: `Secret ${name} rotated. The next run uses the new value.` };
}

export async function deleteSecretAction(projectId: string, name: string): Promise<{ error?: string }> {
  try {
    await requireProjectAdmin(projectId);
    await deleteSecret({ projectId, name });
  } catch (error) {
    return { error: toFormState(error, { action: "delete-secret" }).error };
  }
  refresh();
  return {};
}
