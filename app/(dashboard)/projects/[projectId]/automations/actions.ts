"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { createAutomation } from "@/lib/automations/create-automation";
import { deleteAutomation } from "@/lib/automations/delete-automation";
import { exportAutomations } from "@/lib/automations/export-automations";
import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import { importAutomations } from "@/lib/automations/import-automations";
import { runAutomationNow } from "@/lib/automations/run-automation-now";
import { updateAutomation } from "@/lib/automations/update-automation";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { succeed } from "@/lib/http/action-result";
import { projectAction } from "@/lib/http/project-action";
import { findReplayPayload } from "@/lib/automations/replay-payload";

/*
 * Every action goes through projectAction: the project id is checked, the signed-in user must be
 * a member of the project's workspace whose role allows the action, and then the other arguments
 * are checked with zod. Every automation or execution id is looked up within that project only —
 * the services take the project id, so another project's id answers "not found" exactly like an
 * unknown one.
 */

const automationIdSchema = z.string().min(1).max(100);
const executionIdSchema = z.string().min(1).max(100);
const automationSchema = z.record(z.string(), z.unknown(), { error: "the automation must be a JSON object" });

/** The arguments as the schema reads them, or a 422 naming each bad one (`automationId`, `payload`). */
function parseArguments<T extends z.ZodRawShape>(shape: T, values: Record<string, unknown>): z.output<z.ZodObject<T>> {
  const parsed = z.object(shape).safeParse(values);
  if (!parsed.success) throw new AppError("validation_failed", "invalid request", { issues: issuesFromZod(parsed.error) });
  return parsed.data;
}

/** Saves a new automation; the editor then opens it. */
export const createAutomationAction = projectAction(
  "automations.write",
  async ({ projectId }, input: unknown) => {
    const args = parseArguments({ input: automationSchema }, { input });
    const automation = await createAutomation({ projectId, input: args.input });
    return succeed({ id: automation.id, warnings: automation.warnings });
  },
  { name: "create-automation" },
);

/** Saves the whole definition the editor holds. */
export const updateAutomationAction = projectAction(
  "automations.write",
  async ({ projectId }, automationId: string, input: unknown) => {
    const args = parseArguments({ automationId: automationIdSchema, input: automationSchema }, { automationId, input });
    const automation = await updateAutomation({ projectId, automationId: args.automationId, patch: args.input });
    refresh();
    return succeed({ version: automation.version, warnings: automation.warnings });
  },
  { name: "update-automation" },
);

/** The list's enable/disable switch: a disabled automation's triggers stop at once. */
export const setAutomationEnabledAction = projectAction(
  "automations.write",
  async ({ projectId }, automationId: string, enabled: boolean) => {
    const args = parseArguments({ automationId: automationIdSchema, enabled: z.boolean() }, { automationId, enabled });
    await updateAutomation({ projectId, automationId: args.automationId, patch: { enabled: args.enabled } });
    refresh();
    return succeed();
  },
  { name: "set-automation-enabled" },
);

export const deleteAutomationAction = projectAction(
  "automations.write",
  async ({ projectId }, automationId: string) => {
    const args = parseArguments({ automationId: automationIdSchema }, { automationId });
    await deleteAutomation({ projectId, automationId: args.automationId });
    return succeed();
  },
  { name: "delete-automation" },
);

/** "Run now": queues a manual run with the owner's JSON payload (read as `trigger.*`); answers the execution id the run will be logged under. */
export const runAutomationNowAction = projectAction(
  "automations.run",
  async ({ projectId }, automationId: string, payload: unknown) => {
    const args = parseArguments(
      { automationId: automationIdSchema, payload: z.record(z.string(), z.unknown(), { error: "the payload must be a JSON object" }) },
      { automationId, payload },
    );
    return succeed(await runAutomationNow({ projectId, automationId: args.automationId, payload: args.payload }));
  },
  { name: "run-automation-now" },
);

/**
 * "Run again" on a logged run: queues the payload that run was started with (kept whole by the
 * queue for a failed job, else the log's `request.body`) as a new manual run. The execution must be
 * a run of this automation, read from this project's own database; a payload neither kept whole is
 * refused with the reason.
 */
export const runAutomationAgainAction = projectAction(
  "automations.run",
  async ({ projectId, project }, automationId: string, executionId: string) => {
    const args = parseArguments({ automationId: automationIdSchema, executionId: executionIdSchema }, { automationId, executionId });
    await getAutomationOrThrow({ projectId, automationId: args.automationId });
    const store = await getProjectRecordStore({ project });
    const entry = await getExecutionOrThrow({ store, executionId: args.executionId });
    if (entry.automationId !== args.automationId) throw new AppError("not_found", "execution not found");
    const replay = await findReplayPayload({ projectId, entry });
    if (!replay.ok) throw new AppError("validation_failed", replay.reason, { issues: [{ path: "payload", message: replay.reason }] });
    return succeed(await runAutomationNow({ projectId, automationId: args.automationId, payload: replay.payload }));
  },
  { name: "run-automation-again" },
);

export const exportAutomationsAction = projectAction("automations.read", async ({ projectId }) => succeed(await exportAutomations({ projectId })), { name: "export-automations" });

/** Imports an export document: all or nothing, matched by name. */
export const importAutomationsAction = projectAction(
  "automations.write",
  async ({ projectId }, document: unknown) => {
    const result = await importAutomations({ projectId, input: document });
    refresh();
    return succeed(result);
  },
  { name: "import-automations" },
);
