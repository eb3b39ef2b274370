"use server";

import { refresh } from "next/cache";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { deleteEndpoint } from "@/lib/endpoints/delete-endpoint";
import { exportEndpoints } from "@/lib/endpoints/export-endpoints";
import { importEndpoints } from "@/lib/endpoints/import-endpoints";
import { testRunEndpoint } from "@/lib/endpoints/test-run-endpoint";
import { updateEndpoint } from "@/lib/endpoints/update-endpoint";
import { waitUntil } from "@/lib/http/after-response";
import { succeed } from "@/lib/http/action-result";
import { projectAction } from "@/lib/http/project-action";

/** Saves a new endpoint; the editor then opens it. Placeholder warnings come back beside the id. */
export const createEndpointAction = projectAction(
  "endpoints.create",
  async ({ projectId }, input: unknown) => {
    const endpoint = await createEndpoint({ projectId, input });
    return succeed({ id: endpoint.id, warnings: endpoint.warnings });
  },
  { name: "create-endpoint" },
);

/** Saves the whole definition the editor holds (its cache is cleared by the version bump); answers its placeholder warnings. */
export const updateEndpointAction = projectAction(
  "endpoints.update",
  async ({ projectId }, endpointId: string, input: unknown) => {
    const endpoint = await updateEndpoint({ projectId, endpointId, patch: input });
    refresh();
    return succeed({ version: endpoint.version, warnings: endpoint.warnings });
  },
  { name: "update-endpoint" },
);

/** The list's enable/disable switch: a disabled endpoint answers 404 at once. */
export const setEndpointEnabledAction = projectAction(
  "endpoints.update",
  async ({ projectId }, endpointId: string, enabled: boolean) => {
    await updateEndpoint({ projectId, endpointId, patch: { enabled } });
    refresh();
    return succeed();
  },
  { name: "set-endpoint-enabled" },
);

export const deleteEndpointAction = projectAction(
  "endpoints.delete",
  async ({ projectId }, endpointId: string) => {
    await deleteEndpoint({ projectId, endpointId });
    return succeed();
  },
  { name: "delete-endpoint" },
);

/**
 * Runs the editor's unsaved draft for real (records are written, emails sent) and logs it as a
 * test run of `endpointId` when the draft edits a saved endpoint.
 */
export const testRunEndpointAction = projectAction(
  (input: { endpoint: unknown; body: unknown; query: unknown; user: unknown; endpointId: string | null }) => (input.endpointId ? "endpoints.update" : "endpoints.create"),
  async ({ project }, input) => succeed(await testRunEndpoint({ project, input, waitUntil })),
  { name: "test-run-endpoint" },
);

export const exportEndpointsAction = projectAction("endpoints.read", async ({ projectId }) => succeed(await exportEndpoints({ projectId })), { name: "export-endpoints" });

/**
 * Imports an export document: all or nothing, matched by method and slug (it may create and replace
 * endpoints). With `{ dryRun: true }` it only answers what the import would do, for the preview.
 */
export const importEndpointsAction = projectAction(
  ["endpoints.create", "endpoints.update"],
  async ({ projectId }, document: unknown, options?: { dryRun?: boolean }) => {
    const dryRun = options?.dryRun === true;
    const result = await importEndpoints({ projectId, document, dryRun });
    if (!dryRun) refresh();
    return succeed(result);
  },
  { name: "import-endpoints" },
);
