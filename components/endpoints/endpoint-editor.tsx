"use client";

import { useMemo, useRef, useState } from "react";
import { ENDPOINT_AUTH_MODES, ENDPOINT_METHODS, RESPONSE_CONTENT_TYPES, type EndpointMethod, type ResponseContentType } from "@/lib/endpoints/endpoint-constants";
import type { TestRunResult } from "@/lib/endpoints/test-run-endpoint";
import type { EndpointInputSpec } from "@/lib/endpoints/endpoint-input";
import type { ReplayProblem, ReplayRequest } from "@/lib/flow/execution-log/replay-request";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldShell, TextField } from "@/components/ui/field";
import { NameSelect, Select } from "@/components/ui/input";
import { lazyWithPreload } from "@/components/ui/lazy-with-preload";
import type { ActionResult } from "@/lib/http/action-result";
import { canCache, newEndpointDraft, toEndpointInput, type EndpointDraft } from "./endpoint-draft";
import { AllowedOriginsField, Checkbox } from "./form-controls";
import { hasShapeOf } from "./draft-persistence";
import { EditorSaveBar, EditorWorkbench, RestoreDraftBanner, useEditorShortcuts } from "./editor-shell";
import type { StepRunResult } from "./step-run-result";
import { checkReportsByKey } from "./last-test-run";
import { lastRunStaleness, snapshotTestRun, type TestRunSnapshot } from "./last-run-staleness";
import { loadLiveChecks } from "./live-hints";
import { SlugSuggestion } from "./live-previews";
import { TemplateTextarea } from "./template-field";
import { FlowTemplatesProvider, TemplatePositionProvider, testOutputsOf, toTemplateContextStep, type FlowTemplateSource } from "./template-scope";
import { issuesUnder, messageAt, unplacedIssues } from "./issues";
import { KeyValueRows } from "./key-value-rows";
import { AUTH_MODE_LABELS } from "./status-badges";
import { isStepListIssue, StepListEditor } from "./step-list-editor";
import { SchemaSelectField, type EditorSchema } from "./step-settings";
import type { TestRunPanelHandle, TestRunRequest } from "./test-run-panel";
import { InputFieldsTable } from "./input-fields-table";
import { sampleRequestOf, toEndpointInputSpec } from "./input-fields-draft";
import { useFlowEditor, type SaveFlowResult } from "./use-flow-editor";

export interface EndpointEditorActions {
  save: (input: unknown) => Promise<SaveFlowResult>;
  testRun: (input: { endpoint: unknown; body: unknown; query: unknown; user: unknown; endpointId: string | null }) => Promise<ActionResult<TestRunResult>>;
}

const CACHE_CHOICES = [
  { seconds: 0, label: "Off" },
  { seconds: 10, label: "10 seconds" },
  { seconds: 30, label: "30 seconds" },
  { seconds: 60, label: "1 minute" },
  { seconds: 300, label: "5 minutes" },
  { seconds: 900, label: "15 minutes" },
  { seconds: 1800, label: "30 minutes" },
  { seconds: 3600, label: "1 hour" },
];

function isEndpointDraft(value: unknown): value is EndpointDraft {
  return hasShapeOf(value, newEndpointDraft()) && hasShapeOf((value as EndpointDraft).response, newEndpointDraft().response);
}

/**
 * The test-run panel is its own chunk. The server renders it as usual, so its box is in the first
 * paint; the browser requests its code when the editor starts hydrating (with the step forms'). Next
 * hydrates in a transition, which waits where a component's code has not arrived and resumes there,
 * so the page's first scripts leave the panel out and nothing is rendered twice.
 */
const testRunPanel = lazyWithPreload(() => import("./test-run-panel").then((module) => module.TestRunPanel));

const TestRunPanel = testRunPanel.Component;

const PLACED_TOP = new Set(["name", "method", "slug", "auth", "authSchema", "allowedOrigins", "group", "cacheSeconds", "enabled", "response", "input"]);

/**
 * The custom endpoint builder: route, who may call it, the ordered steps with each kind's settings,
 * the response, and a test run of the unsaved draft. The server validates on save and on test
 * runs; its issues (`steps.2.expression`) are shown next to the inputs they are about.
 */
/** The endpoint's live checks, loaded at the owner's first input (useFlowEditor). */
const loadLiveEndpointIssues = () => loadLiveChecks().then((checks) => checks.liveEndpointIssues);

export function EndpointEditor({
  projectId,
  endpointId,
  initial,
  invocationBase,
  schemas,
  emailTemplates,
  actions,
  replay,
  replayProblem,
}: {
  projectId: string;
  /** The saved endpoint being edited, or null for a new one. */
  endpointId: string | null;
  initial: EndpointDraft | null;
  /** `<origin>/api/projects/<projectId>/fn/` */
  invocationBase: string;
  schemas: readonly EditorSchema[];
  emailTemplates: readonly string[];
  actions: EndpointEditorActions;
  /** A logged run's request to start the test panel with (`?replay=<executionId>`). */
  replay?: ReplayRequest | null;
  replayProblem?: ReplayProblem | null;
}) {
  const editor = useFlowEditor({
    kind: "endpoint",
    projectId,
    id: endpointId,
    initial,
    newDraft: newEndpointDraft,
    toInput: toEndpointInput,
    isDraft: isEndpointDraft,
    loadLiveIssues: loadLiveEndpointIssues,
    issuePrefix: /^endpoint\./,
  });
  const { draft, change, shownIssues, issues, setIssues, placeIssues, focusFirstMarkedField } = editor;
  const [lastRun, setLastRun] = useState<Record<string, StepRunResult>>();
  // Requested with the step forms at the start of hydration, not when hydration reaches the panel.
  void testRunPanel.preload().catch(() => {});
  const testPanel = useRef<TestRunPanelHandle>(null);
  const [lastTest, setLastTest] = useState<Pick<FlowTemplateSource, "testOutputs" | "testRequest" | "testChecks">>({});
  /** The steps the last test run ran: its results are marked stale where the draft has moved on. */
  const [lastTestSnapshot, setLastTestSnapshot] = useState<TestRunSnapshot>();
  // The rows as the spec the suggestions read; rows the server would refuse still show their names.
  const typedInput = useMemo(() => toEndpointInputSpec(draft.input) as EndpointInputSpec | null, [draft.input]);
  const inputSample = useMemo(() => sampleRequestOf(draft.input), [draft.input]);
  const templateSource = useMemo<FlowTemplateSource>(
    () => ({
      steps: draft.steps.map(toTemplateContextStep),
      schemas,
      owner: { kind: "endpoint", auth: draft.auth, authSchema: draft.authSchema || null, input: typedInput },
      ...lastTest,
      testStaleness: lastTestSnapshot && lastRunStaleness(lastTestSnapshot, draft.steps),
    }),
    [draft.steps, draft.auth, draft.authSchema, typedInput, schemas, lastTest, lastTestSnapshot],
  );

  const save = () => editor.save(actions.save, "Endpoint saved. Its cached responses were cleared.");

  async function testRun(request: TestRunRequest) {
    const keys = draft.steps.map((step) => step.key);
    const snapshot = snapshotTestRun(draft.steps);
    const result = await actions.testRun({ endpoint: toEndpointInput(draft), ...request, endpointId });
    if (result.ok) {
      setIssues([]);
      setLastTest({
        testOutputs: testOutputsOf(result.data.steps),
        testRequest: { body: request.body, query: request.query, user: request.user },
        testChecks: checkReportsByKey(result.data.steps, draft.steps),
      });
      // By key, so each result stays on its step's card when steps are moved afterwards.
      const byKey: Record<string, StepRunResult> = {};
      for (const step of result.data.steps) {
        const key = keys[step.index];
        if (key) byKey[key] = step;
      }
      setLastRun(byKey);
      setLastTestSnapshot(snapshot);
    } else {
      setIssues(
        placeIssues(
          result.issues.filter((issue) => issue.path.startsWith("endpoint")),
          keys,
        ),
      );
      if (result.issues.some((issue) => issue.path.startsWith("endpoint"))) focusFirstMarkedField();
    }
    return result;
  }

  useEditorShortcuts({
    save: () => {
      if (!editor.pending) save();
    },
    // Hydration commits the panel with the rest of the editor, so the shortcut's listener, attached
    // after it, always finds the panel.
    run: () => testPanel.current?.run(),
  });

  function restoreStoredDraft() {
    if (editor.restoreStoredDraft()) setLastRun(undefined);
  }

  const top = (path: string) => messageAt(shownIssues, path);
  const unplaced = unplacedIssues(
    issues.filter((issue) => !isStepListIssue(issue)),
    PLACED_TOP,
  );
  const changeResponse = (patch: Partial<EndpointDraft["response"]>) => editor.changePart("response", patch);
  const authSchemas = schemas.filter((schema) => schema.kind === "auth").map((schema) => schema.name);
  const url = `${invocationBase}${draft.slug.trim() || "<slug>"}`;
  const cacheable = canCache(draft);
  const cacheChoices = CACHE_CHOICES.some((choice) => choice.seconds === draft.cacheSeconds)
    ? CACHE_CHOICES
    : [...CACHE_CHOICES, { seconds: draft.cacheSeconds, label: `${draft.cacheSeconds} seconds` }];

  return (
    <div className="space-y-6">
      <RestoreDraftBanner offer={editor.stored.offer} noun="endpoint" onRestore={restoreStoredDraft} onDiscard={editor.stored.discardOffer} />
      <EditorWorkbench
        flowLabel="Endpoint definition"
        sideLabel="Test the draft"
        side={
          <TestRunPanel
            ref={testPanel}
            projectId={projectId}
            endUser={draft.auth === "end_user"}
            run={testRun}
            replay={replay}
            replayProblem={replayProblem}
            sample={inputSample}
          />
        }
        flow={
          <>
            <Card>
              <CardHeader title="Route" />
              <CardBody className="space-y-4">
                <div className="grid gap-4 @xl:grid-cols-2">
                  <TextField
                    id="endpoint-name"
                    label="Name"
                    error={top("name")}
                    value={draft.name}
                    onChange={(event) => change({ name: event.target.value })}
                    placeholder="Open tickets"
                  />
                  <TextField
                    id="endpoint-group"
                    label="Group"
                    error={top("group")}
                    hint="Optional: endpoints are listed in sections by group."
                    value={draft.group}
                    onChange={(event) => change({ group: event.target.value })}
                    placeholder="Tickets"
                  />
                </div>
                <div className="grid gap-4 @xl:grid-cols-[9rem_1fr]">
                  <FieldShell id="endpoint-method" label="Method" error={top("method")}>
                    <NameSelect id="endpoint-method" names={ENDPOINT_METHODS} value={draft.method} onChange={(event) => change({ method: event.target.value as EndpointMethod })} />
                  </FieldShell>
                  <TextField
                    id="endpoint-slug"
                    label="Slug"
                    error={top("slug")}
                    footer={<SlugSuggestion slug={draft.slug} onUse={(slug) => change({ slug })} />}
                    hint="Lowercase letters, digits and dashes. The same slug may exist once per method."
                    value={draft.slug}
                    onChange={(event) => change({ slug: event.target.value })}
                    placeholder="open-tickets"
                    className="font-mono"
                    autoComplete="off"
                  />
                </div>
                <div className="flex items-center gap-2 rounded-md bg-slate-100 px-3 py-2">
                  <span className="shrink-0 font-mono text-xs font-semibold text-slate-600">{draft.method}</span>
                  <code data-testid="invocation-url" className="min-w-0 flex-1 truncate font-mono text-sm text-slate-800">
                    {url}
                  </code>
                  <CopyButton value={url} label="Copy URL" disabled={!draft.slug.trim()} />
                </div>
                <Checkbox id="endpoint-enabled" label="Enabled" hint="A disabled endpoint answers 404." checked={draft.enabled} onChange={(enabled) => change({ enabled })} />
              </CardBody>
            </Card>

            <Card>
              <CardHeader title="Input" />
              <CardBody>
                <InputFieldsTable
                  id="endpoint-input"
                  rows={draft.input}
                  onChange={(input) => change({ input })}
                  issues={issues}
                  bodyAllowed={draft.method === "POST" || draft.method === "PUT" || draft.method === "PATCH"}
                />
              </CardBody>
            </Card>

            <Card>
              <CardHeader title="Who may call it" />
              <CardBody className="space-y-5">
                <ChoiceCards
                  legend="Who may call it"
                  name="endpoint-auth"
                  choices={ENDPOINT_AUTH_MODES}
                  labels={AUTH_MODE_LABELS}
                  value={draft.auth}
                  onChange={(auth) => change({ auth })}
                  error={top("auth")}
                  className="@xl:grid-cols-3"
                />
                {draft.auth === "end_user" && (
                  <SchemaSelectField
                    id="endpoint-auth-schema"
                    label="Auth schema"
                    names={authSchemas}
                    value={draft.authSchema}
                    onChange={(authSchema) => change({ authSchema })}
                    error={top("authSchema")}
                    hint="Tokens from this schema's login are accepted."
                    emptyLabel="Choose an auth schema…"
                    noneHint="This project has no auth schema yet: create one under Schemas (kind Auth)."
                    className="max-w-sm font-mono"
                  />
                )}
                <div className="grid gap-4 @xl:grid-cols-2">
                  <AllowedOriginsField
                    id="endpoint-origins"
                    value={draft.allowedOrigins}
                    onChange={(allowedOrigins) => change({ allowedOrigins })}
                    error={top("allowedOrigins")}
                    hint="One per line, such as https://shop.example, or * for any. Empty: no cross-origin browser calls (servers can always call)."
                  />
                  <FieldShell
                    id="endpoint-cache"
                    label="Cache responses for"
                    error={top("cacheSeconds")}
                    hint={
                      cacheable
                        ? "Repeated calls with the same query string are answered from the cache. Saving or disabling clears it."
                        : "Only public GET endpoints can cache responses."
                    }
                  >
                    <Select
                      id="endpoint-cache"
                      value={cacheable ? draft.cacheSeconds : 0}
                      disabled={!cacheable}
                      onChange={(event) => change({ cacheSeconds: Number(event.target.value) })}
                    >
                      {cacheChoices.map((choice) => (
                        <option key={choice.seconds} value={choice.seconds}>
                          {choice.label}
                        </option>
                      ))}
                    </Select>
                  </FieldShell>
                </div>
              </CardBody>
            </Card>

            <FlowTemplatesProvider source={templateSource}>
              <StepListEditor
                steps={draft.steps}
                setSteps={editor.setSteps}
                issues={issues}
                schemas={schemas}
                emailTemplates={emailTemplates}
                onStepEdited={editor.clearSaveMessages}
                onStepRemoved={editor.dropStepIssues}
                lastRun={lastRun}
                emptyText="No steps yet: the endpoint answers its response template as it is."
                description={
                  <>
                    Run top to bottom. Templates read <code className="font-mono text-xs">{"{{body.…}}"}</code>, <code className="font-mono text-xs">{"{{query.…}}"}</code>,{" "}
                    <code className="font-mono text-xs">{"{{user.…}}"}</code> and earlier outputs as <code className="font-mono text-xs">{"{{steps.<name>}}"}</code>. Type{" "}
                    <kbd className="font-mono text-xs">{"{{"}</kbd> in a template field for suggestions.
                  </>
                }
              />

              <Card>
                <CardHeader title="Response" description="Rendered against the final context. A body of exactly {{steps.<name>}} serves that output as it is." />
                <CardBody className="space-y-4">
                  <TemplatePositionProvider at="response">
                    <div className="grid gap-4 @xl:grid-cols-[9rem_16rem]">
                      <TextField
                        id="response-status"
                        label="Status"
                        error={top("response.status")}
                        type="number"
                        min={200}
                        max={599}
                        value={draft.response.status}
                        onChange={(event) => changeResponse({ status: event.target.value })}
                      />
                      <FieldShell id="response-content-type" label="Content type" error={top("response.contentType")}>
                        <NameSelect
                          id="response-content-type"
                          names={RESPONSE_CONTENT_TYPES}
                          value={draft.response.contentType}
                          onChange={(event) => changeResponse({ contentType: event.target.value as ResponseContentType })}
                        />
                      </FieldShell>
                    </div>
                    <FieldShell
                      id="response-body"
                      label="Body template"
                      error={top("response.body")}
                      hint={draft.response.contentType === "application/json" ? "Served as JSON when the rendered text is JSON, else as a string." : "Served verbatim."}
                    >
                      <TemplateTextarea
                        id="response-body"
                        rows={5}
                        mono
                        value={draft.response.body}
                        onValueChange={(body) => changeResponse({ body })}
                        placeholder='{"count": {{steps.tickets.length}}, "data": {{steps.tickets}}}'
                        invalid={Boolean(top("response.body"))}
                      />
                    </FieldShell>
                    <KeyValueRows
                      id="response-headers"
                      legend="Extra headers"
                      hint="Values are templates. set-cookie and CORS headers cannot be set."
                      rows={draft.response.headers}
                      onChange={(headers) => changeResponse({ headers })}
                      issues={issuesUnder(shownIssues, "response.headers")}
                      nameLabel="Header"
                      valueLabel="Header value"
                      namePlaceholder="X-Total"
                      valuePlaceholder="{{steps.tickets.length}}"
                      addLabel="Add header"
                    />
                  </TemplatePositionProvider>
                </CardBody>
              </Card>
            </FlowTemplatesProvider>

            <EditorSaveBar
              error={editor.error}
              unplacedIssues={unplaced}
              notice={editor.notice}
              warnings={editor.warnings}
              issueCount={issues.length}
              idleText={endpointId ? "Changes apply to callers as soon as you save." : "Nothing is live until you save."}
              saveLabel={endpointId ? "Save endpoint" : "Create endpoint"}
              pending={editor.pending}
              onSave={save}
            />
          </>
        }
      />
    </div>
  );
}
