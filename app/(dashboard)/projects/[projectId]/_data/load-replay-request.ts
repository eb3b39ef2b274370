import "server-only";
import { isAppError } from "@/lib/errors";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import { replayRequestOf, type ReplayProblem, type ReplayRequest } from "@/lib/flow/execution-log/replay-request";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { loadProject } from "../load-project";

export type LoadedReplay = { ok: true; replay: ReplayRequest } | { ok: false; executionId: string; message: string };

/**
 * The request of a logged run for an editor's test panel (`?replay=<executionId>`), as the log
 * kept it: redacted and capped, never the original. The project is the signed-in user's (a 404
 * page otherwise, as every project page), and the run is read from that project's own customer
 * database, so another project's execution id is simply not found there.
 */
export async function loadReplayRequest(options: { projectId: string; executionId: string }): Promise<LoadedReplay> {
  const { row } = await loadProject(options.projectId);
  const executionId = options.executionId.trim().slice(0, 64);
  try {
    const store = await getProjectRecordStore({ project: row });
    const entry = await getExecutionOrThrow({ store, executionId });
    if (!entry.request) return { ok: false, executionId, message: `Run ${executionId} kept no request in the log, so there is nothing to load.` };
    return { ok: true, replay: replayRequestOf(entry) };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return { ok: false, executionId, message: `No run ${executionId} in this project's log: nothing was loaded.` };
    if (isAppError(error) && error.isPublic) return { ok: false, executionId, message: `The execution log could not be read: ${error.message}.` };
    throw error;
  }
}

/** The `replay` search parameter: one execution id, or none. */
export function replayParam(searchParams: Record<string, string | string[] | undefined>): string | null {
  const value = searchParams.replay;
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() ? text.trim() : null;
}

/** The editors' replay props: the loaded request, or why there is none. */
export function replayProps(loaded: LoadedReplay | null): { replay: ReplayRequest | null; replayProblem: ReplayProblem | null } {
  if (!loaded) return { replay: null, replayProblem: null };
  return loaded.ok ? { replay: loaded.replay, replayProblem: null } : { replay: null, replayProblem: { executionId: loaded.executionId, message: loaded.message } };
}
