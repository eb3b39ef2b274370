"use server";

import { refresh } from "next/cache";
import { AppError } from "@/lib/errors";
import { roleAllows } from "@/lib/auth/permissions";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { deleteEndpoint } from "@/lib/endpoints/delete-endpoint";
import { exportEndpoints, type EndpointsExport } from "@/lib/endpoints/export-endpoints";
import { importEndpoints, type ImportEndpointsResult } from "@/lib/endpoints/import-endpoints";
import { testRunEndpoint, type TestRunResult } from "@/lib/endpoints/test-run-endpoint";
import { updateEndpoint } from "@/lib/endpoints/update-endpoint";
import { waitUntil } from "@/lib/http/after-response";
import { toActionFailure, type ActionResult } from "@/components/endpoints/action-result";
import { requireProjectMember } from "@/components/endpoints/require-project-member";

/** Saves a new endpoint; the editor then opens it. */
export async function createEndpointAction(projectId: string, input: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    await requireProjectMember(projectId, "endpoints.create");
    const endpoint = await createEndpoint({ projectId, input });
    return { ok: true, data: { id: endpoint.id } };
  } catch (error) {
    return toActionFailure(error, "create-endpoint");
  }
}

/** Saves the whole definition the editor holds (its cache is cleared by the version bump). */
export async function updateEndpointAction(projectId: string, endpointId: string, input: unknown): Promise<ActionResult<{ version: number }>> {
  try {
    await requireProjectMember(projectId, "endpoints.update");
    const endpoint = await updateEndpoint({ projectId, endpointId, patch: input });
    refresh();
    return { ok: true, data: { version: endpoint.version } };
  } catch (error) {
    return toActionFailure(error, "update-endpoint");
  }
}

/** The list's enable/disable switch: a disabled endpoint answers 404 at once. */
export async function setEndpointEnabledAction(projectId: string, endpointId: string, enabled: boolean): Promise<{ error?: string }> {
  try {
    await requireProjectMember(projectId, "endpoints.update");
    await updateEndpoint({ projectId, endpointId, patch: { enabled } });
  } catch (error) {
    return { error: toActionFailure(error, "set-endpoint-enabled").error };
  }
  refresh();
  return {};
}

export async function deleteEndpointAction(projectId: string, endpointId: string): Promise<{ error?: string }> {
  try {
    await requireProjectMember(projectId, "endpoints.delete");
    await deleteEndpoint({ projectId, endpointId });
  } catch (error) {
    return { error: toActionFailure(error, "delete-endpoint").error };
  }
  return {};
}

/**
 * Runs the editor's unsaved draft for real (records are written, emails sent) and logs it as a
 * test run of `endpointId` when the draft edits a saved endpoint.
 */
export async function testRunEndpointAction(projectId: string, input: { endpoint: unknown; body: unknown; query: unknown; user: unknown; endpointId: string | null }): Promise<ActionResult<TestRunResult>> {
  try {
    const { row } = await requireProjectMember(projectId, input.endpointId ? "endpoints.update" : "endpoints.create");
    return { ok: true, data: await testRunEndpoint({ project: row, input, waitUntil }) };
  } catch (error) {
    return toActionFailure(error, "test-run-endpoint");
  }
}

export async function exportEndpointsAction(projectId: string): Promise<ActionResult<EndpointsExport>> {
  try {
    await requireProjectMember(projectId, "endpoints.read");
    return { ok: true, data: await exportEndpoints({ projectId }) };
  } catch (error) {
    return toActionFailure(error, "export-endpoints");
  }
}

/** Imports an export document: all or nothing, matched by method and slug. */
export async function importEndpointsAction(projectId: string, document: unknown): Promise<ActionResult<ImportEndpointsResult>> {
  try {
    const { membership } = await requireProjectMember(projectId, "endpoints.create");
    if (!roleAllows(membership.role, "endpoints.update")) throw new AppError("forbidden", "your role does not allow replacing endpoints");
    const result = await importEndpoints({ projectId, document });
    refresh();
    return { ok: true, data: result };
  } catch (error) {
    return toActionFailure(error, "import-endpoints");
  }
}
