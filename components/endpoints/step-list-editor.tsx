"use client";

import { startTransition, useState, type ReactNode } from "react";
import type { ErrorIssue } from "@/lib/errors";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { STEP_CATALOG } from "@/lib/flow/steps/catalog";
import { STEP_KINDS, type StepKind } from "@/lib/flow/steps/step-kind";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormError } from "@/components/ui/form-error";
import { Select } from "@/components/ui/input";
import { newStepDraft, type StepDraft } from "./endpoint-draft";
import { capitalize, issuesUnder } from "./issues";
import { useOnFirstInput } from "@/components/ui/use-on-first-input";
import { loadLiveChecks, withLiveIssues } from "./live-hints";
import { StepCard } from "./step-card";
import { preloadStepForms, preloadStepFormsOf, type EditorSchema } from "./step-settings";
import type { StepRunResult } from "./step-run-result";

/**
 * What editing steps needs beyond the first paint: the live checks, and every kind's settings form
 * (the add-step menu's), so that a step added later appears at once. One load, one re-render.
 */
const loadStepEditing = () => Promise.all([loadLiveChecks(), preloadStepForms()]).then(([checks]) => checks);

/**
 * Editors keep the issues of a step under the step's key (`@<key>.expression`) rather than its
 * index, so that they stay on the right card while steps are moved or removed.
 */
export function stepIssuePath(key: string): string {
  return `@${key}`;
}

/**
 * Server paths → editor paths: `steps.2.expression` → `@<key of step 2>.expression`, with `prefix`
 * (a test run's `endpoint.`) dropped first. Other paths are kept as they are.
 */
export function placeStepIssues(raw: readonly ErrorIssue[], keys: readonly string[], prefix?: RegExp): ErrorIssue[] {
  return raw.map((issue) => {
    const path = prefix ? issue.path.replace(prefix, "") : issue.path;
    const match = /^steps\.(\d+)(?:\.(.*))?$/.exec(path);
    const key = match ? keys[Number(match[1])] : undefined;
    return { path: key ? [stepIssuePath(key), match?.[2]].filter(Boolean).join(".") : path, message: issue.message };
  });
}

/** True for the issues the step list shows itself: about one step or the list as a whole. */
export function isStepListIssue(issue: ErrorIssue): boolean {
  return issue.path.startsWith("@") || issue.path === "steps" || issue.path.startsWith("steps.");
}

/**
 * The ordered steps of a flow, shared by the endpoint and automation editors: a card per step
 * (common fields, the kind's settings, move and remove), the "add step" picker and the step count.
 */
export function StepListEditor({
  steps,
  setSteps,
  issues,
  schemas,
  emailTemplates,
  description,
  emptyText,
  onStepEdited,
  onStepRemoved,
  lastRun,
}: {
  steps: readonly StepDraft[];
  /** Applies a change to the current steps (a functional update, so quick successive edits compose). */
  setSteps: (update: (steps: StepDraft[]) => StepDraft[]) => void;
  /** The editor's issues, step issues placed by placeStepIssues. */
  issues: readonly ErrorIssue[];
  schemas: readonly EditorSchema[];
  emailTemplates: readonly string[];
  description: ReactNode;
  emptyText: string;
  /** Called when a step's own fields change (not on move, add or remove). */
  onStepEdited?: () => void;
  /** Called with the key of a removed step, so the editor can drop its issues. */
  onStepRemoved?: (key: string) => void;
  /** The last test run's result of each step, by step key (keys follow steps that moved since). */
  lastRun?: Readonly<Record<string, StepRunResult>>;
}) {
  const [newKind, setNewKind] = useState<StepKind>("query");
  // Steps are marked as they are typed once the checks have loaded, from the owner's first input on.
  const liveChecks = useOnFirstInput(loadStepEditing);
  preloadStepFormsOf(steps.map((step) => step.type));

  function changeStep(key: string, patch: Partial<StepDraft>) {
    onStepEdited?.();
    setSteps((current) => current.map((step) => (step.key === key ? { ...step, ...patch } : step)));
  }
  function moveStep(index: number, by: -1 | 1) {
    setSteps((current) => {
      const next = [...current];
      const [step] = next.splice(index, 1);
      if (step) next.splice(index + by, 0, step);
      return next;
    });
  }
  function removeStep(key: string) {
    setSteps((current) => current.filter((step) => step.key !== key));
    onStepRemoved?.(key);
  }
  function addStep() {
    // A transition: a kind whose form has not loaded yet (a click before the first input's load ended)
    // then waits for it, where an urgent update would suspend the editor.
    startTransition(() =>
      setSteps((current) => [
        ...current,
        newStepDraft(
          newKind,
          current.map((step) => step.name),
        ),
      ]),
    );
  }

  const stepsIssue = issues.find((issue) => issue.path === "steps" || /^steps\.\d+$/.test(issue.path))?.message;

  return (
    <Card aria-labelledby="steps-heading">
      <CardHeader title={<span id="steps-heading">Steps</span>} description={description} />
      <CardBody className="space-y-3">
        {steps.length === 0 && <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">{emptyText}</p>}
        {steps.map((step, index) => (
          <StepCard
            key={step.key}
            step={step}
            index={index}
            count={steps.length}
            issues={withLiveIssues(issuesUnder(issues, stepIssuePath(step.key)), liveChecks?.liveStepIssues(step) ?? [])}
            schemas={schemas}
            emailTemplates={emailTemplates}
            onChange={(patch) => changeStep(step.key, patch)}
            onMove={(by) => moveStep(index, by)}
            onRemove={() => removeStep(step.key)}
            lastRun={lastRun?.[step.key]}
          />
        ))}
        {stepsIssue && <FormError message={capitalize(stepsIssue)} />}
        <div className="flex flex-wrap items-end gap-2 pt-1">
          <div>
            <label htmlFor="new-step-kind" className="sr-only">
              Step kind
            </label>
            <Select id="new-step-kind" value={newKind} onChange={(event) => setNewKind(event.target.value as StepKind)} className="w-56">
              {STEP_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {STEP_CATALOG[kind].label}
                </option>
              ))}
            </Select>
          </div>
          <Button variant="secondary" onClick={addStep} disabled={steps.length >= FLOW_LIMITS.maxSteps}>
            + Add step
          </Button>
          <span className="ml-auto self-center text-xs text-slate-500">
            {steps.length} of {FLOW_LIMITS.maxSteps} steps
          </span>
        </div>
      </CardBody>
    </Card>
  );
}
