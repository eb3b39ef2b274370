"use client";

import { useRouter } from "next/navigation";
import { useMemo, useRef, useState, useTransition } from "react";
import { MAX_BACKOFF_SECONDS, MAX_RETRY_ATTEMPTS, TRIGGER_TYPES, type TriggerType } from "@/lib/automations/automation-definition";
import type { ErrorIssue } from "@/lib/errors";
import type { TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import type { ReplayProblem, ReplayRequest } from "@/lib/flow/execution-log/replay-request";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/http/action-result";
import type { StepDraft } from "@/components/endpoints/endpoint-draft";
import { draftStorageKey, hasShapeOf } from "@/components/endpoints/draft-persistence";
import { EditorSaveBar, EditorWorkbench, RestoreDraftBanner, useEditorShortcuts, useStoredDraft, useUnsavedChangesGuard } from "@/components/endpoints/editor-shell";
import { Checkbox, FieldShell } from "@/components/endpoints/form-controls";
import { messageAt } from "@/components/endpoints/issues";
import { isStepListIssue, placeStepIssues, StepListEditor, stepIssuePath } from "@/components/endpoints/step-list-editor";
import type { EditorSchema } from "@/components/endpoints/step-settings";
import { withLiveIssues } from "@/components/endpoints/live-checks";
import { useLiveIssueSaveGuard } from "@/components/endpoints/use-live-issue-save-guard";
import { FlowTemplatesProvider, toTemplateContextStep, type FlowTemplateSource } from "@/components/endpoints/template-scope";
import { newAutomationDraft, toAutomationInput, type AutomationDraft } from "./automation-draft";
import { liveAutomationIssues } from "./live-automation-checks";
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
  save: (input: unknown) => Promise<ActionResult<{ id?: string; version?: number; warnings?: TemplateWarning[] }>>;
  /** Queues a run of the saved automation (saved automations only): the Run now panel beside the flow. */
  runNow?: (payload: Record<string, unknown>) => Promise<ActionResult<{ executionId: string }>>;
  /** A logged run's trigger payload to start Run now with (`?replay=<executionId>`). */
  replay?: ReplayRequest | null;
  replayProblem?: ReplayProblem | null;
}) {
  const router = useRouter();
  /** The definition as last saved: the draft is compared with it (unsaved changes) and stored while it differs. */
  const [saved, setSaved] = useState<AutomationDraft>(() => initial ?? newAutomationDraft());
  const [draft, setDraft] = useState<AutomationDraft>(saved);
  const runNowPanel = useRef<RunNowPanelHandle>(null);
  const stored = useStoredDraft({
    storageKey: draftStorageKey("automation", projectId, automationId),
    draft,
    saved,
    toInput: toAutomationInput,
    isDraft: isAutomationDraft,
  });
  useUnsavedChangesGuard(stored.dirty);
  const [issues, setIssues] = useState<ErrorIssue[]>([]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [warnings, setWarnings] = useState<TemplateWarning[]>([]);
  const [pending, startTransition] = useTransition();
  const { refuseOnLiveIssues, focusFirstMarkedField } = useLiveIssueSaveGuard(setError);
  const templateSource = useMemo<FlowTemplateSource>(
    () => ({
      steps: draft.steps.map(toTemplateContextStep),
      schemas,
      owner: { kind: "automation", trigger: { type: draft.triggerType, schema: draft.record.schema || null } },
    }),
    [draft.steps, draft.triggerType, draft.record.schema, schemas],
  );

  function change(patch: Partial<AutomationDraft>) {
    setNotice(undefined);
    setWarnings([]);
    setDraft((current) => ({ ...current, ...patch }));
  }
  function changeTrigger<K extends "form" | "record" | "schedule">(type: K, patch: Partial<AutomationDraft[K]>) {
    setNotice(undefined);
    setWarnings([]);
    setDraft((current) => ({ ...current, [type]: { ...current[type], ...patch } }));
  }
  function setSteps(update: (steps: StepDraft[]) => StepDraft[]) {
    setDraft((current) => ({ ...current, steps: update(current.steps) }));
  }

  function submit() {
    const keys = draft.steps.map((step) => step.key);
    const savedDraft = draft;
    const input = toAutomationInput(draft);
    setError(undefined);
    setNotice(undefined);
    setWarnings([]);
    if (refuseOnLiveIssues(liveAutomationIssues(draft), draft.steps)) return;
    startTransition(async () => {
      const result = await save(input);
      if (!result.ok) {
        setError(result.error);
        setIssues(placeStepIssues(result.issues, keys));
        focusFirstMarkedField();
        return;
      }
      setIssues([]);
      setWarnings(result.data.warnings ?? []);
      setSaved(savedDraft);
      stored.discardOffer();
      if (!automationId && result.data.id) {
        router.push(`/projects/${projectId}/automations/${result.data.id}`);
        return;
      }
      setNotice("Automation saved. Its trigger uses the new definition from now on.");
    });
  }

  useEditorShortcuts({
    save: () => {
      if (!pending) submit();
    },
    run: runNow ? () => runNowPanel.current?.run() : undefined,
  });

  function restoreStoredDraft() {
    const restored = stored.takeOffer();
    if (!restored) return;
    setDraft(restored);
    setIssues([]);
    setNotice(undefined);
    setWarnings([]);
  }

  const shownIssues = withLiveIssues(issues, liveAutomationIssues(draft));
  const top = (path: string) => messageAt(shownIssues, path);
  // Live issues too: one that blocks Save must be visible even where no field shows it.
  const unplaced = shownIssues.filter((issue) => !isPlaced(issue, draft.triggerType)).map(issueSummary);

  return (
    <div className="space-y-6">
      <RestoreDraftBanner offer={stored.offer} noun="automation" onRestore={restoreStoredDraft} onDiscard={stored.discardOffer} />
      <EditorWorkbench
        flowLabel="Automation definition"
        sideLabel="Run the saved automation"
        side={
          runNow && (
            <RunNowPanel
              ref={runNowPanel}
              projectId={projectId}
              triggerType={saved.triggerType}
              run={runNow}
              replay={replay}
              replayProblem={replayProblem}
              unsavedChanges={stored.dirty}
            />
          )
        }
        flow={
          <>
            <Card>
              <CardHeader title="Automation" />
              <CardBody className="space-y-4">
                <FieldShell id="automation-name" label="Name" error={top("name")} className="max-w-xl">
                  <Input
                    id="automation-name"
                    value={draft.name}
                    onChange={(event) => change({ name: event.target.value })}
                    placeholder="Welcome new subscribers"
                    invalid={Boolean(top("name"))}
                  />
                </FieldShell>
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
                <fieldset>
                  <legend className="sr-only">Trigger type</legend>
                  <div className="grid gap-2 @xl:grid-cols-2 @2xl:grid-cols-4">
                    {TRIGGER_TYPES.map((type) => (
                      <label
                        key={type}
                        className={`flex cursor-pointer gap-2 rounded-lg border p-3 text-sm has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600 ${draft.triggerType === type ? "border-indigo-400 bg-indigo-50/50 ring-1 ring-indigo-400" : "border-slate-200 hover:bg-slate-50"}`}
                      >
                        <input
                          type="radio"
                          name="automation-trigger"
                          value={type}
                          checked={draft.triggerType === type}
                          onChange={() => change({ triggerType: type })}
                          className="mt-0.5 accent-indigo-600"
                        />
                        <span>
                          <span className="font-medium text-slate-900">{TRIGGER_LABELS[type].label}</span>
                          <span className="block text-xs text-slate-500">{TRIGGER_LABELS[type].description}</span>
                        </span>
                      </label>
                    ))}
                  </div>
                  {top("trigger.type") && <p className="mt-1 text-sm text-rose-700">{top("trigger.type")}</p>}
                </fieldset>
                {draft.triggerType === "form" && (
                  <FormTriggerSettings draft={draft.form} change={(patch) => changeTrigger("form", patch)} issues={shownIssues} savedForm={savedForm} />
                )}
                {draft.triggerType === "record" && (
                  <RecordTriggerSettings draft={draft.record} change={(patch) => changeTrigger("record", patch)} issues={shownIssues} schemas={schemas} />
                )}
                {draft.triggerType === "schedule" && (
                  <ScheduleTriggerSettings draft={draft.schedule} change={(patch) => changeTrigger("schedule", patch)} issues={shownIssues} timeZones={timeZones} />
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
                setSteps={setSteps}
                issues={issues}
                schemas={schemas}
                emailTemplates={emailTemplates}
                onStepEdited={() => {
                  setNotice(undefined);
                  setWarnings([]);
                }}
                onStepRemoved={(key) => setIssues((current) => current.filter((issue) => !issue.path.startsWith(`${stepIssuePath(key)}.`)))}
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
                  <FieldShell id="retry-attempts" label="Retries" error={top("retry.attempts")} hint={`0 to ${MAX_RETRY_ATTEMPTS} further attempts.`}>
                    <Input
                      id="retry-attempts"
                      type="number"
                      min={0}
                      max={MAX_RETRY_ATTEMPTS}
                      value={draft.retry.attempts}
                      onChange={(event) => change({ retry: { ...draft.retry, attempts: event.target.value } })}
                      invalid={Boolean(top("retry.attempts"))}
                    />
                  </FieldShell>
                  <FieldShell id="retry-backoff" label="Backoff (seconds)" error={top("retry.backoffSeconds")} hint="Wait before each retry.">
                    <Input
                      id="retry-backoff"
                      type="number"
                      min={1}
                      max={MAX_BACKOFF_SECONDS}
                      value={draft.retry.backoffSeconds}
                      onChange={(event) => change({ retry: { ...draft.retry, backoffSeconds: event.target.value } })}
                      invalid={Boolean(top("retry.backoffSeconds"))}
                    />
                  </FieldShell>
                </div>
              </CardBody>
            </Card>

            <EditorSaveBar
              error={error}
              unplacedIssues={unplaced}
              notice={notice}
              warnings={warnings}
              issueCount={issues.length}
              idleText={automationId ? "Changes apply to the next run as soon as you save." : "Nothing runs until you save."}
              saveLabel={automationId ? "Save automation" : "Create automation"}
              pending={pending}
              onSave={submit}
            />
          </>
        }
      />
    </div>
  );
}
