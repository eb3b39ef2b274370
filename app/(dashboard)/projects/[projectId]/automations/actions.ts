"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { createAutomation } from "@/lib/automations/create-automation";
import { deleteAutomation } from "@/lib/automations/delete-automation";
import { exportAutomations, type AutomationsExport } from "@/lib/automations/export-automations";
import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import { importAutomations, type ImportAutomationsResult } from "@/lib/automations/import-automations";
import { runAutomationNow } from "@/lib/automations/run-automation-now";
import { updateAutomation } from "@/lib/automations/update-automation";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { toActionFailure, type ActionResult } from "@/components/endpoints/action-result";
import { requireProjectMember } from "@/components/endpoints/require-project-member";
import { findReplayPayload } from "@/lib/automations/replay-payload";

/*
 * Every action: the arguments are checked with zod, the signed-in user must be a member of the
 * project's workspace whose role allows the action (requireProjectMember), and every automation
 * or execution id is looked up within that project only — the services take the project id, so
 * another project's id answers "not found" exactly like an unknown one.
 */

const projectIdSchema = z.string().min(1).max(100);
const automationIdSchema = z.string().min(1).max(100);
const executionIdSchema = z.string().min(1).max(100);

/** The arguments as the schema reads them, or a 422 naming each bad one (`automationId`, `payload`). */
function parseArguments<T extends z.ZodRawShape>(shape: T, values: Record<string, unknown>): z.output<z.ZodObject<T>> {
  const parsed = z.object(shape).safeParse(values);
  if (!parsed.success) throw new AppError("validation_failed", "invalid request", { issues: issuesFromZod(parsed.error) });
  return parsed.data;
}

/** Saves a new automation; the editor then opens it. */
export async function createAutomationAction(projectId: string, input: unknown): Promise<ActionResult<{ id: string }>> {
  try {
    const args = parseArguments({ projectId: projectIdSchema, input: z.record(z.string(), z.unknown(), { error: "the automation must be a JSON object" }) }, { projectId, input });
    await requireProjectMember(args.projectId, "automations.write");
    const automation = await createAutomation({ projectId: args.projectId, input: args.input });
    return { ok: true, data: { id: automation.id } };
  } catch (error) {
    return toActionFailure(error, "create-automation");
  }
}

/** Saves the whole definition the editor holds. */
export async function updateAutomationAction(projectId: string, automationId: string, input: unknown): Promise<ActionResult<{ version: number }>> {
  try {
    const args = parseArguments(
      { projectId: projectIdSchema, automationId: automationIdSchema, input: z.record(z.string(), z.unknown(), { error: "the automation must be a JSON object" }) },
      { projectId, automationId, input },
    );
    await requireProjectMember(args.projectId, "automations.write");
    const automation = await updateAutomation({ projectId: args.projectId, automationId: args.automationId, patch: args.input });
    refresh();
    return { ok: true, data: { version: automation.version } };
  } catch (error) {
    return toActionFailure(error, "update-automation");
  }
}

/** The list's enable/disable switch: a disabled automation's triggers stop at once. */
export async function setAutomationEnabledAction(projectId: string, automationId: string, enabled: boolean): Promise<{ error?: string }> {
  try {
    const args = parseArguments({ projectId: projectIdSchema, automationId: automationIdSchema, enabled: z.boolean() }, { projectId, automationId, enabled });
    await requireProjectMember(args.projectId, "automations.write");
    await updateAutomation({ projectId: args.projectId, automationId: args.automationId, patch: { enabled: args.enabled } });
  } catch (error) {
    return { error: toActionFailure(error, "set-automation-enabled").error };
  }
  refresh();
  return {};
}

export async function deleteAutomationAction(projectId: string, automationId: string): Promise<{ error?: string }> {
  try {
    const args = parseArguments({ projectId: projectIdSchema, automationId: automationIdSchema }, { projectId, automationId });
    await requireProjectMember(args.projectId, "automations.write");
    await deleteAutomation({ projectId: args.projectId, automationId: args.automationId });
  } catch (error) {
    return { error: toActionFailure(error, "delete-automation").error };
  }
  return {};
}

/** "Run now": queues a manual run with the owner's JSON payload (read as `trigger.*`); answers the execution id the run will be logged under. */
export async function runAutomationNowAction(projectId: string, automationId: string, payload: unknown): Promise<ActionResult<{ executionId: string }>> {
  try {
    const args = parseArguments(
      { projectId: projectIdSchema, automationId: automationIdSchema, payload: z.record(z.string(), z.unknown(), { error: "the payload must be a JSON object" }) },
      { projectId, automationId, payload },
    );
    await requireProjectMember(args.projectId, "automations.run");
    return { ok: true, data: await runAutomationNow({ projectId: args.projectId, automationId: args.automationId, payload: args.payload }) };
  } catch (error) {
    return toActionFailure(error, "run-automation-now");
  }
}

/**
 * "Run again" on a logged run: queues the payload that run was started with (kept whole by the
 * queue for a failed job, else the log's `request.body`) as a new manual run. The execution must be
 * a run of this automation, read from this project's own database; a payload neither kept whole is
 * refused with the reason.
 */
export async function runAutomationAgainAction(projectId: string, automationId: string, executionId: string): Promise<ActionResult<{ executionId: string }>> {
  try {
    const args = parseArguments({ projectId: projectIdSchema, automationId: automationIdSchema, executionId: executionIdSchema }, { projectId, automationId, executionId });
    const { row } = await requireProjectMember(args.projectId, "automations.run");
    await getAutomationOrThrow({ projectId: args.projectId, automationId: args.automationId });
    const store = await getProjectRecordStore({ project: row });
    const entry = await getExecutionOrThrow({ store, executionId: args.executionId });
    if (entry.automationId !== args.automationId) throw new AppError("not_found", "execution not found");
    const replay = await findReplayPayload({ projectId: args.projectId, entry });
    if (!replay.ok) throw new AppError("validation_failed", replay.reason, { issues: [{ path: "payload", message: replay.reason }] });
    return { ok: true, data: await runAutomationNow({ projectId: args.projectId, automationId: args.automationId, payload: replay.payload }) };
  } catch (error) {
    return toActionFailure(error, "run-automation-again");
  }
}

export async function exportAutomationsAction(projectId: string): Promise<ActionResult<AutomationsExport>> {
  try {
    const args = parseArguments({ projectId: projectIdSchema }, { projectId });
    await requireProjectMember(args.projectId, "automations.read");
    return { ok: true, data: await exportAutomations({ projectId: args.projectId }) };
  } catch (error) {
    return toActionFailure(error, "export-automations");
  }
}

/** Imports an export document: all or nothing, matched by name. */
export async function importAutomationsAction(projectId: string, document: unknown): Promise<ActionResult<ImportAutomationsResult>> {
  try {
    const args = parseArguments({ projectId: projectIdSchema, document: z.unknown() }, { projectId, document });
    await requireProjectMember(args.projectId, "automations.write");
    const result = await importAutomations({ projectId: args.projectId, input: args.document });
    refresh();
    return { ok: true, data: result };
  } catch (error) {
    return toActionFailure(error, "import-automations");
  }
}
