"use client";

import { useMemo, useRef } from "react";
import { MAX_BACKOFF_SECONDS, MAX_RETRY_ATTEMPTS, TRIGGER_TYPES, type TriggerType } from "@/lib/automations/automation-constants";
import type { ErrorIssue } from "@/lib/errors";
import type { ReplayProblem, ReplayRequest } from "@/lib/flow/execution-log/replay-request";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { TextField } from "@/components/ui/field";
import type { ActionResult } from "@/lib/http/action-result";
import { hasShapeOf } from "@/components/endpoints/draft-persistence";
import { EditorSaveBar, EditorWorkbench, RestoreDraftBanner, useEditorShortcuts } from "@/components/endpoints/editor-shell";
import { Checkbox } from "@/components/endpoints/form-controls";
import { messageAt } from "@/components/endpoints/issues";
import { isStepListIssue, StepListEditor } from "@/components/endpoints/step-list-editor";
import type { EditorSchema } from "@/components/endpoints/step-settings";
import { useFlowEditor, type SaveFlowResult } from "@/components/endpoints/use-flow-editor";
import { FlowTemplatesProvider, toTemplateContextStep, type FlowTemplateSource } from "@/components/endpoints/template-scope";
import { newAutomationDraft, toAutomationInput, type AutomationDraft } from "./automation-draft";
import { RunNowPanel, type RunNowPanelHandle } from "./run-now-panel";
import { TRIGGER_LABELS } from "./trigger-badge";
import { FormTriggerSettings, RecordTriggerSettings, ScheduleTriggerSettings, type SavedForm } from "./trigger-settings";

/** The trigger fields each type shows; issues at other trigger paths go to the summary above Save. */
const TRIGGER_FIELDS: Record<TriggerType, readonly string[]> = {
  form: ["form", "allowedOrigins", "honeypot", "redirectUrl"],
  record: ["schema", "events", "condition"],
  schedule: ["cron", "timezone"],
  manual: [],
};

function isPlaced(issue: ErrorIssue, triggerType: TriggerType): boolean {
  if (isStepListIssue(issue)) return true;
  const [head, field] = issue.path.split(".");
  if (head === "name" || head === "enabled" || head === "retry") return true;
  return head === "trigger" && field !== undefined && TRIGGER_FIELDS[triggerType].includes(field);
}

function isAutomationDraft(value: unknown): value is AutomationDraft {
  const template = newAutomationDraft();
  if (!hasShapeOf(value, template)) return false;
  const draft = value as AutomationDraft;
  return (
    hasShapeOf(draft.form, template.form) && hasShapeOf(draft.record, template.record) && hasShapeOf(draft.schedule, template.schedule) && hasShapeOf(draft.retry, template.retry)
  );
}

function issueSummary(issue: ErrorIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

/**
 * The automation builder: name, the trigger (form, record change, schedule or manual) with its
 * settings, the same step editor as endpoints, and retries. The server validates on save; its
 * issues (`trigger.cron`, `steps.2.limit`, `retry.attempts`) are shown at the inputs they are about.
 */
/** The automation's live checks, loaded at the owner's first input (useFlowEditor). */
const loadLiveAutomationIssues = () => import("./live-automation-checks").then((checks) => checks.liveAutomationIssues);

export function AutomationEditor({
  projectId,
  automationId,
  initial,
  schemas,
  emailTemplates,
  timeZones,
  savedForm,
  save,
  runNow,
  replay,
  replayProblem,
}: {
  projectId: string;
  /** The saved automation being edited, or null for a new one. */
  automationId: string | null;
  initial: AutomationDraft | null;
  schemas: readonly EditorSchema[];
  emailTemplates: readonly string[];
  timeZones: readonly string[];
  /** The saved form trigger's public URL and snippet (saved form automations only). */
  savedForm: SavedForm | null;
  save: (input: unknown) => Promise<SaveFlowResult>;
  /** Queues a run of the saved automation (saved automations only): the Run now panel beside the flow. */
  runNow?: (payload: Record<string, unknown>) => Promise<ActionResult<{ executionId: string }>>;
  /** A logged run's trigger payload to start Run now with (`?replay=<executionId>`). */
  replay?: ReplayRequest | null;
  replayProblem?: ReplayProblem | null;
}) {
  const editor = useFlowEditor({
    kind: "automation",
    projectId,
    id: automationId,
    initial,
    newDraft: newAutomationDraft,
    toInput: toAutomationInput,
    isDraft: isAutomationDraft,
    loadLiveIssues: loadLiveAutomationIssues,
  });
  const { draft, change, shownIssues } = editor;
  const runNowPanel = useRef<RunNowPanelHandle>(null);
  const templateSource = useMemo<FlowTemplateSource>(
    () => ({
      steps: draft.steps.map(toTemplateContextStep),
      schemas,
      owner: { kind: "automation", trigger: { type: draft.triggerType, schema: draft.record.schema || null } },
    }),
    [draft.steps, draft.triggerType, draft.record.schema, schemas],
  );

  const submit = () => editor.save(save, "Automation saved. Its trigger uses the new definition from now on.");
  useEditorShortcuts({
    save: () => {
      if (!editor.pending) submit();
    },
    run: runNow ? () => runNowPanel.current?.run() : undefined,
  });

  const top = (path: string) => messageAt(shownIssues, path);
  // Live issues too: one that blocks Save must be visible even where no field shows it.
  const unplaced = shownIssues.filter((issue) => !isPlaced(issue, draft.triggerType)).map(issueSummary);

  return (
    <div className="space-y-6">
      <RestoreDraftBanner offer={editor.stored.offer} noun="automation" onRestore={editor.restoreStoredDraft} onDiscard={editor.stored.discardOffer} />
      <EditorWorkbench
        flowLabel="Automation definition"
        sideLabel="Run the saved automation"
        side={
          runNow && (
            <RunNowPanel
              ref={runNowPanel}
              projectId={projectId}
              triggerType={editor.saved.triggerType}
              run={runNow}
              replay={replay}
              replayProblem={replayProblem}
              unsavedChanges={editor.stored.dirty}
            />
          )
        }
        flow={
          <>
            <Card>
              <CardHeader title="Automation" />
              <CardBody className="space-y-4">
                <TextField
                  id="automation-name"
                  label="Name"
                  error={top("name")}
                  fieldClassName="max-w-xl"
                  value={draft.name}
                  onChange={(event) => change({ name: event.target.value })}
                  placeholder="Welcome new subscribers"
                />
                <Checkbox
                  id="automation-enabled"
                  label="Enabled"
                  hint="A disabled automation's trigger starts no runs; Run now still works."
                  checked={draft.enabled}
                  onChange={(enabled) => change({ enabled })}
                />
              </CardBody>
            </Card>

            <Card aria-labelledby="trigger-heading">
              <CardHeader title={<span id="trigger-heading">Trigger</span>} description="What starts a run. The flow reads what started it as {{trigger.…}}." />
              <CardBody className="space-y-5">
                <ChoiceCards
                  legend="Trigger type"
                  name="automation-trigger"
                  choices={TRIGGER_TYPES}
                  labels={TRIGGER_LABELS}
                  value={draft.triggerType}
                  onChange={(triggerType) => change({ triggerType })}
                  error={top("trigger.type")}
                  className="@xl:grid-cols-2 @2xl:grid-cols-4"
                />
                {draft.triggerType === "form" && (
                  <FormTriggerSettings draft={draft.form} change={(patch) => editor.changePart("form", patch)} issues={shownIssues} savedForm={savedForm} />
                )}
                {draft.triggerType === "record" && (
                  <RecordTriggerSettings draft={draft.record} change={(patch) => editor.changePart("record", patch)} issues={shownIssues} schemas={schemas} />
                )}
                {draft.triggerType === "schedule" && (
                  <ScheduleTriggerSettings draft={draft.schedule} change={(patch) => editor.changePart("schedule", patch)} issues={shownIssues} timeZones={timeZones} />
                )}
                {draft.triggerType === "manual" && (
                  <p className="text-sm text-slate-500">
                    Nothing to set up: runs start from Run now on this page or from the API, with the JSON payload you give as {"{{trigger.…}}"}.
                  </p>
                )}
              </CardBody>
            </Card>

            <FlowTemplatesProvider source={templateSource}>
              <StepListEditor
                steps={draft.steps}
                setSteps={editor.setSteps}
                issues={editor.issues}
                schemas={schemas}
                emailTemplates={emailTemplates}
                onStepEdited={editor.clearSaveMessages}
                onStepRemoved={editor.dropStepIssues}
                emptyText="No steps yet: a run would do nothing."
                description={
                  <>
                    Run top to bottom. Templates read the trigger as <code className="font-mono text-xs">{"{{trigger.…}}"}</code> and earlier outputs as{" "}
                    <code className="font-mono text-xs">{"{{steps.<name>}}"}</code>. Writes made here start no record triggers. Type <kbd className="font-mono text-xs">{"{{"}</kbd>{" "}
                    in a template field for suggestions.
                  </>
                }
              />
            </FlowTemplatesProvider>

            <Card>
              <CardHeader title="Retries" description="A failed run can be tried again after a pause. Steps have side effects (emails, writes), so retries are off by default." />
              <CardBody>
                <div className="grid gap-4 @xl:grid-cols-[12rem_12rem]">
                  <TextField
                    id="retry-attempts"
                    label="Retries"
                    error={top("retry.attempts")}
                    hint={`0 to ${MAX_RETRY_ATTEMPTS} further attempts.`}
                    type="number"
                    min={0}
                    max={MAX_RETRY_ATTEMPTS}
                    value={draft.retry.attempts}
                    onChange={(event) => editor.changePart("retry", { attempts: event.target.value })}
                  />
                  <TextField
                    id="retry-backoff"
                    label="Backoff (seconds)"
                    error={top("retry.backoffSeconds")}
                    hint="Wait before each retry."
                    type="number"
                    min={1}
                    max={MAX_BACKOFF_SECONDS}
                    value={draft.retry.backoffSeconds}
                    onChange={(event) => editor.changePart("retry", { backoffSeconds: event.target.value })}
                  />
                </div>
              </CardBody>
            </Card>

            <EditorSaveBar
              error={editor.error}
              unplacedIssues={unplaced}
              notice={editor.notice}
              warnings={editor.warnings}
              issueCount={editor.issues.length}
              idleText={automationId ? "Changes apply to the next run as soon as you save." : "Nothing runs until you save."}
              saveLabel={automationId ? "Save automation" : "Create automation"}
              pending={editor.pending}
              onSave={submit}
            />
          </>
        }
      />
    </div>
  );
}
