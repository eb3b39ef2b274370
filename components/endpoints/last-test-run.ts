import type { TestRunStep } from "@/lib/endpoints/test-run-endpoint";
import type { CheckReport } from "@/lib/flow/steps/condition/explain-run-checks";
import type { StepDraft } from "./endpoint-draft";

/** What a step saw in the last test run: its request and the outputs of the enabled, named steps before it. */
export interface LastRunContext {
  body: unknown;
  query: Record<string, unknown>;
  user: Record<string, unknown> | null;
  trigger: unknown;
  steps: Record<string, unknown>;
}

/**
 * The last test run's context at step `at` of the current draft, or null before any run. The draft
 * may have changed since: outputs are matched by name, and only names of earlier enabled steps count,
 * so a step never previews over its own or a later output.
 */
export function lastRunContextAt(
  source: {
    readonly steps: readonly { readonly name?: string | null; readonly enabled?: boolean }[];
    readonly testOutputs?: Readonly<Record<string, unknown>>;
    readonly testRequest?: { readonly body?: unknown; readonly query?: unknown; readonly user?: unknown };
  },
  at: number,
): LastRunContext | null {
  if (source.testOutputs === undefined) return null;
  const steps: Record<string, unknown> = {};
  for (const step of source.steps.slice(0, at)) {
    if (step.enabled === false || !step.name || !Object.hasOwn(source.testOutputs, step.name)) continue;
    steps[step.name] = source.testOutputs[step.name];
  }
  const body = source.testRequest?.body ?? {};
  const query = (source.testRequest?.query ?? {}) as Record<string, unknown>;
  const user = (source.testRequest?.user ?? null) as Record<string, unknown> | null;
  return { body, query, user, trigger: body, steps };
}

/**
 * The condition checks' reports of a test run by the key of the check draft they were run from
 * (`steps` as they were when the run started), so they stay under the right row as checks move.
 */
export function checkReportsByKey(results: readonly TestRunStep[], steps: readonly Pick<StepDraft, "checks">[]): Record<string, CheckReport> {
  const byKey: Record<string, CheckReport> = {};
  for (const result of results) {
    const drafts = steps[result.index]?.checks ?? [];
    result.checks?.forEach((report, index) => {
      const key = drafts[index]?.key;
      if (key !== undefined) byKey[key] = report;
    });
  }
  return byKey;
}
