"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { buildTemplateContext, type TemplateContext, type TemplateContextStep, type TemplateFlowOwner } from "@/lib/flow/template-context/build-template-context";
import type { TemplateContextSchema } from "@/lib/flow/template-context/shape-of-record";
import type { StepResult } from "@/lib/flow/engine/run-flow";
import type { CheckReport } from "@/lib/flow/steps/condition/explain-run-checks";
import type { StepDraft } from "./endpoint-draft";
import { lastRunContextAt, type LastRunContext } from "./last-test-run";
import { isStepResultStale, type LastRunStaleness } from "./last-run-staleness";

/**
 * What the template fields of a flow editor can read, handed down without threading props through
 * every settings form: the editor provides the flow (steps, schemas, who runs it, the last test
 * outputs), each step card and the response section say where they stand, and a template field
 * builds its context from both (lib/flow/template-context).
 */
export interface FlowTemplateSource {
  readonly steps: readonly TemplateContextStep[];
  readonly schemas: readonly TemplateContextSchema[];
  readonly owner: TemplateFlowOwner;
  readonly testOutputs?: Readonly<Record<string, unknown>>;
  readonly testRequest?: { readonly body?: unknown; readonly query?: unknown; readonly user?: unknown };
  /** How each condition check was decided in the last test run, by check draft key. */
  readonly testChecks?: Readonly<Record<string, CheckReport>>;
  /** Which of the last test run's results predate the owner's edits since (last-run-staleness.ts). */
  readonly testStaleness?: LastRunStaleness;
}

const FlowTemplates = createContext<FlowTemplateSource | null>(null);
const TemplateContextAtPosition = createContext<TemplateContext | null>(null);
const TemplatePosition = createContext<number | "response" | null>(null);

export function FlowTemplatesProvider({ source, children }: { source: FlowTemplateSource; children?: ReactNode }) {
  return <FlowTemplates.Provider value={source}>{children}</FlowTemplates.Provider>;
}

/** Marks the templates below as those of step `at` (0-based) or of the response; their context is built once here. */
export function TemplatePositionProvider({ at, children }: { at: number | "response"; children?: ReactNode }) {
  const source = useContext(FlowTemplates);
  const context = useMemo(() => (source === null ? null : buildTemplateContext({ ...source, at })), [source, at]);
  return (
    <TemplatePosition.Provider value={at}>
      <TemplateContextAtPosition.Provider value={context}>{children}</TemplateContextAtPosition.Provider>
    </TemplatePosition.Provider>
  );
}

/** The context of the template fields here, or null outside a flow editor's steps and response (plain fields then). */
export function useTemplateContext(): TemplateContext | null {
  return useContext(TemplateContextAtPosition);
}

/** The last test run's values as the step here saw them (request, earlier outputs), or null before a run or outside a step. */
export function useLastRunContext(): LastRunContext | null {
  const source = useContext(FlowTemplates);
  const at = useContext(TemplatePosition);
  return useMemo(() => (source === null || typeof at !== "number" ? null : lastRunContextAt(source, at)), [source, at]);
}

/** How the last test run decided the condition check drafted under `key`, if it ran. */
export function useLastRunCheckReport(key: string): CheckReport | undefined {
  return useContext(FlowTemplates)?.testChecks?.[key];
}

/** Whether the check drafted under `key` was edited, or a step before it, since the last test run decided it. */
export function useLastRunCheckStale(key: string): boolean {
  return useContext(FlowTemplates)?.testStaleness?.staleChecks.has(key) ?? false;
}

/** Whether the steps before the one here changed since the last test run: its values here are from before that edit. */
export function useLastRunContextStale(): boolean {
  const staleness = useContext(FlowTemplates)?.testStaleness;
  const at = useContext(TemplatePosition);
  return typeof at === "number" && staleness?.earlierStepsChanged[at] === true;
}

/** Whether the last test run's result of the step drafted under `key`, now at `index`, predates an edit to it or to an earlier step. */
export function useLastRunStepStale(key: string, index: number): boolean {
  return isStepResultStale(useContext(FlowTemplates)?.testStaleness, key, index);
}

/** The outputs of a test run's steps that ran, by output name: what the suggestions show next. */
export function testOutputsOf(steps: readonly Pick<StepResult, "name" | "status" | "output">[]): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const step of steps) if (step.name !== null && step.status === "ok") outputs[step.name] = step.output;
  return outputs;
}

/** A step draft as the template context reads it (kind, output name, enabled, and a data step's schema and expanded relations). */
export function toTemplateContextStep(step: StepDraft): TemplateContextStep {
  return { type: step.type, name: step.name, enabled: step.enabled, schema: step.settings.schema, expand: step.settings.expand };
}
