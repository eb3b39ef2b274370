import { z } from "zod";
import { AppError, isAppError, issuesFromZod } from "@/lib/errors";
import type { StepResult } from "@/lib/flow/engine/run-flow";
import type { ExecutionOutcome } from "@/lib/flow/execution-log/execution-log-entry";
import { explainRunChecks, type CheckReport } from "@/lib/flow/steps/condition/explain-run-checks";
import { waitUntil } from "@/lib/http/after-response";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { runProjectFlow } from "@/lib/runs/run-project-flow";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { getEndpointOrThrow } from "./get-endpoint-or-throw";
import { validateEndpointOrThrow } from "./validate-endpoint";
import { answerForRun } from "./invoke/answer-for-run";
import { compileInputCheck } from "./invoke/compile-input-check";
import { rejectInvalidInput } from "./invoke/reject-invalid-input";

export const testRunInput = z
  .object({
    /** The unsaved draft: an endpoint definition; name, method and slug may be left out. */
    endpoint: z.record(z.string(), z.unknown()),
    body: z.record(z.string(), z.unknown()).default({}),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
    /** A sample end-user profile for end_user endpoints. */
    user: z.record(z.string(), z.unknown()).nullable().default(null),
    /** The saved endpoint this draft edits, so its log lists the test run too. */
    endpointId: z.string().max(64).nullable().default(null),
  })
  .strict();

/** A step's result in a test run; a condition that ran also says how each of its checks was decided. */
export type TestRunStep = StepResult & { checks?: CheckReport[] };

export interface TestRunResult {
  executionId: string;
  /** `rejected`: the sample broke the draft's declared input; no step ran (the answer is the 400 a call gets). */
  outcome: ExecutionOutcome;
  steps: TestRunStep[];
  response: { status: number; headers: Record<string, string>; body: unknown };
}

/**
 * Runs an unsaved draft against a sample body, query and user. Steps run for real (records are
 * written, emails sent); the answer has every step's result and output and the rendered response,
 * and the run is logged as a test run.
 */
export async function testRunEndpoint(options: { project: ProjectRow; input: unknown; waitUntil?: (task: Promise<unknown>) => void }): Promise<TestRunResult> {
  const parsed = testRunInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid test run", { issues: issuesFromZod(parsed.error) });
  const { body, query, user } = parsed.data;
  // The run is logged under `endpointId`: only an endpoint of this project (another's is not_found).
  if (parsed.data.endpointId !== null) await getEndpointOrThrow({ projectId: options.project.id, endpointId: parsed.data.endpointId });
  const draft = { name: "Draft", method: "GET", slug: "draft", ...parsed.data.endpoint };
  const endpoint = await validateEndpointOrThrow({ projectId: options.project.id, input: draft }).catch((error: unknown) => {
    if (isAppError(error) && error.issues) {
      throw new AppError(error.code, error.message, { issues: error.issues.map((issue) => ({ ...issue, path: `endpoint.${issue.path}`.replace(/\.$/, "") })) });
    }
    throw error;
  });

  const [schemas, store] = await Promise.all([listSchemas({ projectId: options.project.id }), getProjectRecordStore({ project: options.project })]);
  // The draft's input is checked as a call's would be, so its templates see the same converted query.
  const inputCheck = compileInputCheck(endpoint.input);
  const methodHasBody = endpoint.method === "POST" || endpoint.method === "PUT" || endpoint.method === "PATCH";
  const verdict = inputCheck?.check(query, methodHasBody ? body : undefined);
  if (verdict && !verdict.ok) {
    const rejected = rejectInvalidInput({
      project: options.project,
      store,
      source: { type: "test_run", endpointId: parsed.data.endpointId },
      issues: verdict.issues,
      request: { query, body },
    });
    await rejected.logged;
    const { status, contentType, body: text } = rejected.response;
    return { executionId: rejected.executionId, outcome: "rejected", steps: [], response: { status, headers: { "content-type": contentType }, body: JSON.parse(text) } };
  }
  const runQuery = verdict?.query ?? query;
  const { executionId, run, answer } = await runProjectFlow({
    project: options.project,
    schemas,
    store,
    steps: endpoint.steps,
    context: { body, query: runQuery, user },
    source: { type: "test_run", endpointId: parsed.data.endpointId },
    request: { query, body },
    waitUntil: options.waitUntil ?? waitUntil,
    // Stored before the answer, so the log the dashboard opens next is there.
    log: "await",
    answer: (result, id) => answerForRun(endpoint.response, result, id),
  });
  // The draft's steps were validated above, so the flow ran: `run` is set.
  const { outcome, steps } = run!;
  const response = answer.response;
  const checks = explainRunChecks({ steps: endpoint.steps, results: steps, input: { body, query: runQuery, user } });

  let responseBody: unknown = response.body;
  if (response.contentType.startsWith("application/json")) responseBody = JSON.parse(response.body);
  return {
    executionId,
    outcome,
    steps: steps.map((step) => (checks.has(step.index) ? { ...step, checks: checks.get(step.index) } : step)),
    response: { status: response.status, headers: { ...response.headers, "content-type": response.contentType }, body: responseBody },
  };
}
