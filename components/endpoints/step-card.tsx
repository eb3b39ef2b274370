"use client";

import type { ErrorIssue } from "@/lib/errors";
import { STEP_CATALOG } from "@/lib/flow/steps/catalog";
import { cn } from "@/components/ui/cn";
import { FormError } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { FieldShell } from "@/components/ui/field";
import { ArrowDownIcon, ArrowUpIcon, Checkbox, IconButton, TrashIcon } from "./form-controls";
import { KINDS_WITHOUT_OUTPUT, type StepDraft } from "./endpoint-draft";
import { messageAt, unplacedIssues } from "./issues";
import { StepSettings, type EditorSchema } from "./step-settings";
import { StepRunResultView, type StepRunResult } from "./step-run-result";
import { TemplatePositionProvider, useLastRunStepStale } from "./template-scope";

const COMMON_KEYS = ["name", "enabled", "continueOnError", "type"];

/** One step of the flow: its common fields (output name, enabled, continue on error), its kind's settings, and move/remove. */
export function StepCard({
  step,
  index,
  count,
  issues,
  schemas,
  emailTemplates,
  onChange,
  onMove,
  onRemove,
  lastRun,
}: {
  step: StepDraft;
  index: number;
  count: number;
  /** This step's issues, paths relative to it. */
  issues: readonly ErrorIssue[];
  schemas: readonly EditorSchema[];
  emailTemplates: readonly string[];
  onChange: (patch: Partial<StepDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  /** This step's result in the editor's last test run, when there was one. */
  lastRun?: StepRunResult;
}) {
  const definition = STEP_CATALOG[step.type];
  const known = new Set([...COMMON_KEYS, ...Object.keys(definition.defaults)]);
  const unplaced = unplacedIssues(issues, known);
  const nameError = messageAt(issues, "name");
  const lastRunStale = useLastRunStepStale(step.key, index);
  // Kinds without output hide the output name, unless one was saved (an imported definition).
  const withoutOutput = KINDS_WITHOUT_OUTPUT.has(step.type) && step.name === "" && !nameError;
  const toggles = (
    <>
      <Checkbox id={`${step.key}-enabled`} label="Enabled" checked={step.enabled} onChange={(enabled) => onChange({ enabled })} />
      <Checkbox id={`${step.key}-continue`} label="Continue on error" checked={step.continueOnError} onChange={(continueOnError) => onChange({ continueOnError })} />
    </>
  );
  return (
    // min-w-0: a fieldset is at least as wide as its content by default, which pushed the card out
    // of the flow pane beside the run panel.
    <fieldset aria-label={`Step ${index + 1}`} className={cn("min-w-0 rounded-lg border bg-white", issues.length > 0 ? "border-rose-300" : "border-slate-200")}>
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-3">
        <span className="grid size-7 shrink-0 place-items-center rounded-full bg-indigo-50 text-sm font-semibold text-indigo-700">{index + 1}</span>
        <div className="min-w-0 flex-1">
          <p className="font-medium text-slate-900">{definition.label}</p>
          <p className="truncate text-xs text-slate-500">{definition.description}</p>
        </div>
        <div className="flex items-center gap-1">
          <IconButton label="Move step up" onClick={() => onMove(-1)} disabled={index === 0}>
            <ArrowUpIcon />
          </IconButton>
          <IconButton label="Move step down" onClick={() => onMove(1)} disabled={index === count - 1}>
            <ArrowDownIcon />
          </IconButton>
          <IconButton label="Remove step" tone="danger" onClick={onRemove}>
            <TrashIcon />
          </IconButton>
        </div>
      </div>
      <div className={cn("space-y-4 p-4", !step.enabled && "opacity-60")}>
        {withoutOutput ? (
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            {toggles}
            <span className="text-xs text-slate-500">This kind of step has no output.</span>
          </div>
        ) : (
          <div className="grid items-end gap-4 @xl:grid-cols-[minmax(0,16rem)_1fr]">
            <FieldShell
              id={`${step.key}-output`}
              label="Output name"
              error={nameError}
              hint={step.name.trim() ? `Used as {{steps.${step.name.trim()}}}` : "Optional: name the output to use it later."}
            >
              <Input
                id={`${step.key}-output`}
                value={step.name}
                onChange={(event) => onChange({ name: event.target.value })}
                placeholder="tickets"
                className="font-mono"
                autoComplete="off"
                invalid={Boolean(nameError)}
              />
            </FieldShell>
            <div className="flex flex-wrap gap-x-6 gap-y-2 pb-6">{toggles}</div>
          </div>
        )}
        <TemplatePositionProvider at={index}>
          <StepSettings step={step} onChange={onChange} issues={issues} schemas={schemas} emailTemplates={emailTemplates} />
        </TemplatePositionProvider>
        <FormError issues={unplaced} />
      </div>
      {lastRun && <StepRunResultView stepNumber={index + 1} result={lastRun} stale={lastRunStale} />}
    </fieldset>
  );
}
