"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { useImperativeHandle, useState, useTransition, type Ref } from "react";
import type { ErrorIssue } from "@/lib/errors";
import type { TestRunResult } from "@/lib/endpoints/test-run-endpoint";
import type { ReplayProblem, ReplayRequest } from "@/lib/flow/execution-log/replay-request";
import { STEP_CATALOG } from "@/lib/flow/steps/catalog";
import { CodeBlock } from "@/components/ui/code-block";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormError, Notice } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { FieldShell } from "@/components/ui/field";
import { Textarea } from "./form-controls";
import { messageAt } from "./issues";
import { OutcomeBadge, StepStatusBadge, formatDuration, formatRunTime } from "./status-badges";
import { ShortcutButton } from "./editor-shell";
import { prettyOutput } from "./step-run-result";
import { useSampleFromInput } from "./use-sample-from-input";

export interface TestRunRequest {
  body: Record<string, unknown>;
  query: Record<string, string | string[]>;
  user: Record<string, unknown> | null;
}

export type TestRunAnswer = { ok: true; data: TestRunResult } | { ok: false; error: string; issues: ErrorIssue[] };

/** `a=1&b=2&b=3` → {a: "1", b: ["2", "3"]}, as the invocation route reads a query string. */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text.trim().replace(/^\?/, ""))) {
    const existing = query[name];
    query[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

function parseObject(text: string, what: string): { ok: true; value: Record<string, unknown> | null } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, message: `The ${what} must be a JSON object.` };
    return { ok: true, value: value as Record<string, unknown> };
  } catch {
    return { ok: false, message: `The ${what} is not valid JSON.` };
  }
}

/** What the editor can do to the panel: start a run (the Ctrl+Enter shortcut). */
export interface TestRunPanelHandle {
  run: () => void;
}

const NO_SAMPLE = { body: "", query: "" };

const SAMPLE_USER = '{\n  "id": "sample-user",\n  "email": "ada@example.com"\n}';

/** What a replay says about what it loaded: where from, and what the log could not keep as it was. */
export function ReplayNotice({
  projectId,
  replay,
  userLoaded = false,
  loaded = "request",
}: {
  projectId: string;
  replay: ReplayRequest;
  userLoaded?: boolean;
  loaded?: "request" | "payload";
}) {
  const what = replay.source === "automation" ? "automation run" : replay.source === "test_run" ? "test run" : "call";
  return (
    <Notice tone={replay.bodyCut || replay.masked || replay.sanitized ? "warning" : "info"}>
      <p>
        Loaded the {loaded === "payload" ? "payload" : "request"} of the {what}{" "}
        <Link href={`/projects/${projectId}/executions/${replay.executionId}`} className="font-mono text-xs underline underline-offset-2">
          {replay.executionId}
        </Link>{" "}
        ({formatRunTime(replay.startedAt)}) as the log kept it.
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {replay.masked && <li>Secret values stay masked ([redacted], [secret:…]): replace them with test values before running.</li>}
        {replay.bodyCut && <li>The log kept only the start of the body (it was cut at its size cap): complete it, or the run is refused as not valid JSON.</li>}
        {replay.sanitized && <li>Characters the log could not store were replaced.</li>}
        {userLoaded && <li>The log keeps only the end user&apos;s id; add the profile fields the flow reads.</li>}
      </ul>
    </Notice>
  );
}

/**
 * Runs the editor's draft against a sample request and shows what each step did and what the
 * caller would get. The run is real, which the panel says before anything else. A replay
 * (`?replay=<executionId>`) starts it with a logged run's request instead of the samples.
 */
export function TestRunPanel({
  projectId,
  endUser,
  run,
  replay,
  replayProblem,
  sample = NO_SAMPLE,
  ref,
}: {
  projectId: string;
  endUser: boolean;
  /** A request built from the endpoint's declared input (input-fields-draft.ts), used while the fields are empty. */
  sample?: { body: string; query: string };
  run: (request: TestRunRequest) => Promise<TestRunAnswer>;
  replay?: ReplayRequest | null;
  replayProblem?: ReplayProblem | null;
  ref?: Ref<TestRunPanelHandle>;
}) {
  const userLoaded = Boolean(replay?.userId) && endUser;
  const [bodyText, setBodyText] = useState(replay?.bodyText ?? (sample.body || "{}"));
  const [queryText, setQueryText] = useState(replay?.queryText ?? sample.query);
  useSampleFromInput(sample.body, bodyText, setBodyText, ["", "{}"]);
  useSampleFromInput(sample.query, queryText, setQueryText, [""]);
  const [userText, setUserText] = useState(userLoaded ? JSON.stringify({ id: replay?.userId }, null, 2) : SAMPLE_USER);
  const [problem, setProblem] = useState<{ message: string; issues: ErrorIssue[] }>();
  const [result, setResult] = useState<TestRunResult>();
  const [pending, startTransition] = useTransition();

  function start() {
    const body = parseObject(bodyText, "body");
    const user = endUser ? parseObject(userText, "sample user") : ({ ok: true, value: null } as const);
    if (!body.ok || !user.ok) {
      setProblem({ message: !body.ok ? body.message : !user.ok ? user.message : "", issues: [] });
      return;
    }
    setProblem(undefined);
    startTransition(async () => {
      const answer = await run({ body: body.value ?? {}, query: parseQueryString(queryText), user: user.value });
      if (answer.ok) {
        setResult(answer.data);
      } else {
        setResult(undefined);
        setProblem({ message: answer.error, issues: answer.issues });
      }
    });
  }

  useImperativeHandle(ref, () => ({ run: () => (pending ? undefined : start()) }));

  const requestIssues = problem?.issues.filter((issue) => !issue.path.startsWith("endpoint")) ?? [];
  const endpointProblem = problem?.issues.some((issue) => issue.path.startsWith("endpoint"));

  return (
    <Card aria-labelledby="test-run-heading">
      <CardHeader title={<span id="test-run-heading">Test run</span>} description="Runs the draft as it is in the editor, without saving it." />
      <CardBody className="space-y-4">
        <div role="note" className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
          <span aria-hidden="true" className="font-bold">
            !
          </span>
          <p>
            <strong>Test runs run for real.</strong> Create and update steps write records to your database, emails are sent and HTTP requests and webhooks are made. Use sample
            data you can delete. The run is logged as a test run.
          </p>
        </div>
        {replay && <ReplayNotice projectId={projectId} replay={replay} userLoaded={userLoaded} />}
        {replayProblem && <Notice tone="warning">{replayProblem.message}</Notice>}
        {/* One column in the editor's narrow side pane (xl), two on a full-width row below the flow. */}
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-1">
          <FieldShell id="test-body" label="Request body (JSON)" error={messageAt(requestIssues, "body")} hint="Available as {{body.…}} and {{trigger.…}}.">
            <Textarea id="test-body" rows={endUser ? 4 : 6} mono value={bodyText} onChange={(event) => setBodyText(event.target.value)} />
          </FieldShell>
          <div className="space-y-4">
            <FieldShell id="test-query" label="Query string" error={messageAt(requestIssues, "query")} hint="Available as {{query.…}}.">
              <Input id="test-query" value={queryText} onChange={(event) => setQueryText(event.target.value)} placeholder="status=open&page=2" className="font-mono" />
            </FieldShell>
            {endUser && (
              <FieldShell
                id="test-user"
                label="Sample end user (JSON)"
                error={messageAt(requestIssues, "user")}
                hint="Available as {{user.…}}; a real call takes it from the caller's token."
              >
                <Textarea id="test-user" rows={4} mono value={userText} onChange={(event) => setUserText(event.target.value)} />
              </FieldShell>
            )}
          </div>
        </div>
        <FormError
          message={problem ? (endpointProblem ? `${problem.message}: fix the marked fields above.` : problem.message) : undefined}
          issues={requestIssues.map((issue) => `${issue.path}: ${issue.message}`)}
        />
        <div className="flex items-center justify-end gap-3">
          <ShortcutButton shortcut="run" pending={pending} onClick={start}>
            Run test
          </ShortcutButton>
        </div>
        {/* Present before any run, so that screen readers announce what changes in it. */}
        <p role="status" className="sr-only">
          {pending
            ? "Running the test…"
            : result
              ? `Test run ${result.outcome}: answered ${result.response.status}, ${result.steps.length} ${result.steps.length === 1 ? "step" : "steps"}.`
              : ""}
        </p>

        {result && (
          <section aria-label="Test run result" className="space-y-4 border-t border-slate-100 pt-4">
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <OutcomeBadge outcome={result.outcome} />
              <span className="text-slate-600">
                Answered <strong className="font-semibold text-slate-900">{result.response.status}</strong>
              </span>
              <Link href={`/projects/${projectId}/executions/${result.executionId}`} className="font-mono text-xs text-indigo-600 hover:text-indigo-500">
                {result.executionId}
              </Link>
            </div>
            <ol className="space-y-2">
              {result.steps.map((step) => (
                <li key={step.index} aria-label={`Step ${step.index + 1} result`} className="rounded-lg border border-slate-200">
                  <div className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
                    <span className="grid size-6 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600">{step.index + 1}</span>
                    <span className="font-medium text-slate-900">{STEP_CATALOG[step.type].label}</span>
                    {step.name && <code className="font-mono text-xs text-slate-500">steps.{step.name}</code>}
                    <span className="ml-auto flex items-center gap-2">
                      <span className="text-xs tabular-nums text-slate-500">{formatDuration(step.durationMs)}</span>
                      <StepStatusBadge status={step.status} />
                    </span>
                  </div>
                  {step.error && step.status === "stopped" && (
                    <p className="border-t border-amber-100 bg-amber-50 px-3 py-2 text-sm text-amber-950">
                      The checks did not pass: the flow stopped here and answered <strong>{result.response.status}</strong> with the body below.
                    </p>
                  )}
                  {step.error && step.status !== "stopped" && <p className="border-t border-rose-100 bg-rose-50 px-3 py-2 text-sm text-rose-800">{step.error}</p>}
                  {step.output !== null && step.output !== undefined && (
                    <CodeBlock label={`Output of step ${step.index + 1}`} className="max-h-64 border-t border-slate-100 bg-slate-50 px-3 py-2 text-slate-800">
                      {prettyOutput(step.output)}
                    </CodeBlock>
                  )}
                </li>
              ))}
              {result.steps.length === 0 && <li className="text-sm text-slate-500">The flow has no steps.</li>}
            </ol>
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Response</h3>
              <div className="mt-2 overflow-hidden rounded-lg border border-slate-200">
                <div className="flex flex-wrap gap-x-4 gap-y-1 border-b border-slate-100 px-3 py-2 font-mono text-xs text-slate-600">
                  <span>
                    <span className="text-slate-500">status</span> {result.response.status}
                  </span>
                  {Object.entries(result.response.headers).map(([name, value]) => (
                    <span key={name}>
                      <span className="text-slate-500">{name}</span> {value}
                    </span>
                  ))}
                </div>
                <CodeBlock label="Response body" className="max-h-96 bg-slate-900 px-3 py-2 text-slate-100 focus-visible:outline-indigo-400">
                  {prettyOutput(result.response.body)}
                </CodeBlock>
              </div>
            </div>
          </section>
        )}
      </CardBody>
    </Card>
  );
}
