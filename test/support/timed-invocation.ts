import { expect } from "vitest";
import type { ProjectApi } from "@/test/support/project-api";

/** One endpoint invocation, timed to the end of its answer (the fault suites bound how long answers take). */
export interface TimedAnswer {
  status: number;
  ms: number;
  text: string;
  headers: Headers;
}

export async function timedInvoke(api: ProjectApi, slug: string, init: RequestInit = {}): Promise<TimedAnswer> {
  const started = performance.now();
  const response = await api.invoke(slug, init);
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text, headers: response.headers };
}

/**
 * The specification's answer for a failed step, 500 `{"error":"endpoint execution failed","executionId":…}`
 * and nothing else, with none of `secrets` (what the failing server is) in a header; answers the
 * execution id.
 */
export function expectFailedStepAnswer(answer: TimedAnswer, secrets: string[]): string {
  expect(answer.status).toBe(500);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "executionId"]);
  expect(body.error).toBe("endpoint execution failed");
  expect(body.executionId).toMatch(/^exe_[0-9a-z]{26}$/);
  // The body is exactly those two fields (checked above); no header names the failing server either.
  const headers = JSON.stringify([...answer.headers]);
  for (const secret of secrets) expect(headers).not.toContain(secret);
  return body.executionId as string;
}
